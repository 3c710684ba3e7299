/**
 * One example per resource kind and per component (the name -> its example). A kind added to provider/registry.ts
 * or a component added to components/registry.ts needs an entry here: tests/unit/examples.test.ts names one
 * without.
 */
import { config, ref, resource, secret, type Example } from "./spec";

const ops = resource("ops", "Group", { name: "ops" });
const servers = resource("servers", "Group", { name: "servers" });
const office = resource("office", "Network", { name: "office", description: "Office LAN" });

export const RESOURCE_EXAMPLES: Record<string, Example> = {
  Group: {
    title: "A group of servers",
    resources: [resource("servers", "Group", { name: "servers" })],
    outputs: { serversGroupId: ref("servers") },
  },
  Policy: {
    title: "SSH and HTTPS from one group to another",
    resources: [
      ops,
      servers,
      resource("opsToServers", "Policy", {
        name: "ops to servers",
        description: "Operators reach the servers",
        enabled: true,
        rules: [
          {
            name: "ssh and https",
            enabled: true,
            action: "accept",
            bidirectional: false,
            protocol: "tcp",
            ports: ["22", "443"],
            sources: [ref("ops")],
            destinations: [ref("servers")],
          },
          {
            name: "metrics",
            enabled: true,
            action: "accept",
            bidirectional: false,
            protocol: "tcp",
            portRanges: [{ start: 9100, end: 9110 }],
            sources: [ref("ops")],
            destinations: [ref("servers")],
          },
        ],
      }),
    ],
  },
  PostureCheck: {
    title: "A recent agent and kernel, from allowed countries",
    resources: [
      resource("baseline", "PostureCheck", {
        name: "baseline",
        description: "Recent agent and kernel",
        checks: {
          nbVersionCheck: { minVersion: "0.30.0" },
          osVersionCheck: { linux: { minKernelVersion: "5.10" } },
          geoLocationCheck: { action: "allow", locations: [{ countryCode: "DE" }, { countryCode: "FR" }] },
        },
      }),
    ],
  },
  Route: {
    title: "A network route through a group of routing peers",
    resources: [
      ops,
      servers,
      resource("officeRoute", "Route", {
        description: "Office LAN",
        networkId: "office",
        network: "10.10.0.0/16",
        peerGroups: [ref("servers")],
        groups: [ref("ops")],
        enabled: true,
        metric: 100,
        masquerade: true,
        keepRoute: false,
      }),
    ],
  },
  Network: {
    title: "A network",
    resources: [office],
    outputs: { networkId: ref("office") },
  },
  NetworkResource: {
    title: "A host in a network, in a group",
    resources: [
      office,
      servers,
      resource("printer", "NetworkResource", {
        networkId: ref("office"),
        name: "printer",
        address: "10.10.0.7",
        enabled: true,
        groups: [ref("servers")],
      }),
    ],
  },
  NetworkRouter: {
    title: "A network's routers: the peers of a group",
    resources: [
      office,
      servers,
      resource("officeRouter", "NetworkRouter", {
        networkId: ref("office"),
        peerGroups: [ref("servers")],
        metric: 100,
        masquerade: true,
        enabled: true,
      }),
    ],
  },
  NameserverGroup: {
    title: "A resolver for an internal domain",
    resources: [
      ops,
      resource("corpDns", "NameserverGroup", {
        name: "corp",
        description: "Corporate resolver",
        nameservers: [{ ip: "10.0.0.53", nsType: "udp", port: 53 }],
        enabled: true,
        groups: [ref("ops")],
        primary: false,
        domains: ["corp.example.com"],
        searchDomainsEnabled: true,
      }),
    ],
  },
  DnsSettings: {
    title: "Peers of a group without DNS management",
    resources: [
      servers,
      resource("dnsSettings", "DnsSettings", { disabledManagementGroups: [ref("servers")] }),
    ],
  },
  DnsZone: {
    title: "A private DNS zone",
    resources: [
      ops,
      resource("internal", "DnsZone", {
        name: "internal",
        domain: "internal.example.com",
        enableSearchDomain: false,
        distributionGroups: [ref("ops")],
      }),
    ],
  },
  DnsRecord: {
    title: "An A record in a private zone",
    resources: [
      ops,
      resource("internal", "DnsZone", {
        name: "internal",
        domain: "internal.example.com",
        enableSearchDomain: false,
        distributionGroups: [ref("ops")],
      }),
      resource("db", "DnsRecord", {
        zoneId: ref("internal"),
        name: "db.internal.example.com",
        type: "A",
        content: "10.20.0.10",
        ttl: 300,
      }),
    ],
  },
  SetupKey: {
    title: "A reusable key that enrolls servers",
    resources: [
      servers,
      resource("enroll", "SetupKey", {
        name: "servers",
        type: "reusable",
        expiresIn: 30 * 86400,
        autoGroups: [ref("servers")],
        usageLimit: 0,
      }),
    ],
    outputs: { setupKey: ref("enroll", "key") },
  },
  User: {
    title: "A service user",
    resources: [
      ops,
      resource("ci", "User", { name: "ci", role: "user", autoGroups: [ref("ops")], isServiceUser: true }),
    ],
  },
  PersonalAccessToken: {
    title: "A token of a service user",
    resources: [
      resource("ci", "User", { name: "ci", role: "admin", autoGroups: [], isServiceUser: true }),
      resource("ciToken", "PersonalAccessToken", { userId: ref("ci"), name: "ci", expiresIn: 30 }),
    ],
    outputs: { token: ref("ciToken", "plainToken") },
  },
  UserInvite: {
    title: "An invitation",
    resources: [
      ops,
      resource("invite", "UserInvite", {
        email: "new.person@example.com",
        name: "New Person",
        role: "user",
        autoGroups: [ref("ops")],
      }),
    ],
  },
  Peer: {
    title: "The settings of an enrolled peer",
    resources: [resource("gateway", "Peer", { peerId: config("peerId"), name: "gateway", sshEnabled: true })],
  },
  IdentityProvider: {
    title: "An OIDC identity provider",
    resources: [
      resource("sso", "IdentityProvider", {
        type: "oidc",
        name: "sso",
        issuer: "https://sso.example.com",
        clientId: "privnet",
        clientSecret: secret("oidcClientSecret"),
      }),
    ],
  },
  AccountSettings: {
    title: "Peer login expiry and approval",
    resources: [
      resource("settings", "AccountSettings", {
        peerLoginExpirationEnabled: true,
        peerLoginExpiration: 86400,
        extra: { peerApprovalEnabled: true },
      }),
    ],
  },
  EdrVendorA: {
    title: "Vendor A's endpoint checks for a group",
    resources: [
      servers,
      resource("edrA", "EdrVendorA", {
        groups: [ref("servers")],
        lastSyncedInterval: 24,
        apiUrl: "https://edr-a.example.com",
        apiToken: secret("edrApiToken"),
        matchAttributes: { firewallEnabled: true },
      }),
    ],
  },
  EdrVendorB: {
    title: "Vendor B's endpoint checks for a group",
    resources: [
      servers,
      resource("edrB", "EdrVendorB", {
        groups: [ref("servers")],
        lastSyncedInterval: 24,
        clientId: "privnet",
        tenantId: "tenant",
        secret: secret("edrSecret"),
      }),
    ],
  },
  EdrVendorC: {
    title: "Vendor C's endpoint checks for a group",
    resources: [
      servers,
      resource("edrC", "EdrVendorC", {
        groups: [ref("servers")],
        clientId: secret("edrClientId"),
        secret: secret("edrSecret"),
        cloudId: "eu-1",
        ztaScoreThreshold: 70,
      }),
    ],
  },
  DirectorySyncVendorD: {
    title: "Users and groups from vendor D's directory",
    resources: [
      resource("directory", "DirectorySyncVendorD", {
        serviceAccountKey: secret("serviceAccountKey"),
        customerId: "C01",
        groupPrefixes: ["eng-"],
      }),
    ],
  },
  DirectorySyncVendorE: {
    title: "Users and groups from vendor E's directory",
    resources: [
      resource("directory", "DirectorySyncVendorE", {
        clientId: "privnet",
        clientSecret: secret("directoryClientSecret"),
        tenantId: "tenant",
        host: "api.example.com",
        groupPrefixes: ["ops-"],
      }),
    ],
  },
  EventStreamingIntegration: {
    title: "Audit events streamed to Datadog",
    resources: [
      resource("datadog", "EventStreamingIntegration", {
        platform: "datadog",
        config: { api_key: secret("datadogApiKey"), site: "datadoghq.eu" },
        enabled: true,
      }),
    ],
  },
  ScimIntegration: {
    title: "Users and groups pushed over SCIM, with the token as a secret output",
    resources: [
      resource("scim", "ScimIntegration", {
        provider: "jumpcloud",
        prefix: "jumpcloud",
        groupPrefixes: ["eng-"],
        rotateToken: "1",
      }),
    ],
    outputs: { scimToken: ref("scim", "authToken") },
  },
  OktaScimIntegration: {
    title: "Users and groups pushed by Okta over SCIM",
    resources: [
      resource("okta", "OktaScimIntegration", {
        connectionName: config("oktaConnectionName"),
        groupPrefixes: ["eng-"],
        userGroupPrefixes: ["eng-"],
      }),
    ],
    outputs: { oktaScimToken: ref("okta", "authToken") },
  },
  NotificationChannel: {
    title: "New users and deleted groups reported to a webhook",
    resources: [
      resource("alerts", "NotificationChannel", {
        type: "webhook",
        enabled: true,
        eventTypes: ["user.join", "group.delete"],
        target: {
          url: "https://hooks.example.com/privnet",
          headers: { Authorization: secret("webhookAuth") },
        },
      }),
    ],
  },
  ReverseProxyService: {
    title: "An internal web app published behind a password and single sign-on for one group",
    resources: [
      ops,
      office,
      resource("wiki", "NetworkResource", {
        networkId: ref("office"),
        name: "wiki",
        address: "10.0.0.20",
        enabled: true,
        groups: [],
      }),
      resource("wikiService", "ReverseProxyService", {
        name: "wiki",
        domain: config("wikiDomain"),
        enabled: true,
        targets: [{ targetId: ref("wiki"), targetType: "host", protocol: "http", port: 8080, enabled: true }],
        auth: {
          passwordAuth: { enabled: true, password: secret("wikiPassword") },
          bearerAuth: { enabled: true, distributionGroups: [ref("ops")] },
        },
        accessRestrictions: { allowedCountries: ["DE"] },
      }),
    ],
    outputs: { wikiServiceId: ref("wikiService") },
  },
  ReverseProxyDomain: {
    title: "A custom domain for the services of a proxy cluster",
    resources: [
      resource("apps", "ReverseProxyDomain", {
        domain: "apps.example.com",
        targetCluster: config("clusterAddress"),
      }),
    ],
    outputs: { appsValidated: ref("apps", "validated") },
  },
  ProxyToken: {
    title: "A token for a self-hosted proxy, valid for a year, with its value as a secret output",
    resources: [resource("edge", "ProxyToken", { name: "edge proxy", expiresIn: 365 * 86400 })],
    outputs: { edgeProxyToken: ref("edge", "plainToken") },
  },
  IngressPeer: {
    title: "An enrolled peer as an ingress peer",
    resources: [
      resource("ingress", "IngressPeer", { peerId: config("peerId"), enabled: true, fallback: true }),
    ],
  },
  IngressPortAllocation: {
    title: "Ports of an ingress peer forwarded to a peer",
    resources: [
      resource("web", "IngressPortAllocation", {
        peerId: config("peerId"),
        name: "web",
        enabled: true,
        portRanges: [{ start: 8080, end: 8081, protocol: "tcp" }],
      }),
    ],
  },
  // Agent Networks
  AgentNetworkSettings: {
    title: "The account's LLM gateway, with an endpoint under a proxy cluster, logging without personal data",
    resources: [
      resource("gateway", "AgentNetworkSettings", {
        proxyAddress: "agents.example.com",
        enableLogCollection: true,
        redactPii: true,
        accessLogRetentionDays: 30,
      }),
    ],
    outputs: { gatewayEndpoint: ref("gateway", "endpoint") },
  },
  AgentNetworkProvider: {
    title: "OpenAI behind the gateway, its API key a secret of the stack, two models with their prices",
    resources: [
      resource("openai", "AgentNetworkProvider", {
        providerId: "openai_api",
        name: "OpenAI",
        upstreamUrl: "https://api.openai.com",
        apiKey: secret("openaiApiKey"),
        enabled: true,
        models: [
          { id: "gpt-4o-mini", inputPer1k: 0.00015, outputPer1k: 0.0006 },
          { id: "gpt-4o", inputPer1k: 0.0025, outputPer1k: 0.01 },
        ],
      }),
    ],
  },
  AgentNetworkGuardrail: {
    title: "Small models only, prompts captured without personal data",
    resources: [
      resource("smallModels", "AgentNetworkGuardrail", {
        name: "small models",
        description: "Only the small models; prompts kept for review",
        checks: {
          modelAllowlist: { enabled: true, models: ["gpt-4o-mini"] },
          promptCapture: { enabled: true, redactPii: true },
        },
      }),
    ],
  },
  AgentNetworkPolicy: {
    title:
      "Engineering's agents may use OpenAI's small models: 2M tokens a day per user, $50 a day per group",
    resources: [
      resource("engineering", "Group", { name: "engineering" }),
      resource("openai", "AgentNetworkProvider", {
        providerId: "openai_api",
        name: "OpenAI",
        upstreamUrl: "https://api.openai.com",
        apiKey: secret("openaiApiKey"),
        enabled: true,
      }),
      resource("smallModels", "AgentNetworkGuardrail", {
        name: "small models",
        checks: { modelAllowlist: { enabled: true, models: ["gpt-4o-mini"] } },
      }),
      resource("engineeringToOpenai", "AgentNetworkPolicy", {
        name: "engineering to openai",
        sourceGroups: [ref("engineering")],
        destinationProviderIds: [ref("openai")],
        guardrailIds: [ref("smallModels")],
        limits: {
          tokenLimit: { enabled: true, groupCap: 0, userCap: 2_000_000, windowSeconds: 86400 },
          budgetLimit: { enabled: true, groupCapUsd: 50, userCapUsd: 0, windowSeconds: 86400 },
        },
      }),
    ],
  },
  AgentNetworkBudgetRule: {
    title: "Contractors spend at most $100 a day together, across every policy",
    resources: [
      resource("contractors", "Group", { name: "contractors" }),
      resource("contractorsDaily", "AgentNetworkBudgetRule", {
        name: "contractors daily",
        targetGroups: [ref("contractors")],
        limits: { budgetLimit: { enabled: true, groupCapUsd: 100, userCapUsd: 0, windowSeconds: 86400 } },
      }),
    ],
  },
  NetworkBundle: {
    title: "An office network with its routers and resources in one declaration",
    resources: [
      servers,
      ops,
      resource("office", "NetworkBundle", {
        name: "office",
        description: "Office LAN",
        routers: [{ peerGroups: [ref("servers")], metric: 100 }],
        resources: [
          { name: "office-lan", address: "10.10.0.0/16", groups: [ref("ops")] },
          { name: "intranet", address: "intranet.example.com", groups: [ref("ops")] },
        ],
      }),
    ],
    outputs: { officeNetworkId: ref("office", "networkId") },
  },
  DnsZoneBundle: {
    title: "A private zone with its records in one declaration",
    resources: [
      ops,
      resource("internal", "DnsZoneBundle", {
        name: "internal",
        domain: "internal.example.com",
        distributionGroups: [ref("ops")],
        records: [
          { name: "db", type: "A", content: "10.20.0.10" },
          { name: "www", type: "CNAME", content: "web.internal.example.com", ttl: 60 },
        ],
      }),
    ],
    outputs: { zoneId: ref("internal", "zoneId") },
  },
  Segment: {
    title: "The database tier: only the app tier reaches it, on 5432",
    resources: [
      resource("app", "Group", { name: "app" }),
      resource("db", "Segment", {
        name: "db",
        setupKeyOptions: { expiresIn: 30 * 86400 },
        allow: [{ from: [ref("app")], protocol: "tcp", ports: ["5432"], description: "app to db" }],
      }),
    ],
    outputs: { dbSetupKey: ref("db", "setupKey") },
  },
};
