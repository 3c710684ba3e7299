/**
 * Provider test support: providers configured against a server, and per-kind fixtures (inputs to create, to change
 * in place, to force a replacement) built on prerequisites made through the API. The fixtures run against any
 * {@link FixtureTarget}: the provider tier's local server, or a live server in the acceptance tier.
 */
import { randomBytes } from "node:crypto";
import { PROVIDERS } from "../../provider/registry";
import type { PrivnetProvider } from "../../provider/lifecycle";
import type { Props } from "../../provider/spec";
import { addPeer } from "./fixtures";
import type { TestServer } from "./server";

export function providerFor(name: string): PrivnetProvider {
  const p = PROVIDERS.find((x) => x.spec.name === name);
  if (!p) throw new Error(`no provider ${name}`);
  return p;
}

/** Points every provider at a server (as `configure` would with stack config). */
export async function configureAll(s: { url: string; token: string }): Promise<void> {
  for (const p of PROVIDERS) {
    await p.configure({
      config: {
        get: (key: string) =>
          key === "privnet:apiUrl" ? s.url : key === "privnet:token" ? s.token : undefined,
        require: (key: string) => {
          throw new Error(`unexpected require(${key})`);
        },
      },
    } as never);
  }
}

export interface KindFixture {
  /** Inputs of a valid new object. */
  create: Props;
  /** A change the API makes in place (undefined: the kind has none). */
  update?: Props;
  /** A change that needs a new object, and the property that forces it. */
  replace?: { inputs: Props; property: string };
  /** Id lists in `create` (shuffled in the no-phantom-diff test). */
  idLists?: string[];
  /** Singletons stay readable after delete (restored) instead of disappearing. */
  survivesDelete?: boolean;
  /**
   * Outputs that time alone changes between two reads (a key that expires while the test runs): two reads are
   * compared without them, and each must still hold one of the values given.
   */
  timeBound?: Record<string, unknown[]>;
}

/** Where fixtures make their prerequisites. */
export interface FixtureTarget {
  /** Calls an API operation with the owner's token; the body of a 2xx answer, an error otherwise. */
  call(operationId: string, args?: { params?: Record<string, string>; body?: unknown }): Promise<any>;
  /** An enrolled peer's id that no other fixture of this target was given; fails when there is none left. */
  peer(): Promise<string>;
  /** An OIDC issuer URL the target accepts for a new identity provider. */
  oidcIssuer: string;
  /** Whether the target has a geo-location database (posture checks by country need one). */
  geoLocation: boolean;
  /**
   * The address of an online reverse-proxy cluster (services and custom domains need one): on a server with the
   * simulated agent, a proxy registered for the fixture; on a live server, one the account has. Fails when none.
   */
  proxyCluster(): Promise<string>;
}

/** Kinds whose fixtures need an online proxy cluster (the acceptance tier reports targets that have none). */
export const NEEDS_PROXY_CLUSTER = ["ReverseProxyService", "ReverseProxyDomain"];

/** Registers a simulated proxy of `address` with a new proxy token (a server started with --simulate). */
export async function registerSimulatedProxy(
  url: string,
  call: FixtureTarget["call"],
  address: string,
): Promise<string> {
  const token = await call("createProxyToken", { body: { name: `proxy ${address}` } });
  const res = await fetch(`${url}/sim/proxies`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: token.plain_token, address }),
  });
  if (res.status !== 200)
    throw new Error(`registering a proxy of ${address}: ${res.status} ${await res.text()}`);
  return address;
}

/** An online cluster the account has (a live server: proxies register there by themselves). */
export async function onlineCluster(call: FixtureTarget["call"]): Promise<string> {
  const clusters = ((await call("listProxyClusters")) ?? []) as { address: string; online: boolean }[];
  const up = clusters.find((c) => c.online);
  if (!up) throw new Error("the target has no online reverse-proxy cluster");
  return up.address;
}

/** Enrolled peers each kind's fixture takes (the acceptance tier reports kinds the target has too few for). */
export const PEERS_NEEDED: Record<string, number> = {
  Group: 3,
  NetworkRouter: 1,
  Peer: 2,
  IngressPeer: 2,
  IngressPortAllocation: 3,
};

async function ok<T = any>(p: Promise<{ status: number; body: T }>): Promise<T> {
  const r = await p;
  if (r.status !== 200) throw new Error(`fixture request failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The local test server as a fixture target: peers are written into its store (as if an agent enrolled). */
export function localTarget(s: TestServer): FixtureTarget {
  return {
    call: (operationId, args) => ok(s.call(operationId, args)),
    peer: async () => addPeer(s).id,
    oidcIssuer: "https://idp.example.com",
    geoLocation: true,
    proxyCluster: async () => {
      const call: FixtureTarget["call"] = (operationId, args) => ok(s.call(operationId, args));
      return registerSimulatedProxy(s.url, call, `proxy-${process.pid}.example.test`);
    },
  };
}

let counter = 0;
// Test files that run one after another in the same worker (one process) each load this module afresh: the
// counter starts again, so a per-load tag keeps their names apart on a shared target.
const LOAD = randomBytes(2).toString("hex");
const unique = (prefix: string) => `${prefix}-${process.pid}${LOAD}-${++counter}`;

/**
 * The prerequisites made on each target (groups, networks, zones, service users), as the calls that delete them,
 * oldest first: on a shared live server a run must not leave them behind ({@link removePrerequisites}).
 */
const prerequisites = new WeakMap<FixtureTarget, { operationId: string; params: Record<string, string> }[]>();

/** Notes a prerequisite made on `t`, to be deleted by {@link removePrerequisites}. */
export function madeOn(t: FixtureTarget, operationId: string, params: Record<string, string>): void {
  const list = prerequisites.get(t) ?? [];
  list.push({ operationId, params });
  prerequisites.set(t, list);
}

/**
 * Deletes the prerequisites made on `t`, newest first (a zone before the group it names). One that cannot be
 * deleted (still in use by an object a failed test left) stays; its call and error are returned, so the caller can
 * say so.
 */
export async function removePrerequisites(t: FixtureTarget): Promise<string[]> {
  const left: string[] = [];
  for (const { operationId, params } of (prerequisites.get(t) ?? []).reverse()) {
    try {
      await t.call(operationId, { params });
    } catch (err) {
      if (!/\b404\b|not found/i.test(String(err)))
        left.push(`${operationId} ${JSON.stringify(params)}: ${String(err)}`);
    }
  }
  prerequisites.delete(t);
  return left;
}

/** Builds prerequisites on the target and returns fixtures for every resource kind. */
export async function fixtures(t: FixtureTarget): Promise<Record<string, () => Promise<KindFixture>>> {
  const group = async () => {
    const id = (await t.call("createGroup", { body: { name: unique("g") } })).id as string;
    madeOn(t, "deleteGroup", { groupId: id });
    return id;
  };
  const peer = () => t.peer();
  const network = async () => {
    const id = (await t.call("createNetwork", { body: { name: unique("net") } })).id as string;
    madeOn(t, "deleteNetwork", { networkId: id });
    return id;
  };
  const llmProvider = async () => {
    const body = {
      provider_id: "openai_api",
      name: unique("llm"),
      upstream_url: "https://api.openai.com",
      api_key: "sk-prerequisite",
      enabled: true,
    };
    const id = String((await t.call("createAgentNetworkProvider", { body })).id);
    madeOn(t, "deleteAgentNetworkProvider", { providerId: id });
    return id;
  };
  const guardrail = async () => {
    const id = String((await t.call("createAgentNetworkGuardrail", { body: { name: unique("guard") } })).id);
    madeOn(t, "deleteAgentNetworkGuardrail", { guardrailId: id });
    return id;
  };
  return {
    Group: async () => {
      const [p1, p2, p3] = [await peer(), await peer(), await peer()];
      const name = unique("grp");
      return {
        create: { name, peers: [p1, p2, p3] },
        update: { name: `${name}-renamed`, peers: [p1] },
        idLists: ["peers"],
      };
    },
    Policy: async () => {
      const [a, b, c] = [await group(), await group(), await group()];
      const rule = {
        name: "ssh",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["22"],
      };
      return {
        create: {
          name: unique("pol"),
          enabled: true,
          rules: [{ ...rule, sources: [a, b], destinations: [c] }],
        },
        update: {
          name: unique("pol"),
          enabled: false,
          rules: [{ ...rule, ports: ["22", "2222"], sources: [a], destinations: [b, c] }],
        },
        idLists: [],
      };
    },
    PostureCheck: async () => ({
      create: {
        name: unique("pc"),
        description: "baseline",
        checks: {
          nbVersionCheck: { minVersion: "0.28.0" },
          ...(t.geoLocation
            ? { geoLocationCheck: { locations: [{ countryCode: "DE" }], action: "allow" } }
            : {}),
          peerNetworkRangeCheck: { ranges: ["10.0.0.0/8"], action: "deny" },
          processCheck: { processes: [{ linuxPath: "/usr/bin/agent" }] },
          osVersionCheck: { linux: { minKernelVersion: "5.10" } },
        },
      },
      update: {
        name: unique("pc"),
        description: "stricter",
        checks: { nbVersionCheck: { minVersion: "0.30.0" } },
      },
    }),
    Route: async () => {
      const [g1, g2, g3] = [await group(), await group(), await group()];
      const base = {
        description: "office",
        networkId: "office",
        enabled: true,
        masquerade: true,
        keepRoute: false,
      };
      return {
        create: { ...base, peerGroups: [g1, g2], network: "10.10.0.0/16", metric: 100, groups: [g2, g3] },
        update: { ...base, peerGroups: [g1], network: "10.20.0.0/16", metric: 50, groups: [g3] },
        idLists: ["peerGroups", "groups"],
      };
    },
    Network: async () => ({
      create: { name: unique("net"), description: "lab" },
      update: { name: unique("net"), description: "production" },
    }),
    NetworkResource: async () => {
      const [n1, n2] = [await network(), await network()];
      const [g1, g2] = [await group(), await group()];
      const create = { networkId: n1, name: "db", address: "10.0.0.5", enabled: true, groups: [g1, g2] };
      return {
        create,
        update: { ...create, address: "10.0.0.0/24", groups: [g2] },
        replace: { inputs: { ...create, networkId: n2 }, property: "networkId" },
        idLists: ["groups"],
      };
    },
    NetworkRouter: async () => {
      const [n1, n2] = [await network(), await network()];
      const [g1, g2] = [await group(), await group()];
      const create = { networkId: n1, peerGroups: [g1, g2], metric: 10, masquerade: true, enabled: true };
      return {
        create,
        update: { ...create, peerGroups: undefined, peer: await peer(), metric: 20 },
        replace: { inputs: { ...create, networkId: n2 }, property: "networkId" },
        idLists: ["peerGroups"],
      };
    },
    NameserverGroup: async () => {
      const [g1, g2] = [await group(), await group()];
      const create = {
        name: unique("ns").slice(0, 40),
        description: "corp",
        nameservers: [{ ip: "10.0.0.53", nsType: "udp", port: 53 }],
        enabled: true,
        groups: [g1, g2],
        primary: false,
        domains: ["corp.example", "lab.example"],
        searchDomainsEnabled: true,
      };
      return {
        create,
        update: { ...create, primary: true, domains: [], searchDomainsEnabled: false, groups: [g2] },
        idLists: ["groups", "domains"],
      };
    },
    DnsSettings: async () => {
      const [g1, g2] = [await group(), await group()];
      return {
        create: { disabledManagementGroups: [g1, g2] },
        update: { disabledManagementGroups: [g2] },
        idLists: ["disabledManagementGroups"],
        survivesDelete: true,
      };
    },
    DnsZone: async () => {
      const [g1, g2] = [await group(), await group()];
      const domain = `${unique("z")}.example`;
      return {
        create: { name: "internal", domain, enableSearchDomain: false, distributionGroups: [g1, g2] },
        update: {
          name: "internal",
          domain,
          enableSearchDomain: true,
          enabled: false,
          distributionGroups: [g1],
        },
        idLists: ["distributionGroups"],
      };
    },
    DnsRecord: async () => {
      const [g] = [await group()];
      const zone = async () => {
        const z = await t.call("createDnsZone", {
          body: {
            name: "z",
            domain: `${unique("z")}.example`,
            enable_search_domain: false,
            distribution_groups: [g],
          },
        });
        madeOn(t, "deleteDnsZone", { zoneId: String(z.id) });
        return z;
      };
      const z1 = await zone();
      const z2 = await zone();
      return {
        create: { zoneId: z1.id, name: `db.${z1.domain}`, type: "A", content: "10.0.0.5", ttl: 300 },
        update: { zoneId: z1.id, name: `db.${z1.domain}`, type: "A", content: "10.0.0.6", ttl: 60 },
        replace: {
          inputs: { zoneId: z2.id, name: `db.${z2.domain}`, type: "A", content: "10.0.0.5", ttl: 300 },
          property: "zoneId",
        },
      };
    },
    SetupKey: async () => {
      const [g1, g2] = [await group(), await group()];
      const create = {
        name: unique("key"),
        type: "reusable",
        expiresIn: 86400,
        autoGroups: [g1, g2],
        usageLimit: 0,
        ephemeral: false,
      };
      return {
        create,
        update: { ...create, autoGroups: [g2], revoked: true },
        replace: { inputs: { ...create, usageLimit: 5 }, property: "usageLimit" },
        idLists: ["autoGroups"],
      };
    },
    User: async () => {
      const [g1, g2] = [await group(), await group()];
      const create = { name: unique("svc"), role: "user", autoGroups: [g1, g2], isServiceUser: true };
      return {
        create,
        update: { ...create, role: "admin", autoGroups: [g2] },
        replace: {
          inputs: { ...create, isServiceUser: false, email: `${unique("person")}@example.com` },
          property: "isServiceUser",
        },
        idLists: ["autoGroups"],
      };
    },
    PersonalAccessToken: async () => {
      const user = await t.call("createUser", {
        body: { name: unique("svc"), role: "admin", auto_groups: [], is_service_user: true },
      });
      madeOn(t, "deleteUser", { userId: String(user.id) });
      const create = { userId: user.id, name: "ci", expiresIn: 30 };
      return { create, replace: { inputs: { ...create, expiresIn: 60 }, property: "expiresIn" } };
    },
    UserInvite: async () => {
      const [g1, g2] = [await group(), await group()];
      const create = {
        email: `${unique("new")}@example.com`,
        name: "New Person",
        role: "user",
        autoGroups: [g1, g2],
      };
      return {
        create,
        replace: { inputs: { ...create, role: "admin" }, property: "role" },
        idLists: ["autoGroups"],
      };
    },
    Peer: async () => {
      const create = {
        peerId: await peer(),
        name: unique("laptop"),
        sshEnabled: true,
        loginExpirationEnabled: false,
        inactivityExpirationEnabled: false,
      };
      return {
        create,
        update: { ...create, sshEnabled: false, name: unique("laptop") },
        replace: { inputs: { ...create, peerId: await peer() }, property: "peerId" },
        survivesDelete: true,
      };
    },
    IdentityProvider: async () => {
      const create = {
        type: "oidc",
        name: unique("idp"),
        issuer: t.oidcIssuer,
        clientId: "privnet",
        clientSecret: "s3cr3t-value",
      };
      return { create, update: { ...create, name: unique("idp"), clientSecret: "rotated-s3cr3t" } };
    },
    AccountSettings: async () => {
      const g = await group();
      return {
        create: { peerLoginExpiration: 7200, peerExposeEnabled: true, peerExposeGroups: [g] },
        update: { peerLoginExpiration: 3600, regularUsersViewBlocked: false },
        survivesDelete: true,
      };
    },
    EdrVendorA: async () => {
      const [g1, g2] = [await group(), await group()];
      const create = {
        groups: [g1, g2],
        lastSyncedInterval: 24,
        apiToken: "edr-a-token",
        apiUrl: "https://edr-a.example.com",
        matchAttributes: { firewallEnabled: true },
      };
      return {
        create,
        update: { ...create, lastSyncedInterval: 48, apiToken: "edr-a-token-2" },
        idLists: ["groups"],
      };
    },
    EdrVendorB: async () => {
      const [g1] = [await group()];
      const create = {
        groups: [g1],
        lastSyncedInterval: 24,
        clientId: "cid",
        tenantId: "tid",
        secret: "edr-b-secret",
      };
      return { create, update: { ...create, enabled: false } };
    },
    EdrVendorC: async () => {
      const [g1] = [await group()];
      const create = {
        groups: [g1],
        clientId: "edr-c-client",
        secret: "edr-c-secret",
        cloudId: "eu-1",
        ztaScoreThreshold: 70,
      };
      return { create, update: { ...create, ztaScoreThreshold: 90 } };
    },
    DirectorySyncVendorD: async () => {
      const create = {
        serviceAccountKey: Buffer.from("sa-key").toString("base64"),
        customerId: "C01",
        groupPrefixes: ["eng-"],
      };
      return { create, update: { ...create, syncInterval: 600, enabled: false } };
    },
    DirectorySyncVendorE: async () => {
      const create = {
        clientSecret: Buffer.from("cs").toString("base64"),
        clientId: "app",
        tenantId: "tenant",
        host: "api.example.com",
      };
      return {
        create,
        update: { ...create, groupPrefixes: ["ops-"] },
        replace: { inputs: { ...create, host: "api2.example.com" }, property: "host" },
      };
    },
    EventStreamingIntegration: async () => {
      const create = {
        platform: "datadog",
        config: { api_key: "dd-key-1", site: "datadoghq.eu" },
        enabled: true,
      };
      return {
        create,
        update: { ...create, config: { api_key: "dd-key-1", site: "datadoghq.com" } },
        replace: {
          inputs: { platform: "generic_http", config: { url: "https://logs.example.com" }, enabled: true },
          property: "platform",
        },
      };
    },
    ReverseProxyService: async () => {
      const cluster = await t.proxyCluster();
      const net = await network();
      const resource = async (name: string, address: string) =>
        (
          await t.call("createNetworkResource", {
            params: { networkId: net },
            body: { name, address, enabled: true, groups: [] },
          })
        ).id as string;
      const host = await resource(unique("app"), "10.20.0.5");
      const subnet = await resource(unique("lan"), "10.21.0.0/16");
      const readers = await group();
      const domain = `${unique("svc")}.${cluster}`;
      const create = {
        name: unique("svc"),
        domain,
        enabled: true,
        targets: [
          {
            targetId: host,
            targetType: "host",
            protocol: "http",
            port: 8080,
            enabled: true,
            path: "/",
            options: { requestTimeout: "2m", customHeaders: { "X-Env": "test" } },
          },
        ],
        auth: {
          passwordAuth: { enabled: true, password: "pw-secret-1" },
          bearerAuth: { enabled: true, distributionGroups: [readers] },
          headerAuths: [{ enabled: true, header: "X-Token", value: "hdr-secret-1" }],
        },
        accessRestrictions: { allowedCountries: ["de"], blockedCidrs: ["192.0.2.0/24"] },
      };
      return {
        create,
        update: {
          ...create,
          name: unique("svc"),
          passHostHeader: true,
          targets: [
            ...create.targets,
            {
              targetId: subnet,
              targetType: "subnet",
              host: "10.21.0.9",
              protocol: "http",
              port: 80,
              enabled: true,
              path: "/api",
            },
          ],
          auth: {
            passwordAuth: { enabled: true, password: "pw-secret-2" },
            pinAuth: { enabled: true, pin: "4711" },
          },
        },
        replace: {
          inputs: {
            name: unique("svc"),
            domain,
            enabled: true,
            mode: "tcp",
            targets: [{ targetId: host, targetType: "host", protocol: "tcp", port: 5432, enabled: true }],
          },
          property: "mode",
        },
      };
    },
    ReverseProxyDomain: async () => {
      const cluster = await t.proxyCluster();
      const create = { domain: `${unique("apps")}.example.com`, targetCluster: cluster };
      return {
        create,
        replace: { inputs: { ...create, domain: `${unique("apps")}.example.com` }, property: "domain" },
      };
    },
    ProxyToken: async () => {
      const create = { name: unique("proxy"), expiresIn: 86400 };
      return { create, replace: { inputs: { ...create, name: unique("proxy") }, property: "name" } };
    },
    ScimIntegration: async () => {
      const create = { prefix: unique("scim"), provider: "jumpcloud", groupPrefixes: ["eng-", "ops-"] };
      return {
        create,
        // A token rotation rides along with a change in place.
        update: {
          ...create,
          prefix: unique("scim"),
          enabled: false,
          userGroupPrefixes: ["staff"],
          rotateToken: "2026-01",
        },
        replace: { inputs: { ...create, provider: "authentik" }, property: "provider" },
      };
    },
    OktaScimIntegration: async () => {
      const create = { connectionName: unique("okta"), userGroupPrefixes: ["vpn-"] };
      return {
        create,
        update: { ...create, groupPrefixes: ["eng-"], connectorId: "okta-dex", rotateToken: "1" },
        replace: { inputs: { ...create, connectionName: unique("okta") }, property: "connectionName" },
      };
    },
    NotificationChannel: async () => {
      const create = {
        type: "webhook",
        target: { url: "https://hooks.example.com/privnet", headers: { "X-Hook-Secret": "hook-secret-1" } },
        eventTypes: ["peer.add", "policy.update"],
        enabled: true,
      };
      return {
        create,
        update: {
          ...create,
          target: { ...create.target, headers: { "X-Hook-Secret": "hook-secret-2", "X-Team": "ops" } },
          eventTypes: ["policy.update", "peer.add", "group.add"],
        },
      };
    },
    IngressPeer: async () => {
      const create = { peerId: await peer(), enabled: true, fallback: true };
      return {
        create,
        update: { ...create, enabled: false },
        replace: { inputs: { ...create, peerId: await peer() }, property: "peerId" },
      };
    },
    // Agent Networks
    AgentNetworkSettings: async () => {
      // One per account: bootstrapped by the create (an account holding them already with this address is
      // adopted), released by the delete.
      const create = {
        proxyAddress: "agents.privnet.test",
        enableLogCollection: true,
        accessLogRetentionDays: 14,
      };
      return {
        create,
        update: { ...create, enableLogCollection: false, redactPii: true, accessLogRetentionDays: 7 },
      };
    },
    AgentNetworkProvider: async () => {
      const create = {
        providerId: "openai_api",
        name: unique("llm"),
        upstreamUrl: "https://api.openai.com",
        apiKey: "sk-fixture-key-1",
        enabled: true,
        models: [{ id: "gpt-4o-mini", inputPer1k: 0.00015, outputPer1k: 0.0006 }],
      };
      return {
        create,
        update: {
          ...create,
          providerId: "portkey",
          upstreamUrl: "https://api.portkey.ai",
          apiKey: "sk-fixture-key-2",
          extraValues: { "x-portkey-config": "pc-fixture" },
          models: [{ id: "gpt-4o-mini", inputPer1k: 0.0002, outputPer1k: 0.0008, cachedInputPer1k: 0.0001 }],
        },
      };
    },
    AgentNetworkGuardrail: async () => {
      const name = unique("guard");
      return {
        create: { name, checks: { modelAllowlist: { enabled: true, models: ["gpt-4o-mini"] } } },
        update: {
          name,
          description: "small models, prompts captured without personal data",
          checks: {
            modelAllowlist: { enabled: true, models: ["gpt-4o-mini", "gpt-4o"] },
            promptCapture: { enabled: true, redactPii: true },
          },
        },
      };
    },
    AgentNetworkPolicy: async () => {
      const [g1, g2] = [await group(), await group()];
      const [p1, p2] = [await llmProvider(), await llmProvider()];
      const name = unique("llm-policy");
      return {
        create: {
          name,
          sourceGroups: [g1, g2],
          destinationProviderIds: [p1],
          guardrailIds: [await guardrail()],
          limits: {
            tokenLimit: { enabled: true, groupCap: 2_000_000, userCap: 200_000, windowSeconds: 86_400 },
          },
        },
        update: {
          name,
          description: "engineering only, both providers, a daily budget",
          enabled: false,
          sourceGroups: [g1],
          destinationProviderIds: [p2, p1],
          limits: { budgetLimit: { enabled: true, groupCapUsd: 50, userCapUsd: 5.5, windowSeconds: 86_400 } },
        },
        idLists: ["sourceGroups"],
      };
    },
    AgentNetworkBudgetRule: async () => {
      const [g1, g2] = [await group(), await group()];
      const user = await t.call("createUser", {
        body: { name: unique("budget-user"), role: "user", auto_groups: [], is_service_user: true },
      });
      madeOn(t, "deleteUser", { userId: String(user.id) });
      const name = unique("budget");
      return {
        create: {
          name,
          targetGroups: [g1, g2],
          limits: { budgetLimit: { enabled: true, groupCapUsd: 100, userCapUsd: 10, windowSeconds: 86_400 } },
        },
        update: {
          name,
          enabled: false,
          targetGroups: [g1],
          targetUsers: [String(user.id)],
          limits: { tokenLimit: { enabled: true, groupCap: 500_000, userCap: 0, windowSeconds: 3600 } },
        },
        idLists: ["targetGroups"],
      };
    },
    IngressPortAllocation: async () => {
      const ingress = await peer();
      await t.call("createIngressPeer", { body: { peer_id: ingress, enabled: true, fallback: true } });
      const create = {
        peerId: await peer(),
        name: "web",
        enabled: true,
        portRanges: [{ start: 8080, end: 8081, protocol: "tcp" }],
      };
      return {
        create,
        update: { ...create, portRanges: [{ start: 8080, end: 8082, protocol: "tcp" }] },
        replace: { inputs: { ...create, peerId: await peer() }, property: "peerId" },
      };
    },
  };
}
