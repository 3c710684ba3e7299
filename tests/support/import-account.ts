/**
 * An account built by hand through the API, for the importer's tests: at least one object of every resource kind,
 * with references between them (policies to groups, a posture check and a network resource; records to their
 * zone; routers and resources to their network; ingress to peers), names that test the naming rules (a reserved
 * word, a leading digit, accents, CJK, a name shared by two kinds), write-only secrets, and values both equal to
 * and different from the server's defaults. Needs a server with `--simulate --cloud --embedded-idp`.
 */
import type { PrivnetClient } from "../../client";

export interface ImportAccount {
  peers: Record<string, string>;
  groups: Record<string, string>;
  /** The secrets set on the server, by what they belong to (for `pulumi config set --secret`). */
  secrets: Record<string, string>;
  /** Ids of everything made here, by kind (for the literal-id checks). */
  ids: Record<string, string[]>;
}

type Obj = { id: string } & Record<string, unknown>;

/** Enrolls peers with the simulated agent (POST /sim/enroll with a setup key made through the API). */
export async function enroll(
  url: string,
  client: PrivnetClient,
  hostnames: string[],
): Promise<Record<string, string>> {
  const key = await client.call<{ key: string }>("createSetupKey", {
    body: { name: "enrollment", type: "reusable", expires_in: 30 * 86400, auto_groups: [], usage_limit: 0 },
  });
  const ids: Record<string, string> = {};
  for (const hostname of hostnames) {
    const res = await fetch(`${url}/sim/enroll`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ setup_key: key.key, hostname }),
    });
    const body = (await res.json()) as { id?: string };
    if (!res.ok || !body.id) throw new Error(`enroll ${hostname}: ${res.status} ${JSON.stringify(body)}`);
    ids[hostname] = body.id;
  }
  return ids;
}

export async function buildImportAccount(url: string, client: PrivnetClient): Promise<ImportAccount> {
  const ids: Record<string, string[]> = {};
  const call = async (
    op: string,
    args: { body?: unknown; params?: Record<string, string> },
    kind?: string,
  ) => {
    const o = await client.call<Obj>(op, args);
    if (kind) (ids[kind] ??= []).push(String(o.id));
    return o;
  };
  const peers = await enroll(url, client, ["gw-1", "gw-2", "web-1", "laptop"]);
  ids.Peer = Object.values(peers);

  const groups: Record<string, string> = {};
  for (const name of ["engineering", "ops", "2024 interns", "Überwachung", "default", "開発", "db"]) {
    groups[name] = (await call("createGroup", { body: { name } }, "Group")).id;
  }
  const all = (await client.call<Obj[]>("listGroups")).find((g) => g.name === "All")?.id as string;
  const g = (n: string) => groups[n] as string;

  const posture = await call(
    "createPostureCheck",
    {
      body: {
        name: "baseline",
        description: "",
        checks: {
          nb_version_check: { min_version: "0.28.0" },
          geo_location_check: { locations: [{ country_code: "DE" }], action: "allow" },
        },
      },
    },
    "PostureCheck",
  );
  const network = await call(
    "createNetwork",
    { body: { name: "office", description: "main office" } },
    "Network",
  );
  const db = await call(
    "createNetworkResource",
    {
      params: { networkId: network.id },
      body: { name: "db", address: "10.0.0.5", enabled: true, groups: [g("db"), g("engineering")] },
    },
    "NetworkResource",
  );
  await call(
    "createNetworkRouter",
    {
      params: { networkId: network.id },
      body: { peer_groups: [g("ops")], metric: 100, masquerade: true, enabled: true },
    },
    "NetworkRouter",
  );
  await call(
    "createPolicy",
    {
      body: {
        name: "ops ssh",
        description: "operators reach everything over SSH",
        enabled: true,
        source_posture_checks: [posture.id],
        rules: [
          {
            name: "ssh",
            enabled: true,
            action: "accept",
            bidirectional: false,
            protocol: "tcp",
            ports: ["22"],
            authorized_groups: { [g("ops")]: ["root", "admin"] },
            sources: [g("ops")],
            destinations: [g("engineering"), all],
          },
          {
            name: "db",
            enabled: true,
            action: "accept",
            bidirectional: false,
            protocol: "tcp",
            port_ranges: [{ start: 5432, end: 5433 }],
            sources: [g("engineering"), g("2024 interns")],
            destinationResource: { id: db.id, type: "host" },
          },
        ],
      },
    },
    "Policy",
  );
  // A policy named like a group: two variables from one name.
  await call(
    "createPolicy",
    {
      body: {
        name: "ops",
        enabled: false,
        rules: [
          {
            name: "all",
            enabled: true,
            action: "drop",
            bidirectional: true,
            protocol: "all",
            sources: [all],
            destinations: [g("default")],
          },
        ],
      },
    },
    "Policy",
  );
  await call(
    "createRoute",
    {
      body: {
        description: "office LAN",
        network_id: "office-lan",
        enabled: true,
        peer: peers["gw-1"],
        network: "10.10.0.0/16",
        metric: 100,
        masquerade: true,
        groups: [g("engineering"), g("開発")],
        keep_route: false,
      },
    },
    "Route",
  );
  await call(
    "createNameserverGroup",
    {
      body: {
        name: "corp dns",
        description: "",
        nameservers: [{ ip: "10.0.0.53", ns_type: "udp", port: 53 }],
        enabled: true,
        groups: [g("engineering")],
        primary: false,
        domains: ["corp.example"],
        search_domains_enabled: true,
      },
    },
    "NameserverGroup",
  );
  await client.call("updateDnsSettings", { body: { disabled_management_groups: [g("2024 interns")] } });
  const zone = await call(
    "createDnsZone",
    {
      body: {
        name: "corp",
        domain: "corp.example",
        enable_search_domain: false,
        distribution_groups: [g("engineering")],
      },
    },
    "DnsZone",
  );
  await call(
    "createDnsRecord",
    {
      params: { zoneId: zone.id },
      body: { name: "db.corp.example", type: "A", content: "10.0.0.5", ttl: 300 },
    },
    "DnsRecord",
  );
  await call(
    "createDnsRecord",
    { params: { zoneId: zone.id }, body: { name: "corp.example", type: "A", content: "10.0.0.6", ttl: 60 } },
    "DnsRecord",
  );
  await call(
    "createSetupKey",
    {
      body: {
        name: "servers",
        type: "reusable",
        expires_in: 90 * 86400,
        auto_groups: [g("ops")],
        usage_limit: 10,
        ephemeral: true,
      },
    },
    "SetupKey",
  );
  const bot = await call(
    "createUser",
    { body: { name: "ci bot", role: "admin", auto_groups: [g("ops")], is_service_user: true } },
    "User",
  );
  await call(
    "createUser",
    {
      body: {
        email: "alice@example.com",
        name: "Alice",
        role: "user",
        auto_groups: [],
        is_service_user: false,
      },
    },
    "User",
  );
  await client.call("createToken", { params: { userId: bot.id }, body: { name: "ci", expires_in: 30 } });
  await client.call("createInvite", {
    body: { email: "bob@example.com", name: "Bob", role: "user", auto_groups: [g("engineering")] },
  });
  const secrets = {
    idp: "idp-client-secret-9f2",
    edrA: "edr-a-token-4c1",
    edrB: "edr-b-secret-77d",
    edrCClient: "edr-c-client-0aa",
    edrCSecret: "edr-c-secret-e3b",
    dirD: Buffer.from("vendor-d-key-5e8").toString("base64"),
    dirE: Buffer.from("vendor-e-secret-21f").toString("base64"),
    huntressKey: "huntress-key-6b0",
    huntressSecret: "huntress-secret-d41",
    fleetToken: "fleet-token-8c3",
    s3Key: "AKIAIMPORTTEST",
    s3Secret: "s3-secret-access-key-b90",
    rpPassword: "proxy-password-7e1",
    rpHeader: "proxy-header-value-c44",
    rpPin: "40917362",
    hookSecret: "hook-secret-import-4d2",
    hookUrlToken: "hooktoken-import-8a0",
    /** Not a secret, but write-only: the Okta connection name comes back through config too. */
    oktaConnection: "okta-import-conn",
    llmKey: "sk-import-llm-key-5b3",
  };
  await call(
    "createIdentityProvider",
    {
      body: {
        type: "okta",
        name: "okta",
        issuer: "https://login.example.com",
        client_id: "privnet",
        client_secret: secrets.idp,
      },
    },
    "IdentityProvider",
  );
  const [account] = await client.call<Obj[]>("listAccounts");
  await client.call("updateAccount", {
    params: { accountId: String(account?.id) },
    body: {
      settings: {
        ...(account?.settings as Record<string, unknown>),
        peer_login_expiration: 7200,
        peer_expose_enabled: true,
        peer_expose_groups: [g("ops")],
        embedded_idp_enabled: undefined,
        local_auth_disabled: undefined,
      },
    },
  });
  await client.call("createEdrVendorA", {
    body: {
      groups: [g("engineering")],
      last_synced_interval: 24,
      api_token: secrets.edrA,
      api_url: "https://edr-a.example.com",
      match_attributes: { firewall_enabled: true },
    },
  });
  await client.call("createEdrVendorB", {
    body: {
      groups: [g("ops")],
      last_synced_interval: 48,
      client_id: "cid",
      tenant_id: "tid",
      secret: secrets.edrB,
    },
  });
  await client.call("createEdrVendorC", {
    body: {
      groups: [all],
      client_id: secrets.edrCClient,
      secret: secrets.edrCSecret,
      cloud_id: "eu-1",
      zta_score_threshold: 70,
    },
  });
  // Made through the spec's neutral paths: the same objects as the service's (read and written as its kinds).
  await call(
    "createVendorDIdp",
    { body: { service_account_key: secrets.dirD, customer_id: "C01", group_prefixes: ["eng-"] } },
    "GoogleWorkspaceSync",
  );
  await call(
    "createVendorEIdp",
    {
      body: {
        client_secret: secrets.dirE,
        client_id: "app",
        tenant_id: "tenant",
        host: "microsoft.com",
        sync_interval: 600,
      },
    },
    "AzureAdSync",
  );
  await client.call("createEdrHuntress", {
    body: {
      groups: [g("ops")],
      last_synced_interval: 24,
      api_key: secrets.huntressKey,
      api_secret: secrets.huntressSecret,
      match_attributes: { firewall_status: "Enabled" },
    },
  });
  await client.call("createEdrFleetDm", {
    body: {
      groups: [g("engineering")],
      last_synced_interval: 24,
      api_url: "https://fleet.example.com",
      api_token: secrets.fleetToken,
      match_attributes: { disk_encryption_enabled: true, required_policies: [2] },
    },
  });
  await client.call("createPeerEdrBypass", { params: { peerId: peers["laptop"]! } });
  (ids.PeerEdrBypass ??= []).push(peers["laptop"]!);
  await call(
    "createMspTenant",
    { body: { name: "Acme", domain: "acme.example.com", groups: [{ id: g("ops"), role: "admin" }] } },
    "MspTenant",
  );
  await call(
    "createEventStreaming",
    {
      body: {
        platform: "s3",
        enabled: true,
        config: {
          bucket_name: "audit",
          region: "eu-west-1",
          access_key_id: secrets.s3Key,
          secret_access_key: secrets.s3Secret,
        },
      },
    },
    "EventStreamingIntegration",
  );
  await call(
    "createScimIntegration",
    { body: { prefix: "acme", provider: "jumpcloud", group_prefixes: ["eng-"], connector_id: "dex-jc" } },
    "ScimIntegration",
  );
  const okta = await call(
    "createOktaScimIntegration",
    { body: { connection_name: secrets.oktaConnection, user_group_prefixes: ["vpn-"] } },
    "OktaScimIntegration",
  );
  await client.call("updateOktaScimIntegration", { params: { id: okta.id }, body: { enabled: false } });
  await call(
    "createNotificationChannel",
    {
      body: {
        type: "email",
        target: { emails: ["ops@example.com", "sec@example.com"] },
        event_types: ["user.invite", "policy.update"],
        enabled: true,
      },
    },
    "NotificationChannel",
  );
  await call(
    "createNotificationChannel",
    {
      body: {
        type: "webhook",
        target: {
          url: `https://hooks.example.com/services/${secrets.hookUrlToken}`,
          headers: { "X-Hook-Secret": secrets.hookSecret },
        },
        event_types: ["peer.add"],
        enabled: false,
      },
    },
    "NotificationChannel",
  );
  await call(
    "createIngressPeer",
    { body: { peer_id: peers["gw-2"], enabled: true, fallback: false } },
    "IngressPeer",
  );
  await call(
    "createPortAllocation",
    {
      params: { peerId: peers["web-1"] as string },
      body: { name: "web", enabled: true, port_ranges: [{ start: 8080, end: 8081, protocol: "tcp" }] },
    },
    "IngressPortAllocation",
  );
  // Reverse proxies: a proxy registers (the simulated agent), then a public service behind a password, a PIN, a
  // header and sign-in for one group, a private one for a group, a custom domain and a proxy token that expires.
  const proxyToken = await client.call<{ plain_token: string }>("createProxyToken", {
    body: { name: "edge" },
  });
  const reg = await fetch(`${url}/sim/proxies`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: proxyToken.plain_token, address: "edge.example.test" }),
  });
  if (!reg.ok) throw new Error(`register a proxy: ${reg.status} ${await reg.text()}`);
  await call(
    "createReverseProxyService",
    {
      body: {
        name: "db console",
        domain: "db.edge.example.test",
        enabled: true,
        targets: [
          {
            target_id: db.id,
            target_type: "host",
            protocol: "http",
            port: 8080,
            enabled: true,
            options: { request_timeout: "2m" },
          },
        ],
        auth: {
          password_auth: { enabled: true, password: secrets.rpPassword },
          pin_auth: { enabled: true, pin: secrets.rpPin },
          bearer_auth: { enabled: true, distribution_groups: [g("engineering")] },
          header_auths: [{ enabled: true, header: "X-Api-Key", value: secrets.rpHeader }],
        },
        access_restrictions: { allowed_countries: ["de"] },
      },
    },
    "ReverseProxyService",
  );
  await call(
    "createReverseProxyService",
    {
      body: {
        name: "web",
        domain: "web.edge.example.test",
        enabled: true,
        private: true,
        access_groups: [g("engineering")],
        targets: [
          { target_id: peers["web-1"], target_type: "peer", protocol: "http", port: 80, enabled: true },
        ],
      },
    },
    "ReverseProxyService",
  );
  await call(
    "createReverseProxyDomain",
    { body: { domain: "apps.example.com", target_cluster: "edge.example.test" } },
    "ReverseProxyDomain",
  );
  const ciToken = await call(
    "createProxyToken",
    { body: { name: "ci proxy", expires_in: 30 * 86400 } },
    "ProxyToken",
  );
  // Agent Networks: the gateway under a proxy address, a provider (its API key write-only) with its own prices, a
  // guardrail, a policy from a group to the provider with a cap, an account-wide budget rule.
  await client.call("createAgentNetworkSettings", {
    body: { proxy_address: "agents.example.test", redact_pii: true, access_log_retention_days: 14 },
  });
  const llm = await call(
    "createAgentNetworkProvider",
    {
      body: {
        provider_id: "openai_api",
        name: "openai",
        upstream_url: "https://api.openai.com",
        api_key: secrets.llmKey,
        enabled: true,
        models: [{ id: "gpt-4o-mini", input_per_1k: 0.00015, output_per_1k: 0.0006 }],
      },
    },
    "AgentNetworkProvider",
  );
  const guard = await call(
    "createAgentNetworkGuardrail",
    {
      body: { name: "small models", checks: { model_allowlist: { enabled: true, models: ["gpt-4o-mini"] } } },
    },
    "AgentNetworkGuardrail",
  );
  await call(
    "createAgentNetworkPolicy",
    {
      body: {
        name: "engineering to openai",
        source_groups: [g("engineering")],
        destination_provider_ids: [llm.id],
        guardrail_ids: [guard.id],
        limits: { token_limit: { enabled: true, group_cap: 0, user_cap: 2_000_000, window_seconds: 86400 } },
      },
    },
    "AgentNetworkPolicy",
  );
  await call(
    "createAgentNetworkBudgetRule",
    {
      body: {
        name: "account ceiling",
        limits: {
          budget_limit: { enabled: true, group_cap_usd: 100, user_cap_usd: 0, window_seconds: 86400 },
        },
      },
    },
    "AgentNetworkBudgetRule",
  );
  // The tokens' values are answered once, at create: an import cannot know them, and they are never in its state.
  const withTokens: Record<string, string> = {
    ...secrets,
    edgeProxyToken: proxyToken.plain_token,
    ciProxyToken: String(ciToken.plain_token),
  };
  return { peers, groups, secrets: withTokens, ids };
}
