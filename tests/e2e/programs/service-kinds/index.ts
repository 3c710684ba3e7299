// The kinds beyond the spec, under the service's names: the five EDR integrations, the two directory syncs, a
// peer's EDR bypass and an MSP tenant, in two stages: stage 2 changes every kind but the bypass in place.
//
// Config: secret (a secret: every credential is made from it), peerId (an enrolled peer), stage (1 or 2).
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
const two = config.getNumber("stage") === 2;
const secret = config.requireSecret("secret");
const base64 = (suffix: string) => secret.apply((s) => Buffer.from(`${s}-${suffix}`).toString("base64"));

const checked = new privnet.Group("checked", { name: "ts-checked" });
const groups = [checked.id];

new privnet.EdrSentinelOne("sentinelone", {
  groups,
  lastSyncedInterval: two ? 48 : 24,
  apiUrl: "https://s1.example.com",
  apiToken: secret.apply((s) => `${s}-s1`),
  matchAttributes: { activeThreats: 0, infected: false },
});
new privnet.EdrIntune("intune", {
  groups,
  lastSyncedInterval: 24,
  clientId: "intune-app",
  tenantId: "intune-tenant",
  secret: secret.apply((s) => `${s}-intune`),
  enabled: !two,
});
new privnet.EdrFalcon("falcon", {
  groups,
  clientId: secret.apply((s) => `${s}-falcon-id`),
  secret: secret.apply((s) => `${s}-falcon`),
  cloudId: "eu-1",
  ztaScoreThreshold: two ? 80 : 70,
});
new privnet.EdrHuntress("huntress", {
  groups,
  lastSyncedInterval: 24,
  apiKey: secret.apply((s) => `${s}-huntress-key`),
  apiSecret: secret.apply((s) => `${s}-huntress`),
  matchAttributes: { firewallStatus: two ? "Enabled" : "Isolated" },
});
new privnet.EdrFleetDm("fleet", {
  groups,
  lastSyncedInterval: 24,
  apiUrl: "https://fleet.example.com",
  apiToken: secret.apply((s) => `${s}-fleet`),
  matchAttributes: { diskEncryptionEnabled: true, requiredPolicies: two ? [1, 2] : [1] },
});
new privnet.GoogleWorkspaceSync("workspace", {
  serviceAccountKey: base64("google"),
  customerId: "C0ts",
  groupPrefixes: two ? ["eng-", "ops-"] : ["eng-"],
});
new privnet.AzureAdSync("entra", {
  clientSecret: base64("azure"),
  clientId: "ts-app",
  tenantId: "ts-tenant",
  host: "microsoft.com",
  enabled: !two,
});
new privnet.PeerEdrBypass("bypass", { peerId: config.require("peerId") });
const tenant = new privnet.MspTenant("acme", {
  name: two ? "Acme 2" : "Acme",
  domain: "acme-ts.example.com",
  groups: [{ id: checked.id, role: two ? "network_admin" : "admin" }],
  unlinkOwner: "acme-owner",
});

export const dnsChallenge = tenant.dnsChallenge;
