// The integrations upgrade test's TypeScript program (tests/e2e/upgrade-integrations.test.ts): the program of
// tests/fixtures/upgrade-integrations/programs/typescript under today's names of the five integrations.
import * as privnet from "pulumi-privnet";

const checked = new privnet.Group("checked", { name: "ts-edr-checked" });

new privnet.EdrSentinelOne("edrA", {
  groups: [checked.id],
  lastSyncedInterval: 24,
  apiToken: "ts-edr-a-token-0d4e7b",
  apiUrl: "https://edr-a.example.com",
  matchAttributes: { activeThreats: 0, infected: false, networkStatus: "connected" },
});
new privnet.EdrIntune("edrB", {
  groups: [checked.id],
  lastSyncedInterval: 48,
  clientId: "ts-edr-b-client",
  tenantId: "ts-edr-b-tenant",
  secret: "ts-edr-b-secret-2e95a1",
});
new privnet.EdrFalcon("edrC", {
  groups: [checked.id],
  clientId: "ts-edr-c-client-f61c08",
  secret: "ts-edr-c-secret-9ab3d7",
  cloudId: "us-1",
  ztaScoreThreshold: 70,
});
new privnet.GoogleWorkspaceSync("syncD", {
  serviceAccountKey: "dHMtZGlyLWQta2V5LTFjODNmMA==",
  customerId: "C0tsd",
  groupPrefixes: ["eng-"],
});
new privnet.AzureAdSync("syncE", {
  clientSecret: "dHMtZGlyLWUtc2VjcmV0LTZkMjFlOQ==",
  clientId: "ts-dir-e-client",
  tenantId: "ts-dir-e-tenant",
  host: "microsoft.com",
  userGroupPrefixes: ["staff"],
});

export const checkedGroupId = checked.id;
