"use strict";
// The acceptance tier's program: one or more objects of every resource kind the target serves, with references
// between them, including the shapes servers write back in forms of their own (a host address without /32, a
// domain route, domains in capitals, a key created revoked, a user created blocked, a policy with two rules).
// Stage 2 changes something in place on every kind that can change.
//
// Config: kinds (JSON list of the kinds the target serves), peers (JSON list of enrolled peer ids this program
// may use), prefix (unique names on a shared target), issuer (an OIDC issuer the target accepts), geo (whether
// posture checks by country are possible), stage (1 or 2), proxyCluster (an online reverse-proxy cluster's
// address, when the target has one), mspOwner (who an MSP tenant is handed to when destroyed; none: no tenant).
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const config = new pulumi.Config();
const kinds = new Set(config.requireObject("kinds"));
const peers = config.getObject("peers") || [];
const prefix = config.require("prefix");
const issuer = config.require("issuer");
const geo = config.getBoolean("geo") === true;
const stage = config.getNumber("stage") || 1;
const two = stage === 2;
const name = (n) => `${prefix}-${n}`;
const has = (kind) => kinds.has(kind);
const out = {};

// --- Groups -----------------------------------------------------------------------------------------------------
const engineering = new privnet.Group("engineering", { name: name(two ? "engineering-2" : "engineering") });
const servers = new privnet.Group("servers", { name: name("servers") });
const gateways = new privnet.Group("gateways", {
  name: name("gateways"),
  peers: peers.slice(0, two ? 1 : 2),
});
out.groups = [engineering.id, servers.id, gateways.id];

// --- Posture check and policies ---------------------------------------------------------------------------------
const rule = { enabled: true, action: "accept", bidirectional: false, protocol: "tcp" };
let posture;
if (has("PostureCheck")) {
  posture = new privnet.PostureCheck("baseline", {
    name: name("baseline"),
    description: two ? "stricter" : "baseline",
    checks: {
      nbVersionCheck: { minVersion: two ? "0.31.0" : "0.30.0" },
      osVersionCheck: { linux: { minKernelVersion: "5.10.0" } },
      peerNetworkRangeCheck: { ranges: ["10.0.0.0/8"], action: "deny" },
      ...(geo ? { geoLocationCheck: { locations: [{ countryCode: "DE" }], action: "allow" } } : {}),
    },
  });
}
if (has("Policy")) {
  new privnet.Policy("ssh", {
    name: name("ssh"),
    enabled: true,
    sourcePostureChecks: posture ? [posture.id] : [],
    rules: [
      {
        ...rule,
        name: "ssh",
        ports: two ? ["22", "2222"] : ["22"],
        sources: [engineering.id],
        destinations: [servers.id],
      },
    ],
  });
  // Two rules: one server stores the second rule without its sources (the provider warns, naming it).
  out.twoRulePolicy = new privnet.Policy("two-rules", {
    name: name("two-rules"),
    enabled: true,
    rules: [
      { ...rule, name: "web", ports: ["443"], sources: [engineering.id], destinations: [servers.id] },
      {
        ...rule,
        name: "dns",
        protocol: "udp",
        ports: ["53"],
        sources: [servers.id],
        destinations: [gateways.id],
      },
    ],
  }).id;
}

// --- Enrollment and users ---------------------------------------------------------------------------------------
if (has("SetupKey")) {
  out.key = new privnet.SetupKey("gateway-key", {
    name: name("gateway-key"),
    type: "reusable",
    expiresIn: 30 * 86400,
    autoGroups: two ? [gateways.id, servers.id] : [gateways.id],
    usageLimit: 10,
  }).key;
  new privnet.SetupKey("revoked-key", {
    name: name("revoked-key"),
    type: "one-off",
    expiresIn: 86400,
    autoGroups: [],
    usageLimit: 1,
    revoked: true,
  });
}
let ci;
if (has("User")) {
  ci = new privnet.User("ci", {
    name: name("ci"),
    role: two ? "admin" : "user",
    autoGroups: [],
    isServiceUser: true,
  });
  new privnet.User("blocked", {
    name: name("blocked"),
    role: "user",
    autoGroups: [servers.id],
    isServiceUser: true,
    isBlocked: true,
  });
}
if (ci && has("PersonalAccessToken")) {
  out.token = new privnet.PersonalAccessToken("ci-token", {
    userId: ci.id,
    name: "ci",
    expiresIn: 30,
  }).plainToken;
}
if (has("UserInvite")) {
  new privnet.UserInvite("invite", {
    email: `${prefix}-new@example.com`,
    name: "New Person",
    role: "user",
    autoGroups: [engineering.id],
  });
}
if (has("IdentityProvider")) {
  new privnet.IdentityProvider("sso", {
    type: "oidc",
    name: name(two ? "sso-2" : "sso"),
    issuer,
    clientId: "privnet",
    clientSecret: config.requireSecret("clientSecret"),
  });
}

// --- Routing and networks ---------------------------------------------------------------------------------------
if (has("Route")) {
  new privnet.Route("office", {
    description: "office",
    networkId: name("office").slice(0, 40),
    enabled: true,
    network: "10.10.0.0/16",
    peerGroups: [gateways.id],
    metric: two ? 50 : 100,
    masquerade: true,
    groups: [engineering.id],
    keepRoute: false,
  });
  new privnet.Route("docs", {
    description: "docs by name",
    networkId: name("docs").slice(0, 40),
    enabled: true,
    domains: two ? ["Docs.Example.com", "wiki.example.com"] : ["Docs.Example.com"],
    peerGroups: [gateways.id],
    metric: 100,
    masquerade: true,
    groups: [engineering.id],
    keepRoute: true,
  });
}
if (has("Network")) {
  const datacenter = new privnet.Network("datacenter", {
    name: name("datacenter"),
    description: two ? "dc" : "",
  });
  if (has("NetworkResource")) {
    new privnet.NetworkResource("db-host", {
      networkId: datacenter.id,
      name: name("db-host"),
      address: "10.60.0.5",
      enabled: true,
      groups: [servers.id],
    });
    new privnet.NetworkResource("web", {
      networkId: datacenter.id,
      name: name("web"),
      address: two ? "Web.Example.COM" : "web.example.com",
      enabled: true,
      groups: [servers.id],
    });
  }
  if (has("NetworkRouter")) {
    new privnet.NetworkRouter("router", {
      networkId: datacenter.id,
      peerGroups: [gateways.id],
      metric: two ? 20 : 10,
      masquerade: true,
      enabled: true,
    });
  }
}

// --- DNS --------------------------------------------------------------------------------------------------------
if (has("NameserverGroup")) {
  new privnet.NameserverGroup("corp-dns", {
    name: name("dns").slice(0, 40),
    description: "corp",
    nameservers: [{ ip: "10.10.0.53", nsType: "udp", port: 53 }],
    enabled: true,
    groups: [engineering.id],
    primary: false,
    domains: ["Corp.Example.com"],
    searchDomainsEnabled: two,
  });
}
if (has("DnsSettings")) {
  new privnet.DnsSettings("dns", { disabledManagementGroups: two ? [servers.id] : [] });
}
if (has("DnsZone")) {
  const domain = `${prefix}.internal.example.com`;
  const zone = new privnet.DnsZone("zone", {
    name: "internal",
    domain,
    enableSearchDomain: false,
    distributionGroups: [engineering.id],
  });
  if (has("DnsRecord")) {
    new privnet.DnsRecord("db", {
      zoneId: zone.id,
      name: `db.${domain}`,
      type: "A",
      content: two ? "10.20.0.11" : "10.20.0.10",
      ttl: 300,
    });
    new privnet.DnsRecord("wiki", {
      zoneId: zone.id,
      name: `wiki.${domain}`,
      type: "CNAME",
      content: `db.${domain}`,
      ttl: 300,
    });
  }
}

// --- Account ----------------------------------------------------------------------------------------------------
if (has("AccountSettings")) {
  new privnet.AccountSettings("account", {
    peerLoginExpiration: two ? 3 * 86400 : 7 * 86400,
    peerInactivityExpiration: 30 * 86400,
  });
}

// --- Peers (enrolled by agents) ----------------------------------------------------------------------------------
if (has("Peer") && peers.length > 2) {
  new privnet.Peer("managed-peer", { peerId: peers[2], name: name(two ? "laptop-2" : "laptop") });
}

// --- Integrations (cloud offering), under the service's names (the deprecated earlier names are the same objects:
// the lifecycle tier runs those) ------------------------------------------------------------------------------
if (has("EdrSentinelOne")) {
  new privnet.EdrSentinelOne("edr-sentinelone", {
    groups: [servers.id],
    lastSyncedInterval: two ? 48 : 24,
    apiToken: config.requireSecret("clientSecret"),
    apiUrl: "https://s1.example.com",
    matchAttributes: { firewallEnabled: true, infected: false },
  });
}
if (has("EdrIntune")) {
  new privnet.EdrIntune("edr-intune", {
    groups: [servers.id],
    lastSyncedInterval: 24,
    clientId: "cid",
    tenantId: "tid",
    secret: config.requireSecret("clientSecret"),
    enabled: !two,
  });
}
if (has("EdrFalcon")) {
  new privnet.EdrFalcon("edr-falcon", {
    groups: [servers.id],
    clientId: "falcon",
    secret: config.requireSecret("clientSecret"),
    cloudId: "eu-1",
    ztaScoreThreshold: two ? 80 : 70,
  });
}
if (has("EdrHuntress")) {
  new privnet.EdrHuntress("edr-huntress", {
    groups: [servers.id],
    lastSyncedInterval: 24,
    apiKey: config.requireSecret("clientSecret"),
    apiSecret: config.requireSecret("clientSecret"),
    matchAttributes: { firewallStatus: two ? "Enabled" : "Isolated" },
  });
}
if (has("EdrFleetDm")) {
  new privnet.EdrFleetDm("edr-fleetdm", {
    groups: [servers.id],
    lastSyncedInterval: 24,
    apiUrl: "https://fleet.example.com",
    apiToken: config.requireSecret("clientSecret"),
    matchAttributes: { diskEncryptionEnabled: true, requiredPolicies: two ? [1, 2] : [1] },
  });
}
if (has("GoogleWorkspaceSync")) {
  new privnet.GoogleWorkspaceSync("dir-google", {
    serviceAccountKey: config.requireSecret("clientSecret").apply((s) => Buffer.from(s).toString("base64")),
    customerId: "C01",
    groupPrefixes: two ? ["eng-", "ops-"] : ["eng-"],
  });
}
if (has("AzureAdSync")) {
  new privnet.AzureAdSync("dir-azure", {
    clientSecret: config.requireSecret("clientSecret").apply((s) => Buffer.from(s).toString("base64")),
    clientId: "app",
    tenantId: "tenant",
    host: "microsoft.com",
    enabled: !two,
  });
}
if (has("PeerEdrBypass") && peers.length > 0) {
  new privnet.PeerEdrBypass("edr-bypass", { peerId: peers[0] });
}
const mspOwner = config.get("mspOwner");
if (has("MspTenant") && mspOwner) {
  new privnet.MspTenant("tenant", {
    name: name(two ? "tenant-2" : "tenant"),
    domain: `${prefix}-tenant.example.com`,
    groups: [{ id: engineering.id, role: two ? "network_admin" : "admin" }],
    // Destroying unlinks the tenant (the API has no delete): nothing of the program is left in the MSP account.
    unlinkOwner: mspOwner,
  });
}
// --- Provisioning and notifications ------------------------------------------------------------------------
if (has("ScimIntegration")) {
  out.scimToken = new privnet.ScimIntegration("scim", {
    prefix: name(two ? "scim-2" : "scim"),
    provider: "jumpcloud",
    groupPrefixes: ["eng-"],
    userGroupPrefixes: two ? ["staff"] : [],
    rotateToken: two ? "stage-2" : undefined,
  }).authToken;
}
if (has("OktaScimIntegration")) {
  new privnet.OktaScimIntegration("okta-scim", {
    connectionName: name("okta"),
    enabled: !two,
  });
}
if (has("NotificationChannel")) {
  new privnet.NotificationChannel("notify-email", {
    type: "email",
    target: { emails: [`${prefix}-ops@example.com`] },
    eventTypes: two ? ["policy.update", "group.add"] : ["policy.update"],
    enabled: true,
  });
  new privnet.NotificationChannel("notify-hook", {
    type: "webhook",
    target: {
      url: "https://hooks.example.com/privnet",
      headers: { "X-Hook-Secret": config.requireSecret("clientSecret") },
    },
    eventTypes: ["peer.add"],
    enabled: !two,
  });
}
if (has("EventStreamingIntegration")) {
  new privnet.EventStreamingIntegration("events", {
    platform: "datadog",
    config: { api_key: config.requireSecret("clientSecret"), site: two ? "datadoghq.com" : "datadoghq.eu" },
    enabled: true,
  });
}
if (has("IngressPeer") && peers.length > 4) {
  const ingress = new privnet.IngressPeer("ingress", { peerId: peers[3], enabled: true, fallback: !two });
  if (has("IngressPortAllocation")) {
    new privnet.IngressPortAllocation(
      "web-ports",
      {
        peerId: peers[4],
        name: "web",
        enabled: true,
        portRanges: [{ start: 8080, end: two ? 8082 : 8081, protocol: "tcp" }],
      },
      // Ports are allocated on an ingress peer: it must exist first.
      { dependsOn: [ingress] },
    );
  }
}

// --- Reverse proxies (a published service needs an online proxy cluster) ---------------------------------------
const cluster = config.get("proxyCluster");
if (has("ReverseProxyService") && cluster) {
  const proxied = new privnet.Network("proxied", { name: name("proxied") });
  const app = new privnet.NetworkResource("proxied-app", {
    networkId: proxied.id,
    name: name("proxied-app"),
    address: "10.70.0.5",
    enabled: true,
    groups: [],
  });
  // A domain and a token cannot change in place: stage 2 leaves them as they are.
  new privnet.ReverseProxyDomain("custom-domain", {
    domain: `${prefix}.example.com`,
    targetCluster: cluster,
  });
  out.proxyToken = new privnet.ProxyToken("edge-token", { name: name("edge") }).plainToken;
  new privnet.ReverseProxyService("portal", {
    name: name(two ? "portal-2" : "portal"),
    domain: `${prefix}-portal.${cluster}`,
    enabled: true,
    targets: [
      {
        targetId: app.id,
        targetType: "host",
        protocol: "http",
        port: 8080,
        enabled: true,
        // Stored in the server's own spelling (2m0s, 1m30s): no change may show.
        options: { requestTimeout: two ? "90s" : "2m" },
      },
    ],
    auth: { passwordAuth: { enabled: true, password: config.requireSecret("clientSecret") } },
    accessRestrictions: { allowedCountries: [two ? "fr" : "de"] },
  });
}

module.exports = out;
