/**
 * One resource of EVERY kind pulumi-privnet manages (bench/api-calls.ts counts the API requests each makes).
 * Prerequisites the resources refer to (peers, groups, a network, a zone, a service user, an ingress peer) are
 * made through the API before `pulumi up`, so every request in the server's log during a command belongs to the
 * one resource of its kind. Inputs follow tests/support/provider.ts; `phase: "update"` applies the in-place
 * change of each kind that has one.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const privnet = require("pulumi-privnet");

const input = JSON.parse(fs.readFileSync(path.join(__dirname, "bench-input.json"), "utf8"));
const f = input.fixtures;
const update = input.phase === "update";
/** The create inputs, or the update inputs in the update phase. */
const pick = (create, changed) => (update && changed ? changed : create);
const [g1, g2, g3] = f.groups;
const s = f.suffix;

const rule = {
  name: "ssh",
  enabled: true,
  action: "accept",
  bidirectional: false,
  protocol: "tcp",
  ports: ["22"],
};
const routeBase = {
  description: "office",
  networkId: "office",
  enabled: true,
  masquerade: true,
  keepRoute: false,
};
const nsBase = {
  name: `ns-${s}`,
  description: "corp",
  nameservers: [{ ip: "10.0.0.53", nsType: "udp", port: 53 }],
  enabled: true,
  groups: [g1, g2],
  primary: false,
  domains: ["corp.example", "lab.example"],
  searchDomainsEnabled: true,
};
const keyBase = {
  name: `key-${s}`,
  type: "reusable",
  expiresIn: 86400,
  autoGroups: [g1, g2],
  usageLimit: 0,
  ephemeral: false,
};
const userBase = { name: `svc-${s}`, role: "user", autoGroups: [g1, g2], isServiceUser: true };
const peerBase = {
  peerId: f.peers[3],
  name: `laptop-${s}`,
  sshEnabled: true,
  loginExpirationEnabled: false,
  inactivityExpirationEnabled: false,
};
const edrA = {
  groups: [g1, g2],
  lastSyncedInterval: 24,
  apiToken: "edr-a-token",
  apiUrl: "https://edr-a.example.com",
  matchAttributes: { firewallEnabled: true },
};
const edrB = {
  groups: [g1],
  lastSyncedInterval: 24,
  clientId: "cid",
  tenantId: "tid",
  secret: "edr-b-secret",
};
const edrC = {
  groups: [g1],
  clientId: "edr-c-client",
  secret: "edr-c-secret",
  cloudId: "eu-1",
  ztaScoreThreshold: 70,
};
const dirD = {
  serviceAccountKey: Buffer.from("sa-key").toString("base64"),
  customerId: "C01",
  groupPrefixes: ["eng-"],
};
const dirE = {
  clientSecret: Buffer.from("cs").toString("base64"),
  clientId: "app",
  tenantId: "tenant",
  host: "api.example.com",
};
const ports = {
  peerId: f.peers[5],
  name: "web",
  enabled: true,
  portRanges: [{ start: 8080, end: 8081, protocol: "tcp" }],
};

new privnet.Group(
  "group",
  pick(
    { name: `grp-${s}`, peers: [f.peers[0], f.peers[1], f.peers[2]] },
    { name: `grp-${s}-renamed`, peers: [f.peers[0]] },
  ),
);
new privnet.Policy(
  "policy",
  pick(
    { name: `pol-${s}`, enabled: true, rules: [{ ...rule, sources: [g1, g2], destinations: [g3] }] },
    {
      name: `pol-${s}-2`,
      enabled: false,
      rules: [{ ...rule, ports: ["22", "2222"], sources: [g1], destinations: [g2, g3] }],
    },
  ),
);
new privnet.PostureCheck(
  "posture-check",
  pick(
    {
      name: `pc-${s}`,
      description: "baseline",
      checks: {
        nbVersionCheck: { minVersion: "0.28.0" },
        geoLocationCheck: { locations: [{ countryCode: "DE" }], action: "allow" },
        peerNetworkRangeCheck: { ranges: ["10.0.0.0/8"], action: "deny" },
        processCheck: { processes: [{ linuxPath: "/usr/bin/agent" }] },
        osVersionCheck: { linux: { minKernelVersion: "5.10" } },
      },
    },
    { name: `pc-${s}-2`, description: "stricter", checks: { nbVersionCheck: { minVersion: "0.30.0" } } },
  ),
);
new privnet.Route(
  "route",
  pick(
    { ...routeBase, peerGroups: [g1, g2], network: "10.10.0.0/16", metric: 100, groups: [g2, g3] },
    { ...routeBase, peerGroups: [g1], network: "10.20.0.0/16", metric: 50, groups: [g3] },
  ),
);
new privnet.Network(
  "network",
  pick({ name: `net-${s}`, description: "lab" }, { name: `net-${s}-2`, description: "production" }),
);
const resource = { networkId: f.network, name: "db", address: "10.0.0.5", enabled: true, groups: [g1, g2] };
new privnet.NetworkResource(
  "network-resource",
  pick(resource, { ...resource, address: "10.0.0.0/24", groups: [g2] }),
);
const router = { networkId: f.network, peerGroups: [g1, g2], metric: 10, masquerade: true, enabled: true };
new privnet.NetworkRouter(
  "network-router",
  pick(router, { networkId: f.network, peer: f.peers[4], metric: 20, masquerade: true, enabled: true }),
);
new privnet.NameserverGroup(
  "nameserver-group",
  pick(nsBase, { ...nsBase, primary: true, domains: [], searchDomainsEnabled: false, groups: [g2] }),
);
new privnet.DnsSettings(
  "dns-settings",
  pick({ disabledManagementGroups: [g1, g2] }, { disabledManagementGroups: [g2] }),
);
const zoneDomain = `z-${s}.example`;
new privnet.DnsZone(
  "dns-zone",
  pick(
    { name: "internal", domain: zoneDomain, enableSearchDomain: false, distributionGroups: [g1, g2] },
    {
      name: "internal",
      domain: zoneDomain,
      enableSearchDomain: true,
      enabled: false,
      distributionGroups: [g1],
    },
  ),
);
new privnet.DnsRecord(
  "dns-record",
  pick(
    { zoneId: f.zone.id, name: `db.${f.zone.domain}`, type: "A", content: "10.0.0.5", ttl: 300 },
    { zoneId: f.zone.id, name: `db.${f.zone.domain}`, type: "A", content: "10.0.0.6", ttl: 60 },
  ),
);
new privnet.SetupKey("setup-key", pick(keyBase, { ...keyBase, autoGroups: [g2], revoked: true }));
new privnet.User("user", pick(userBase, { ...userBase, role: "admin", autoGroups: [g2] }));
// Replace-only kinds (no in-place update): unchanged in the update phase.
new privnet.PersonalAccessToken("personal-access-token", { userId: f.user, name: "ci", expiresIn: 30 });
new privnet.UserInvite("user-invite", {
  email: `new-${s}@example.com`,
  name: "New Person",
  role: "user",
  autoGroups: [g1, g2],
});
new privnet.Peer("peer", pick(peerBase, { ...peerBase, sshEnabled: false, name: `laptop-${s}-2` }));
const idp = {
  type: "oidc",
  name: `idp-${s}`,
  issuer: "https://idp.example.com",
  clientId: "privnet",
  clientSecret: "s3cr3t-value",
};
new privnet.IdentityProvider(
  "identity-provider",
  pick(idp, { ...idp, name: `idp-${s}-2`, clientSecret: "rotated-s3cr3t" }),
);
new privnet.AccountSettings(
  "account-settings",
  pick(
    { peerLoginExpiration: 7200, peerExposeEnabled: true, peerExposeGroups: [g1] },
    { peerLoginExpiration: 3600, regularUsersViewBlocked: false },
  ),
);
new privnet.EdrVendorA(
  "edr-vendor-a",
  pick(edrA, { ...edrA, lastSyncedInterval: 48, apiToken: "edr-a-token-2" }),
);
new privnet.EdrVendorB("edr-vendor-b", pick(edrB, { ...edrB, enabled: false }));
new privnet.EdrVendorC("edr-vendor-c", pick(edrC, { ...edrC, ztaScoreThreshold: 90 }));
new privnet.DirectorySyncVendorD(
  "directory-sync-vendor-d",
  pick(dirD, { ...dirD, syncInterval: 600, enabled: false }),
);
new privnet.DirectorySyncVendorE("directory-sync-vendor-e", pick(dirE, { ...dirE, groupPrefixes: ["ops-"] }));
const stream = { platform: "datadog", config: { api_key: "dd-key-1", site: "datadoghq.eu" }, enabled: true };
new privnet.EventStreamingIntegration(
  "event-streaming-integration",
  pick(stream, { ...stream, config: { api_key: "dd-key-1", site: "datadoghq.com" } }),
);
const ingress = { peerId: f.peers[6], enabled: true, fallback: true };
new privnet.IngressPeer("ingress-peer", pick(ingress, { ...ingress, enabled: false }));
new privnet.IngressPortAllocation(
  "ingress-port-allocation",
  pick(ports, { ...ports, portRanges: [{ start: 8080, end: 8082, protocol: "tcp" }] }),
);
