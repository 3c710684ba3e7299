/**
 * The main example: a small company network on the private overlay-network service.
 *
 * - groups of people (engineering), machines (servers) and routing peers (gateways);
 * - a posture check and access policies that use it;
 * - a setup key that enrolls new gateways into their group;
 * - a route to the office LAN through the gateways;
 * - a network (the datacenter) with a subnet resource and a router;
 * - a nameserver group for the corporate domain, a DNS zone with records;
 * - the account's settings;
 * - a service user with a personal access token, and an identity provider for single sign-on.
 *
 * Credentials come from stack config (`privnet:apiUrl`, `pulumi config set --secret privnet:token ...`) or the
 * PRIVNET_API_URL / PRIVNET_TOKEN environment variables; nothing here names a server or a token.
 */
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
/** Priority of the office route (1..9999, lower wins). */
const routeMetric = config.getNumber("routeMetric") ?? 100;
/** Lifetime of the gateway setup key, in days (a new lifetime needs a new key). */
const keyLifetimeDays = config.getNumber("keyLifetimeDays") ?? 30;
/** Host names of the peers (enrolled agents) that route for the office and the datacenter. */
const gatewayNames = config.getObject<string[]>("gateways") ?? [];
/** The single sign-on provider's OIDC issuer (the server may fetch its discovery document). */
const oidcIssuer = config.get("oidcIssuer") ?? "https://sso.example.com";

// --- Groups ------------------------------------------------------------------------------------------------------
const engineering = new privnet.Group("engineering", { name: "engineering" });
const servers = new privnet.Group("servers", { name: "servers" });
const gateways = new privnet.Group("gateways", {
  name: "gateways",
  // Peers are not created by a program: agents enroll them. Look the routing peers up by host name.
  peers: gatewayNames.map((name) => privnet.getPeerByName(name).then((peer) => peer.id)),
});

// --- Posture check and policies -------------------------------------------------------------------------------
const postureCheck = new privnet.PostureCheck("baseline", {
  name: "baseline",
  description: "Recent agent and kernel",
  checks: {
    nbVersionCheck: { minVersion: "0.30.0" },
    osVersionCheck: { linux: { minKernelVersion: "5.10.0" } },
  },
});

const engineeringToServers = new privnet.Policy("engineering-to-servers", {
  name: "engineering to servers",
  description: "Engineers reach the servers over SSH and HTTPS",
  enabled: true,
  sourcePostureChecks: [postureCheck.id],
  rules: [
    {
      name: "ssh and https",
      enabled: true,
      action: "accept",
      bidirectional: false,
      protocol: "tcp",
      ports: ["22", "443"],
      sources: [engineering.id],
      destinations: [servers.id],
    },
  ],
});

const dnsPolicy = new privnet.Policy("engineering-dns", {
  name: "engineering dns",
  description: "Engineers query the resolvers behind the gateways",
  enabled: true,
  rules: [
    {
      name: "dns",
      enabled: true,
      action: "accept",
      bidirectional: false,
      protocol: "udp",
      ports: ["53"],
      sources: [engineering.id],
      destinations: [gateways.id],
    },
  ],
});

// --- Enrollment ----------------------------------------------------------------------------------------------
const gatewayKey = new privnet.SetupKey("gateway-enrollment", {
  name: "gateway enrollment",
  type: "reusable",
  expiresIn: keyLifetimeDays * 86400,
  autoGroups: [gateways.id],
  usageLimit: 10,
});

// --- Routing ------------------------------------------------------------------------------------------------
const officeRoute = new privnet.Route("office-lan", {
  description: "Office LAN through the gateways",
  networkId: "office-lan",
  enabled: true,
  network: "10.10.0.0/16",
  peerGroups: [gateways.id],
  metric: routeMetric,
  masquerade: true,
  groups: [engineering.id],
  keepRoute: false,
});

const datacenter = new privnet.Network("datacenter", {
  name: "datacenter",
  description: "Private subnets of the datacenter",
});
const databaseSubnet = new privnet.NetworkResource("database-subnet", {
  networkId: datacenter.id,
  name: "database subnet",
  description: "PostgreSQL primaries and replicas",
  address: "10.20.0.0/24",
  enabled: true,
  groups: [servers.id],
});
const datacenterRouter = new privnet.NetworkRouter("datacenter-router", {
  networkId: datacenter.id,
  peerGroups: [gateways.id],
  metric: 100,
  masquerade: true,
  enabled: true,
});

// --- DNS ----------------------------------------------------------------------------------------------------
const corpDns = new privnet.NameserverGroup("corp-dns", {
  name: "corp dns",
  description: "Resolvers for the corporate domain",
  nameservers: [{ ip: "10.10.0.53", nsType: "udp", port: 53 }],
  enabled: true,
  groups: [engineering.id],
  primary: false,
  domains: ["corp.example.com"],
  searchDomainsEnabled: true,
});

const zone = new privnet.DnsZone("internal", {
  name: "internal",
  domain: "internal.example.com",
  enableSearchDomain: false,
  distributionGroups: [engineering.id, servers.id],
});
const dbRecord = new privnet.DnsRecord("db", {
  zoneId: zone.id,
  name: "db.internal.example.com",
  type: "A",
  content: "10.20.0.10",
  ttl: 300,
});
const wikiRecord = new privnet.DnsRecord("wiki", {
  zoneId: zone.id,
  name: "wiki.internal.example.com",
  type: "CNAME",
  content: "db.internal.example.com",
  ttl: 300,
});

// --- Account ------------------------------------------------------------------------------------------------
new privnet.AccountSettings("account", {
  peerLoginExpirationEnabled: true,
  peerLoginExpiration: 7 * 86400,
  peerInactivityExpirationEnabled: true,
  peerInactivityExpiration: 30 * 86400,
  groupsPropagationEnabled: true,
  routingPeerDnsResolutionEnabled: true,
});

// --- Automation and sign-on -----------------------------------------------------------------------------------
const ciUser = new privnet.User("ci", {
  name: "ci",
  role: "network_admin",
  autoGroups: [],
  isServiceUser: true,
});
const ciToken = new privnet.PersonalAccessToken("ci-token", {
  userId: ciUser.id,
  name: "ci pipeline",
  expiresIn: 90,
});

const sso = new privnet.IdentityProvider("corp-sso", {
  type: "oidc",
  name: "Corp SSO",
  issuer: oidcIssuer,
  clientId: "privnet",
  clientSecret: config.requireSecret("oidcClientSecret"),
});

// --- Outputs ------------------------------------------------------------------------------------------------
export const groupIds = {
  engineering: engineering.id,
  servers: servers.id,
  gateways: gateways.id,
};
export const gatewayPeers = gateways.peersCount;
export const postureCheckId = postureCheck.id;
export const policyIds = [engineeringToServers.id, dnsPolicy.id];
export const routeId = officeRoute.id;
export const networkId = datacenter.id;
export const networkResourceId = databaseSubnet.id;
export const networkRouterId = datacenterRouter.id;
export const nameserverGroupId = corpDns.id;
export const dnsZoneId = zone.id;
export const dnsRecordIds = [dbRecord.id, wikiRecord.id];
export const ciUserId = ciUser.id;
export const identityProviderId = sso.id;
/** Secret outputs: stored encrypted, shown by `pulumi stack output --show-secrets` only. */
export const gatewaySetupKey = gatewayKey.key;
export const ciAccessToken = ciToken.plainToken;
