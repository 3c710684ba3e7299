/**
 * Every lookup against a real server: objects are made through the API (peers by the simulated agent, event
 * logs through the in-process feeds), then each lookup must return them, camelCased, with its filters applied.
 */
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { isPrivnetApiError } from "../../client";
import * as privnet from "../../sdk/lookups";
import { LOOKUPS, isPrivnetLookupError, type LookupOptions } from "../../sdk/lookups";
import { connectPeer, enrollPeer, finishJob } from "../../server/sim";
import { feedProxyLogs, feedTraffic } from "../../server/sim-events";
import { registerProxy } from "../../server/sim-proxy";
import { addPeer } from "../support/fixtures";
import { startTestServer, type CallOptions, type TestServer } from "../support/server";

let s: TestServer;
let opts: LookupOptions;

/** Every result a lookup returned in this file (checked at the end for leaked credentials and snake_case). */
const results: unknown[] = [];
async function kept<T>(p: Promise<T>): Promise<T> {
  const v = await p;
  results.push(v);
  return v;
}

async function ok<T = any>(operationId: string, o: CallOptions = {}): Promise<T> {
  const r = await s.call<T>(operationId, o);
  if (r.status < 200 || r.status > 299)
    throw new Error(`${operationId}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Rejects with a PrivnetLookupError of `reason` whose message is `message`. */
async function expectLookupError(
  p: Promise<unknown>,
  reason: string,
  message: string | RegExp,
): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isPrivnetLookupError(err)).toBe(true);
  expect((err as { reason: string }).reason).toBe(reason);
  if (typeof message === "string") expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
}

// Objects made in beforeAll.
const fx = {} as {
  gAdmins: { id: string; name: string };
  gDb: { id: string; name: string };
  setupKey: { id: number; key: string };
  web: { id: string; ip: string };
  db: { id: string; ip: string };
  dup1: string;
  dup2: string;
  ingressHost: string;
  job: string;
  policy: string;
  owner: string;
};

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  opts = { apiUrl: s.url, token: s.token };
  const state = s.server.state;

  fx.gAdmins = await ok("createGroup", { body: { name: "lk-admins" } });
  fx.gDb = await ok("createGroup", { body: { name: "lk-db" } });
  fx.setupKey = await ok("createSetupKey", {
    body: {
      name: "lk-key",
      type: "reusable",
      expires_in: 86400,
      auto_groups: [fx.gAdmins.id],
      usage_limit: 0,
    },
  });
  const enroll = (hostname: string) => enrollPeer(state, { setup_key: fx.setupKey.key, hostname });
  const web = enroll("lk-web");
  fx.web = { id: web.id, ip: web.ip };
  connectPeer(state, web.id);
  const db = addPeer(s, "lk-dbhost");
  fx.db = { id: db.id, ip: db.ip };
  await ok("updateGroup", { params: { groupId: fx.gDb.id }, body: { name: "lk-db", peers: [db.id] } });
  fx.dup1 = enroll("lk-dup").id;
  fx.dup2 = enroll("lk-dup").id;
  fx.ingressHost = addPeer(s, "lk-ingress").id;

  const rule = {
    name: "pg",
    enabled: true,
    action: "accept",
    bidirectional: true,
    protocol: "tcp",
    ports: ["5432"],
  };
  fx.policy = (
    await ok("createPolicy", {
      body: {
        name: "lk-admins-to-db",
        enabled: true,
        rules: [{ ...rule, sources: [fx.gAdmins.id], destinations: [fx.gDb.id] }],
      },
    })
  ).id;

  const job = await ok("createPeerJob", {
    params: { peerId: web.id },
    body: {
      workload: {
        type: "bundle",
        parameters: { bundle_for: false, bundle_for_time: 1, log_file_count: 5, anonymize: true },
      },
    },
  });
  finishJob(state, web.id, job.id, { status: "succeeded", uploadKey: "bundles/lk.zip" });
  fx.job = job.id;
  fx.owner = (await ok("getCurrentUser")).id;
});
afterAll(() => s?.close());

describe("peers", () => {
  test("getPeer: by id, camelCase, with its groups", async () => {
    const p = await kept(privnet.getPeer({ id: fx.web.id }, opts));
    expect(p).toMatchObject({
      id: fx.web.id,
      name: "lk-web",
      ip: fx.web.ip,
      hostname: "lk-web",
      connected: true,
    });
    expect(p.dnsLabel).toBe("lk-web");
    expect(p.groups.map((g) => g.name)).toContain("lk-admins");
    expect(p.groups.find((g) => g.id === fx.gAdmins.id)?.peersCount).toBe(3);
    expect(p.localFlags).toHaveProperty("rosenpassEnabled");
    expect(p).not.toHaveProperty("dns_label");
  });

  test("getPeers: all, and filtered by name and by ip", async () => {
    const all = await kept(privnet.getPeers({}, opts));
    expect(all.map((p) => p.id).sort()).toEqual(
      [fx.web.id, fx.db.id, fx.dup1, fx.dup2, fx.ingressHost].sort(),
    );
    expect(all.find((p) => p.id === fx.web.id)?.accessiblePeersCount).toBe(1);
    const dups = await kept(privnet.getPeers({ name: "lk-dup" }, opts));
    expect(dups.map((p) => p.id).sort()).toEqual([fx.dup1, fx.dup2].sort());
    const byIp = await kept(privnet.getPeers({ ip: fx.db.ip }, opts));
    expect(byIp.map((p) => p.name)).toEqual(["lk-dbhost"]);
    expect(await privnet.getPeers({ name: "lk-web", ip: fx.db.ip }, opts)).toEqual([]);
  });

  test("getPeerByName: exactly one, else says how many matched", async () => {
    expect((await kept(privnet.getPeerByName("lk-web", opts))).id).toBe(fx.web.id);
    await expectLookupError(
      privnet.getPeerByName("lk-dup", opts),
      "ambiguous",
      'privnet: getPeerByName: 2 peers named "lk-dup"; expected exactly one (list them with getPeers and its name filter)',
    );
    await expectLookupError(
      privnet.getPeerByName("lk-nobody", opts),
      "not-found",
      'privnet: getPeerByName: no peer named "lk-nobody"',
    );
  });

  test("getPeerByIp", async () => {
    expect((await kept(privnet.getPeerByIp(fx.db.ip, opts))).name).toBe("lk-dbhost");
    await expectLookupError(
      privnet.getPeerByIp("100.127.255.254", opts),
      "not-found",
      'privnet: getPeerByIp: no peer with IP "100.127.255.254"',
    );
  });

  test("getAccessiblePeers: follows the policy in both directions", async () => {
    const fromWeb = await kept(privnet.getAccessiblePeers({ peerId: fx.web.id }, opts));
    expect(fromWeb.map((p) => p.id)).toEqual([fx.db.id]);
    expect(fromWeb[0]).toMatchObject({ name: "lk-dbhost", ip: fx.db.ip, dnsLabel: "lk-dbhost" });
    const fromDb = await kept(privnet.getAccessiblePeers({ peerId: fx.db.id }, opts));
    expect(fromDb.map((p) => p.id).sort()).toEqual([fx.web.id, fx.dup1, fx.dup2].sort());
  });

  test("getPeerJobs and getPeerJob", async () => {
    const jobs = await kept(privnet.getPeerJobs({ peerId: fx.web.id }, opts));
    expect(jobs.map((j) => j.id)).toEqual([fx.job]);
    const job = await kept(privnet.getPeerJob({ peerId: fx.web.id, id: fx.job }, opts));
    expect(job).toMatchObject({ status: "succeeded", triggeredBy: fx.owner, failedReason: null });
    expect(job.workload.parameters).toEqual({
      bundleFor: false,
      bundleForTime: 1,
      logFileCount: 5,
      anonymize: true,
    });
    expect(job.workload.result?.uploadKey).toBe("bundles/lk.zip");
    expect(await privnet.getPeerJobs({ peerId: fx.db.id }, opts)).toEqual([]);
  });
});

describe("groups", () => {
  test("getGroup by id and by exact name", async () => {
    const byId = await kept(privnet.getGroup({ id: fx.gDb.id }, opts));
    expect(byId).toMatchObject({
      id: fx.gDb.id,
      name: "lk-db",
      peersCount: 1,
      resourcesCount: 0,
      issued: "api",
    });
    expect(byId.peers).toEqual([{ id: fx.db.id, name: "lk-dbhost" }]);
    const byName = await kept(privnet.getGroup({ name: "lk-admins" }, opts));
    expect(byName.id).toBe(fx.gAdmins.id);
    expect(byName.peers.map((p) => p.id).sort()).toEqual([fx.web.id, fx.dup1, fx.dup2].sort());
    const all = await kept(privnet.getGroup({ name: "All" }, opts));
    expect(all.peersCount).toBe(5);
  });

  test("getGroup by a name given as a number (Pulumi YAML's digits-only config values) finds it by its text", async () => {
    const g = await ok<{ id: string }>("createGroup", { body: { name: "2024" } });
    const found = await kept(privnet.getGroup({ name: 2024 as unknown as string }, opts));
    expect(found.id).toBe(g.id);
    await ok("deleteGroup", { params: { groupId: g.id } });
  });

  test("getGroup: a missing name or id is a clear error", async () => {
    await expectLookupError(
      privnet.getGroup({ name: "lk-nope" }, opts),
      "not-found",
      'privnet: getGroup: no group named "lk-nope"',
    );
    // A prefix of a real name is not a match: the name filter is exact.
    await expectLookupError(
      privnet.getGroup({ name: "lk-adm" }, opts),
      "not-found",
      /no group named "lk-adm"$/,
    );
    await expectLookupError(
      privnet.getGroup({ id: "lk-missing-id" }, opts),
      "not-found",
      /^privnet: getGroup: no group with id "lk-missing-id" \(GET \/api\/groups\/lk-missing-id 404: .+\)$/,
    );
  });

  test("getGroups", async () => {
    const groups = await kept(privnet.getGroups(opts));
    expect(groups.map((g) => g.name)).toEqual(expect.arrayContaining(["All", "lk-admins", "lk-db"]));
  });
});

describe("users, tokens, account", () => {
  let bot: string;
  let alice: string;
  let token: string;
  beforeAll(async () => {
    bot = (
      await ok("createUser", {
        body: { name: "lk-bot", role: "admin", auto_groups: [], is_service_user: true },
      })
    ).id;
    alice = (
      await ok("createUser", {
        body: {
          email: "lk-alice@example.com",
          name: "Alice",
          role: "user",
          auto_groups: [fx.gDb.id],
          is_service_user: false,
        },
      })
    ).id;
    token = (await ok("createToken", { params: { userId: bot }, body: { name: "lk-ci", expires_in: 30 } }))
      .personal_access_token.id;
  });

  test("getUsers: all, service users only, regular users only", async () => {
    const all = (await kept(privnet.getUsers({}, opts))).map((u) => u.id);
    expect(all).toEqual(expect.arrayContaining([fx.owner, bot, alice]));
    const service = await kept(privnet.getUsers({ serviceUser: true }, opts));
    expect(service.map((u) => u.id)).toEqual([bot]);
    expect(service[0]).toMatchObject({ name: "lk-bot", isServiceUser: true, role: "admin" });
    const regular = (await kept(privnet.getUsers({ serviceUser: false }, opts))).map((u) => u.id);
    expect(regular).toEqual(expect.arrayContaining([fx.owner, alice]));
    expect(regular).not.toContain(bot);
  });

  test("getUser by id and by email (case-insensitive)", async () => {
    expect((await kept(privnet.getUser({ id: bot }, opts))).name).toBe("lk-bot");
    const a = await kept(privnet.getUser({ email: "LK-Alice@Example.com" }, opts));
    expect(a).toMatchObject({
      id: alice,
      email: "lk-alice@example.com",
      autoGroups: [fx.gDb.id],
      isBlocked: false,
    });
    await expectLookupError(
      privnet.getUser({ email: "nobody@example.com" }, opts),
      "not-found",
      'privnet: getUser: no user with email "nobody@example.com"',
    );
  });

  test("getCurrentUser: the token's owner", async () => {
    const me = await kept(privnet.getCurrentUser(opts));
    expect(me).toMatchObject({ id: fx.owner, role: "owner", isCurrent: true });
    expect(me.permissions.modules.peers).toEqual({ read: true, create: true, update: true, delete: true });
  });

  test("getTokens and getToken: without the token value", async () => {
    const tokens = await kept(privnet.getTokens({ userId: bot }, opts));
    expect(tokens.map((t) => [t.id, t.name])).toEqual([[token, "lk-ci"]]);
    const t = await kept(privnet.getToken({ userId: bot, id: token }, opts));
    expect(t).toMatchObject({ id: token, name: "lk-ci", createdBy: fx.owner, lastUsed: null });
    expect(Object.keys(t).sort()).toEqual([
      "createdAt",
      "createdBy",
      "expirationDate",
      "id",
      "lastUsed",
      "name",
    ]);
  });

  test("getAccount", async () => {
    const [raw] = await ok<any[]>("listAccounts");
    const account = await kept(privnet.getAccount(opts));
    expect(account.id).toBe(raw.id);
    expect(account.domain).toBe(raw.domain);
    expect(account.settings.peerLoginExpiration).toBe(raw.settings.peer_login_expiration);
    expect(account.settings.extra.peerApprovalEnabled).toBe(raw.settings.extra.peer_approval_enabled);
    expect(account.onboarding).toEqual({
      signupFormPending: raw.onboarding.signup_form_pending,
      onboardingFlowPending: raw.onboarding.onboarding_flow_pending,
    });
  });
});

describe("policies, posture checks, routes", () => {
  test("getPolicy and getPolicies", async () => {
    const p = await kept(privnet.getPolicy({ id: fx.policy }, opts));
    expect(p).toMatchObject({ id: fx.policy, name: "lk-admins-to-db", enabled: true });
    expect(p.rules[0]).toMatchObject({ name: "pg", protocol: "tcp", ports: ["5432"], bidirectional: true });
    expect(p.rules[0]?.sources?.map((g) => g.name)).toEqual(["lk-admins"]);
    expect(p.rules[0]?.destinations?.[0]).toMatchObject({ id: fx.gDb.id, peersCount: 1 });
    const all = await kept(privnet.getPolicies(opts));
    expect(all.map((x) => x.id)).toContain(fx.policy);
  });

  test("getPostureCheck and getPostureChecks: nested checks camelCased", async () => {
    const id = (
      await ok("createPostureCheck", {
        body: {
          name: "lk-pc",
          description: "baseline",
          checks: {
            nb_version_check: { min_version: "0.28.0" },
            os_version_check: { linux: { min_kernel_version: "5.10" } },
          },
        },
      })
    ).id;
    const pc = await kept(privnet.getPostureCheck({ id }, opts));
    expect(pc).toMatchObject({ id, name: "lk-pc", description: "baseline" });
    expect(pc.checks.nbVersionCheck).toEqual({ minVersion: "0.28.0" });
    expect(pc.checks.osVersionCheck?.linux).toEqual({ minKernelVersion: "5.10" });
    expect((await kept(privnet.getPostureChecks(opts))).map((x) => x.name)).toContain("lk-pc");
  });

  test("getRoute and getRoutes", async () => {
    const id = (
      await ok("createRoute", {
        body: {
          description: "lk-office",
          network_id: "lk-office",
          enabled: true,
          peer_groups: [fx.gAdmins.id],
          network: "10.10.0.0/16",
          metric: 100,
          masquerade: true,
          groups: [fx.gDb.id],
          keep_route: false,
        },
      })
    ).id;
    const r = await kept(privnet.getRoute({ id }, opts));
    expect(r).toMatchObject({
      id,
      networkId: "lk-office",
      peerGroups: [fx.gAdmins.id],
      network: "10.10.0.0/16",
      metric: 100,
    });
    expect(r.networkType).toBe("IPv4");
    expect((await kept(privnet.getRoutes(opts))).map((x) => x.id)).toEqual([id]);
  });
});

describe("networks", () => {
  let network: string;
  let resource: string;
  let router: string;
  beforeAll(async () => {
    network = (await ok("createNetwork", { body: { name: "lk-net", description: "lab" } })).id;
    resource = (
      await ok("createNetworkResource", {
        params: { networkId: network },
        body: { name: "lk-db", address: "10.0.0.5", enabled: true, groups: [fx.gDb.id] },
      })
    ).id;
    router = (
      await ok("createNetworkRouter", {
        params: { networkId: network },
        body: { peer: fx.web.id, metric: 10, masquerade: true, enabled: true },
      })
    ).id;
  });

  test("getNetwork and getNetworks", async () => {
    const n = await kept(privnet.getNetwork({ id: network }, opts));
    expect(n).toMatchObject({
      id: network,
      name: "lk-net",
      description: "lab",
      routers: [router],
      resources: [resource],
    });
    expect(n.routingPeersCount).toBe(1);
    expect((await kept(privnet.getNetworks(opts))).map((x) => x.name)).toEqual(["lk-net"]);
  });

  test("getNetworkResource and getNetworkResources", async () => {
    const r = await kept(privnet.getNetworkResource({ networkId: network, id: resource }, opts));
    expect(r).toMatchObject({
      id: resource,
      name: "lk-db",
      address: "10.0.0.5",
      type: "host",
      enabled: true,
    });
    expect(r.groups.map((g) => g.id)).toEqual([fx.gDb.id]);
    expect((await kept(privnet.getNetworkResources({ networkId: network }, opts))).map((x) => x.id)).toEqual([
      resource,
    ]);
    await expectLookupError(
      privnet.getNetworkResource({ networkId: network, id: "lk-gone" }, opts),
      "not-found",
      new RegExp(
        `^privnet: getNetworkResource: no network resource with id "lk-gone" in network "${network}" \\(GET `,
      ),
    );
  });

  test("getNetworkRouter and getNetworkRouters", async () => {
    const r = await kept(privnet.getNetworkRouter({ networkId: network, id: router }, opts));
    expect(r).toMatchObject({ id: router, peer: fx.web.id, metric: 10, masquerade: true, enabled: true });
    expect((await kept(privnet.getNetworkRouters({ networkId: network }, opts))).map((x) => x.id)).toEqual([
      router,
    ]);
  });
});

describe("DNS", () => {
  test("getNameserverGroup and getNameserverGroups", async () => {
    const id = (
      await ok("createNameserverGroup", {
        body: {
          name: "lk-ns",
          description: "corp",
          nameservers: [{ ip: "10.0.0.53", ns_type: "udp", port: 53 }],
          enabled: true,
          groups: [fx.gAdmins.id],
          primary: false,
          domains: ["corp.example"],
          search_domains_enabled: true,
        },
      })
    ).id;
    const ns = await kept(privnet.getNameserverGroup({ id }, opts));
    expect(ns).toMatchObject({ id, name: "lk-ns", domains: ["corp.example"], searchDomainsEnabled: true });
    expect(ns.nameservers).toEqual([{ ip: "10.0.0.53", nsType: "udp", port: 53 }]);
    expect((await kept(privnet.getNameserverGroups(opts))).map((x) => x.id)).toEqual([id]);
  });

  test("getDnsSettings: the settings, not the API's envelope", async () => {
    await ok("updateDnsSettings", { body: { disabled_management_groups: [fx.gDb.id] } });
    expect(await kept(privnet.getDnsSettings(opts))).toEqual({ disabledManagementGroups: [fx.gDb.id] });
  });

  test("getDnsZone, getDnsZones, getDnsRecord, getDnsRecords", async () => {
    const zone = (
      await ok("createDnsZone", {
        body: {
          name: "lk-internal",
          domain: "lk.example",
          enable_search_domain: false,
          distribution_groups: [fx.gAdmins.id],
        },
      })
    ).id;
    const record = (
      await ok("createDnsRecord", {
        params: { zoneId: zone },
        body: { name: "db.lk.example", type: "A", content: "10.0.0.5", ttl: 300 },
      })
    ).id;
    const z = await kept(privnet.getDnsZone({ id: zone }, opts));
    expect(z).toMatchObject({
      id: zone,
      domain: "lk.example",
      enableSearchDomain: false,
      distributionGroups: [fx.gAdmins.id],
    });
    expect(z.records.map((r) => r.id)).toEqual([record]);
    expect((await kept(privnet.getDnsZones(opts))).map((x) => x.id)).toEqual([zone]);
    const r = await kept(privnet.getDnsRecord({ zoneId: zone, id: record }, opts));
    expect(r).toEqual({ id: record, name: "db.lk.example", type: "A", content: "10.0.0.5", ttl: 300 });
    expect(await kept(privnet.getDnsRecords({ zoneId: zone }, opts))).toEqual([r]);
  });
});

describe("setup keys and identity providers", () => {
  test("getSetupKey and getSetupKeys: masked key, integer id as number or string", async () => {
    const k = await kept(privnet.getSetupKey({ id: fx.setupKey.id }, opts));
    expect(k).toMatchObject({
      id: fx.setupKey.id,
      name: "lk-key",
      type: "reusable",
      usedTimes: 3,
      autoGroups: [fx.gAdmins.id],
    });
    expect(k.key).not.toBe(fx.setupKey.key);
    expect(k.key.startsWith(fx.setupKey.key.slice(0, 5))).toBe(true);
    expect(k.key).toContain("*");
    expect((await kept(privnet.getSetupKey({ id: String(fx.setupKey.id) }, opts))).name).toBe("lk-key");
    const keys = await kept(privnet.getSetupKeys(opts));
    expect(keys.map((x) => x.id)).toEqual([fx.setupKey.id]);
    expect(JSON.stringify(keys)).not.toContain(fx.setupKey.key);
  });

  test("getIdentityProvider and getIdentityProviders: no client secret", async () => {
    const id = (
      await ok("createIdentityProvider", {
        body: {
          type: "oidc",
          name: "lk-idp",
          issuer: "https://idp.example.com",
          client_id: "privnet",
          client_secret: "lk-s3cr3t",
        },
      })
    ).id;
    const idp = await kept(privnet.getIdentityProvider({ id }, opts));
    expect(idp).toMatchObject({
      id,
      type: "oidc",
      name: "lk-idp",
      issuer: "https://idp.example.com",
      clientId: "privnet",
    });
    const all = await kept(privnet.getIdentityProviders(opts));
    expect(all.map((x) => x.id)).toEqual([id]);
    expect(JSON.stringify([idp, all])).not.toContain("lk-s3cr3t");
  });
});

describe("the service's names, EDR bypasses, MSP tenants, the instance, locations, every router", () => {
  test("the EDR vendors: the deprecated lookups read the same objects", async () => {
    await expectLookupError(
      privnet.getEdrHuntress(opts),
      "not-found",
      /^privnet: getEdrHuntress: the Huntress EDR integration is not configured \(GET /,
    );
    await ok("createEdrHuntress", {
      body: {
        groups: [fx.gDb.id],
        last_synced_interval: 24,
        api_key: "lk-huntress-key",
        api_secret: "lk-huntress-secret",
        match_attributes: { firewall_status: "Enabled" },
      },
    });
    await ok("createEdrFleetDm", {
      body: {
        groups: [fx.gDb.id],
        last_synced_interval: 24,
        api_url: "https://fleet.example.com",
        api_token: "lk-fleet-token",
        match_attributes: { required_policies: [3] },
      },
    });
    const h = await kept(privnet.getEdrHuntress(opts));
    expect(h.matchAttributes).toEqual({ firewallStatus: "Enabled" });
    const f = await kept(privnet.getEdrFleetDm(opts));
    expect(f).toMatchObject({
      apiUrl: "https://fleet.example.com",
      matchAttributes: { requiredPolicies: [3] },
    });
    expect(JSON.stringify([h, f])).not.toMatch(/lk-huntress|lk-fleet-token/);
    await ok("deleteEdrHuntress");
    await ok("deleteEdrFleetDm");
    // sentinelone, intune and falcon are made by the next describe's first test through the neutral paths.
  });

  test("peer EDR bypasses, MSP tenants, the instance, locations and every router", async () => {
    expect(await kept(privnet.getPeerEdrBypasses(opts))).toEqual([]);
    await ok("createPeerEdrBypass", { params: { peerId: fx.db.id } });
    expect(await kept(privnet.getPeerEdrBypasses(opts))).toEqual([{ peerId: fx.db.id }]);
    await ok("deletePeerEdrBypass", { params: { peerId: fx.db.id } });

    const t = await ok("createMspTenant", {
      body: { name: "lk-tenant", domain: "lk.example.com", groups: [{ id: fx.gAdmins.id, role: "admin" }] },
    });
    const tenants = await kept(privnet.getMspTenants(opts));
    expect(tenants.map((x) => x.id)).toEqual([t.id]);
    expect(await kept(privnet.getMspTenant({ id: t.id }, opts))).toMatchObject({
      name: "lk-tenant",
      status: "pending",
      groups: [{ id: fx.gAdmins.id, role: "admin" }],
    });
    await expectLookupError(
      privnet.getMspTenant({ id: "nope" }, opts),
      "not-found",
      /no MSP tenant with id "nope"/,
    );
    await ok("unlinkMspTenant", { params: { id: t.id }, body: { owner: "lk-owner" } });

    expect(await kept(privnet.getInstanceStatus(opts))).toEqual({ setupRequired: false });
    expect((await kept(privnet.getInstanceVersion(opts))).managementCurrentVersion).toMatch(/^v\d/);

    // privnet-server's places are those its peers report.
    s.server.state.store.tx((tx) => {
      const peer = tx.get<Record<string, unknown> & { id: string }>("peer", fx.db.id)!;
      tx.put("peer", { ...peer, country_code: "NL", city_name: "Utrecht", geoname_id: 2745912 });
    });
    expect(await kept(privnet.getCountries(opts))).toContainEqual({ countryCode: "NL" });
    expect(await kept(privnet.getCities({ country: "NL" }, opts))).toEqual([
      { geonameId: 2745912, cityName: "Utrecht" },
    ]);

    const n = await ok("createNetwork", { body: { name: "lk-routed" } });
    const r = await ok("createNetworkRouter", {
      params: { networkId: n.id },
      body: { peer_groups: [fx.gDb.id], metric: 10, masquerade: false, enabled: true },
    });
    const all = await kept(privnet.getAllNetworkRouters(opts));
    expect(all.map((x) => x.id)).toContain(r.id);
    await ok("deleteNetwork", { params: { networkId: n.id } });
  });
});

describe("integrations", () => {
  test("getEdrVendorA, getEdrVendorB, getEdrVendorC; not configured is a clear error", async () => {
    await expectLookupError(
      privnet.getEdrVendorC(opts),
      "not-found",
      /^privnet: getEdrVendorC: the CrowdStrike Falcon EDR integration is not configured \(GET /,
    );
    await ok("createEdrVendorA", {
      body: {
        groups: [fx.gAdmins.id],
        last_synced_interval: 24,
        api_token: "lk-edr-a-token",
        api_url: "https://edr-a.example.com/api",
        match_attributes: { firewall_enabled: true, network_status: "connected" },
      },
    });
    await ok("createEdrVendorB", {
      body: {
        groups: [fx.gDb.id],
        last_synced_interval: 48,
        client_id: "client-b",
        tenant_id: "tenant-b",
        secret: "lk-edr-b",
      },
    });
    await ok("createEdrVendorC", {
      body: {
        groups: [fx.gDb.id],
        client_id: "lk-edr-c-client",
        secret: "lk-edr-c",
        cloud_id: "us-1",
        zta_score_threshold: 70,
      },
    });
    const a = await kept(privnet.getEdrVendorA(opts));
    expect(a).toMatchObject({
      apiUrl: "https://edr-a.example.com/api",
      lastSyncedInterval: 24,
      enabled: true,
    });
    expect(a.matchAttributes).toEqual({ firewallEnabled: true, networkStatus: "connected" });
    expect(a.groups[0]).toMatchObject({ id: fx.gAdmins.id, name: "lk-admins" });
    const b = await kept(privnet.getEdrVendorB(opts));
    expect(b).toMatchObject({ clientId: "client-b", tenantId: "tenant-b", lastSyncedInterval: 48 });
    const c = await kept(privnet.getEdrVendorC(opts));
    expect(c).toMatchObject({ cloudId: "us-1", ztaScoreThreshold: 70 });
    expect(JSON.stringify([a, b, c])).not.toMatch(/lk-edr-a-token|lk-edr-b|lk-edr-c/);
    // The service's names of the same three integrations.
    expect(await kept(privnet.getEdrSentinelOne(opts))).toEqual(a);
    expect(await kept(privnet.getEdrIntune(opts))).toEqual(b);
    expect(await kept(privnet.getEdrFalcon(opts))).toEqual(c);
  });

  test("directory syncs of both vendors, and their logs", async () => {
    const d = (
      await ok("createVendorDIdp", {
        body: {
          service_account_key: Buffer.from("lk-sa-key").toString("base64"),
          customer_id: "C-LK",
          group_prefixes: ["eng-"],
        },
      })
    ).id as number;
    const e = (
      await ok("createVendorEIdp", {
        body: {
          client_secret: Buffer.from("lk-cs").toString("base64"),
          client_id: "client-e",
          tenant_id: "tenant-e",
          host: "api.vendor-e.example.com",
        },
      })
    ).id as number;
    await ok("syncVendorDIdp", { params: { id: d } });
    await ok("syncVendorDIdp", { params: { id: d } });

    const vd = await kept(privnet.getDirectorySyncVendorD({ id: d }, opts));
    expect(vd).toMatchObject({
      id: d,
      customerId: "C-LK",
      groupPrefixes: ["eng-"],
      syncInterval: 300,
      enabled: true,
    });
    expect((await kept(privnet.getDirectorySyncVendorDs(opts))).map((x) => x.id)).toEqual([d]);
    const ve = await kept(privnet.getDirectorySyncVendorE({ id: String(e) }, opts));
    expect(ve).toMatchObject({
      id: e,
      clientId: "client-e",
      tenantId: "tenant-e",
      host: "api.vendor-e.example.com",
    });
    expect((await kept(privnet.getDirectorySyncVendorEs(opts))).map((x) => x.id)).toEqual([e]);
    // The service's names of the same two collections.
    expect(await kept(privnet.getGoogleWorkspaceSync({ id: d }, opts))).toEqual(vd);
    expect(await kept(privnet.getGoogleWorkspaceSyncs(opts))).toEqual([vd]);
    expect(await kept(privnet.getAzureAdSync({ id: String(e) }, opts))).toEqual(ve);
    expect((await kept(privnet.getAzureAdSyncs(opts))).map((x) => x.id)).toEqual([e]);
    expect(await kept(privnet.getDirectorySyncLogs({ vendor: "azure-idp", id: e }, opts))).toEqual([]);

    const logs = await kept(privnet.getDirectorySyncLogs({ vendor: "vendor-d-idp", id: d }, opts));
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ level: "info", id: expect.any(Number), message: expect.any(String) });
    expect(await kept(privnet.getDirectorySyncLogs({ vendor: "vendor-e-idp", id: e }, opts))).toEqual([]);
    await expectLookupError(
      privnet.getDirectorySyncLogs({ vendor: "vendor-e-idp", id: d + e + 100 }, opts),
      "not-found",
      new RegExp(`^privnet: getDirectorySyncLogs: no vendor-e-idp directory sync with id "${d + e + 100}"`),
    );
  });

  test("getEventStreamingIntegration and getEventStreamingIntegrations: config keys kept, credentials masked", async () => {
    const id = (
      await ok("createEventStreaming", {
        body: { platform: "datadog", config: { api_key: "lk-dd-key", site: "datadoghq.eu" }, enabled: true },
      })
    ).id as number;
    const es = await kept(privnet.getEventStreamingIntegration({ id }, opts));
    expect(es).toMatchObject({ id, platform: "datadog", enabled: true });
    // `config` is data: its keys stay as the platform names them.
    expect(es.config.site).toBe("datadoghq.eu");
    expect(es.config.api_key).not.toBe("lk-dd-key");
    expect(es.accountId).toBeTruthy();
    expect((await kept(privnet.getEventStreamingIntegrations(opts))).map((x) => x.id)).toEqual([id]);
  });
});

describe("reverse proxies", () => {
  test("getReverseProxyService(s), getReverseProxyDomain(s), getProxyCluster(s), getProxyTokens: secrets answered empty", async () => {
    const token = await ok("createProxyToken", { body: { name: "lk-proxy" } });
    registerProxy(s.server.state, { token: token.plain_token, address: "lk.proxy.example.test" });
    const net = await ok("createNetwork", { body: { name: "lk-rp" } });
    const res = await ok("createNetworkResource", {
      params: { networkId: net.id },
      body: { name: "lk-rp-host", address: "10.9.0.1", enabled: true, groups: [] },
    });
    const svc = await ok("createReverseProxyService", {
      body: {
        name: "lk-svc",
        domain: "app.lk.proxy.example.test",
        enabled: true,
        targets: [{ target_id: res.id, target_type: "host", protocol: "http", port: 80, enabled: true }],
        auth: { password_auth: { enabled: true, password: "lk-proxy-password" } },
      },
    });
    const one = await kept(privnet.getReverseProxyService({ id: svc.id }, opts));
    expect(one).toMatchObject({
      id: svc.id,
      domain: "app.lk.proxy.example.test",
      proxyCluster: "lk.proxy.example.test",
      auth: { passwordAuth: { enabled: true, password: "" } },
      meta: { status: "active" },
    });
    expect(one.targets[0]).toMatchObject({ targetId: res.id, host: "10.9.0.1" });
    expect((await kept(privnet.getReverseProxyServices(opts))).map((x) => x.id)).toEqual([svc.id]);
    await expectLookupError(
      privnet.getReverseProxyService({ id: "nope" }, opts),
      "not-found",
      /no reverse-proxy service with id "nope"/,
    );

    const custom = await ok("createReverseProxyDomain", {
      body: { domain: "lk.example.com", target_cluster: "lk.proxy.example.test" },
    });
    expect(await kept(privnet.getReverseProxyDomain({ id: custom.id }, opts))).toMatchObject({
      domain: "lk.example.com",
      type: "custom",
      validated: false,
    });
    // A cluster's own domain has no id: it is found by name (letter case does not matter).
    expect(
      await kept(privnet.getReverseProxyDomain({ domain: "LK.proxy.example.test" }, opts)),
    ).toMatchObject({
      id: "",
      type: "free",
      validated: true,
    });
    await expectLookupError(
      privnet.getReverseProxyDomain({ id: "" }, opts),
      "invalid-arguments",
      /id: must not be empty/,
    );
    await expectLookupError(
      privnet.getReverseProxyDomain({ id: "nope" }, opts),
      "not-found",
      /no domain with id "nope"/,
    );
    expect((await kept(privnet.getReverseProxyDomains(opts))).map((d) => d.domain).sort()).toEqual([
      "lk.example.com",
      "lk.proxy.example.test",
    ]);

    expect(await kept(privnet.getProxyCluster("lk.proxy.example.test", opts))).toMatchObject({
      address: "lk.proxy.example.test",
      type: "account",
      online: true,
      connectedProxies: 1,
    });
    await expectLookupError(
      privnet.getProxyCluster("none.example.test", opts),
      "not-found",
      /no proxy cluster with address "none.example.test"/,
    );
    expect((await kept(privnet.getProxyClusters(opts))).map((c) => c.address)).toEqual([
      "lk.proxy.example.test",
    ]);
    const tokens = await kept(privnet.getProxyTokens(opts));
    expect(tokens.map((t) => t.name)).toEqual(["lk-proxy"]);
    expect(tokens[0]?.lastUsed).toBeDefined();
    expect(JSON.stringify(results)).not.toContain(token.plain_token);
    expect(JSON.stringify(results)).not.toContain("lk-proxy-password");
  });
});

describe("SCIM provisioning and notification channels", () => {
  test("getScimIntegration(s), getOktaScimIntegration(s), getScimIntegrationLogs: tokens masked", async () => {
    const made = await ok("createScimIntegration", {
      body: { prefix: "lk", provider: "jumpcloud", group_prefixes: ["eng-"] },
    });
    const okta = await ok("createOktaScimIntegration", { body: { connection_name: "lk-okta" } });
    const one = await kept(privnet.getScimIntegration({ id: made.id }, opts));
    expect(one).toMatchObject({ id: made.id, prefix: "lk", provider: "jumpcloud", groupPrefixes: ["eng-"] });
    expect(one.authToken).toMatch(/^pns_...\*+$/);
    expect(JSON.stringify(one)).not.toContain(made.auth_token);
    expect((await kept(privnet.getScimIntegrations(opts))).map((x) => x.id)).toEqual([made.id]);
    const o = await kept(privnet.getOktaScimIntegration({ id: String(okta.id) }, opts));
    expect(o).toMatchObject({ id: okta.id, enabled: true, userGroupPrefixes: [] });
    expect(JSON.stringify(o)).not.toContain(okta.auth_token);
    expect((await kept(privnet.getOktaScimIntegrations(opts))).map((x) => x.id)).toEqual([okta.id]);
    await ok("regenerateScimIntegrationToken", { params: { id: made.id } });
    const logs = await kept(privnet.getScimIntegrationLogs({ id: made.id }, opts));
    expect(logs.map((l) => l.level)).toEqual(["info", "info"]);
    expect(logs[1]?.message).toMatch(/token regenerated/);
    expect(await kept(privnet.getScimIntegrationLogs({ okta: true, id: okta.id }, opts))).toHaveLength(1);
    // An id of the other collection is not found there.
    await expectLookupError(
      privnet.getScimIntegrationLogs({ id: okta.id }, opts),
      "not-found",
      new RegExp(`^privnet: getScimIntegrationLogs: no SCIM integration with id "${okta.id}"`),
    );
    await expectLookupError(
      privnet.getOktaScimIntegration({ id: made.id }, opts),
      "not-found",
      new RegExp(`^privnet: getOktaScimIntegration: no Okta SCIM integration with id "${made.id}"`),
    );
  });

  test("getNotificationChannel(s), getNotificationEventTypes: header values masked", async () => {
    const made = await ok("createNotificationChannel", {
      body: {
        type: "webhook",
        target: { url: "https://hooks.example.com/lk", headers: { "X-Lk-Secret": "lk-hook-secret" } },
        event_types: ["peer.add"],
        enabled: true,
      },
    });
    const ch = await kept(privnet.getNotificationChannel({ id: made.id }, opts));
    expect(ch).toMatchObject({ id: made.id, type: "webhook", eventTypes: ["peer.add"], enabled: true });
    // Header names are data: kept as written; their values never come back.
    expect(ch.target?.headers).toEqual({ "X-Lk-Secret": "********" });
    expect((await kept(privnet.getNotificationChannels(opts))).map((x) => x.id)).toEqual([made.id]);
    const types = await kept(privnet.getNotificationEventTypes(opts));
    expect(types).toContainEqual({ code: "peer.add", description: expect.any(String) });
    expect(types.length).toBeGreaterThan(60);
    expect(JSON.stringify(results)).not.toContain("lk-hook-secret");
  });
});

describe("agent networks", () => {
  test("settings, the catalog, providers (no API key), policies, guardrails, budget rules", async () => {
    expect(await kept(privnet.getAgentNetworkSettings(opts))).toMatchObject({
      endpoint: "",
      dedicated: false,
    });
    await ok("createAgentNetworkSettings", { body: { endpoint: "agents.lookups.test" } });
    expect(await kept(privnet.getAgentNetworkSettings(opts))).toMatchObject({
      endpoint: "agents.lookups.test",
      dedicated: true,
      enableLogCollection: true,
    });
    const openai = await kept(privnet.getAgentNetworkCatalogProvider("openai_api", opts));
    expect(openai).toMatchObject({ defaultHost: "api.openai.com", authHeaderTemplate: "Bearer ${API_KEY}" });
    expect(openai.models.find((m) => m.id === "gpt-5.4")).toMatchObject({
      inputPer1k: 0.0025,
      outputPer1k: 0.015,
    });
    await expectLookupError(
      privnet.getAgentNetworkCatalogProvider("nope", opts),
      "not-found",
      /no catalog provider with id "nope"/,
    );
    expect((await kept(privnet.getAgentNetworkCatalogProviders(opts))).map((p) => p.id)).toContain("portkey");

    const provider = await ok("createAgentNetworkProvider", {
      body: {
        provider_id: "openai_api",
        name: "lk-openai",
        upstream_url: "https://api.openai.com",
        api_key: "sk-lookup-secret",
        enabled: true,
        extra_values: { "x-team": "platform" },
      },
    });
    const found = await kept(privnet.getAgentNetworkProvider({ id: provider.id }, opts));
    expect(found).toMatchObject({ name: "lk-openai", enabled: true, extraValues: { "x-team": "platform" } });
    expect(JSON.stringify(found)).not.toContain("sk-lookup-secret");
    expect((await kept(privnet.getAgentNetworkProviders(opts))).map((p) => p.id)).toEqual([provider.id]);
    await expectLookupError(
      privnet.getAgentNetworkProvider({ id: "nope" }, opts),
      "not-found",
      /no Agent Network provider with id "nope"/,
    );

    const guard = await ok("createAgentNetworkGuardrail", { body: { name: "lk-guard" } });
    expect(await kept(privnet.getAgentNetworkGuardrail({ id: guard.id }, opts))).toMatchObject({
      name: "lk-guard",
      checks: { modelAllowlist: { enabled: false, models: [] } },
    });
    expect((await kept(privnet.getAgentNetworkGuardrails(opts))).map((g) => g.id)).toEqual([guard.id]);
    const policy = await ok("createAgentNetworkPolicy", {
      body: {
        name: "lk-policy",
        source_groups: [fx.gAdmins.id],
        destination_provider_ids: [provider.id],
        guardrail_ids: [guard.id],
        limits: { token_limit: { enabled: true, group_cap: 0, user_cap: 1000, window_seconds: 3600 } },
      },
    });
    expect(await kept(privnet.getAgentNetworkPolicy({ id: policy.id }, opts))).toMatchObject({
      sourceGroups: [fx.gAdmins.id],
      limits: { tokenLimit: { userCap: 1000, windowSeconds: 3600 } },
    });
    expect((await kept(privnet.getAgentNetworkPolicies(opts))).map((p) => p.id)).toEqual([policy.id]);
    const rule = await ok("createAgentNetworkBudgetRule", { body: { name: "lk-budget" } });
    expect(await kept(privnet.getAgentNetworkBudgetRule({ id: rule.id }, opts))).toMatchObject({
      enabled: true,
      targetGroups: [],
    });
    expect((await kept(privnet.getAgentNetworkBudgetRules(opts))).map((r) => r.id)).toEqual([rule.id]);
  });

  test("consumption, usage, access logs and sessions of simulated requests", async () => {
    const provider = (await ok("listAgentNetworkProviders"))[0];
    const guardrails = (await ok("listAgentNetworkPolicies"))[0].guardrail_ids;
    const send = async (body: Record<string, unknown>, status = 200) => {
      const r = await s.raw("POST", "/sim/llm", {
        body: JSON.stringify({ provider: provider.id, model: "gpt-5.4", ...body }),
        headers: { "Content-Type": "application/json" },
      });
      expect(r.status).toBe(status);
      return r.body;
    };
    await send({ groups: [fx.gAdmins.id], input_tokens: 1000, output_tokens: 100, session_id: "lk-1" });
    await send({ groups: [fx.gAdmins.id], input_tokens: 2000, output_tokens: 200, session_id: "lk-1" });
    // No policy names db's groups: its request gets no answer from the gateway, and nothing is recorded.
    await send({ groups: [fx.gDb.id], input_tokens: 5, output_tokens: 5 }, 412);
    // The policy's guardrail allows only gpt-5.4 from now on: a request for another model is refused.
    const guardrail = await ok("getAgentNetworkGuardrail", { params: { guardrailId: guardrails[0] } });
    await ok("updateAgentNetworkGuardrail", {
      params: { guardrailId: guardrail.id },
      body: {
        name: guardrail.name,
        description: guardrail.description,
        checks: { ...guardrail.checks, model_allowlist: { enabled: true, models: ["gpt-5.4"] } },
      },
    });
    await send({ groups: [fx.gAdmins.id], model: "gpt-4o", input_tokens: 5, output_tokens: 5 });
    const counters = await kept(privnet.getAgentNetworkConsumption(opts));
    expect(counters).toEqual([
      expect.objectContaining({
        dimensionKind: "group",
        dimensionId: fx.gAdmins.id,
        tokensInput: 3000,
        tokensOutput: 300,
      }),
    ]);
    const usage = await kept(privnet.getAgentNetworkUsage({ granularity: "month" }, opts));
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ inputTokens: 3000, outputTokens: 300, totalTokens: 3300 });
    expect(usage[0]!.costUsd).toBeCloseTo(3 * 0.0025 + 0.3 * 0.015, 9);
    const denied = await kept(privnet.getAgentNetworkAccessLogs({ decision: "deny" }, opts));
    expect(denied.data.map((e) => e.denyReason)).toEqual(["llm_policy.model_blocked"]);
    const byGroup = await kept(
      privnet.getAgentNetworkAccessLogs(
        { groupIds: [fx.gAdmins.id], sortBy: "total_tokens", sortOrder: "asc" },
        opts,
      ),
    );
    expect(byGroup.data.map((e) => e.totalTokens)).toEqual([1100, 2200]);
    const sessions = await kept(privnet.getAgentNetworkAccessLogSessions({ sessionId: "lk-1" }, opts));
    expect(sessions).toMatchObject({ totalRecords: 1, data: [{ sessionId: "lk-1", requestCount: 2 }] });
  });
});

describe("ingress (cloud)", () => {
  test("getIngressPeer, getIngressPeers, getIngressPortAllocation, getIngressPortAllocations", async () => {
    const ingress = (
      await ok("createIngressPeer", { body: { peer_id: fx.ingressHost, enabled: true, fallback: true } })
    ).id;
    const alloc = (
      await ok("createPortAllocation", {
        params: { peerId: fx.web.id },
        body: { name: "lk-web", enabled: true, port_ranges: [{ start: 8080, end: 8081, protocol: "tcp" }] },
      })
    ).id;
    const ip = await kept(privnet.getIngressPeer({ id: ingress }, opts));
    expect(ip).toMatchObject({ id: ingress, peerId: fx.ingressHost, enabled: true, fallback: true });
    expect(ip.availablePorts).toEqual({ tcp: expect.any(Number), udp: expect.any(Number) });
    expect((await kept(privnet.getIngressPeers(opts))).map((x) => x.id)).toEqual([ingress]);

    const a = await kept(privnet.getIngressPortAllocation({ peerId: fx.web.id, id: alloc }, opts));
    expect(a).toMatchObject({ id: alloc, name: "lk-web", ingressPeerId: ingress });
    expect(a.portRangeMappings[0]).toMatchObject({
      translatedStart: 8080,
      translatedEnd: 8081,
      protocol: "tcp",
    });
    const named = await kept(privnet.getIngressPortAllocations({ peerId: fx.web.id, name: "lk-web" }, opts));
    expect(named.map((x) => x.id)).toEqual([alloc]);
    expect(await privnet.getIngressPortAllocations({ peerId: fx.web.id, name: "other" }, opts)).toEqual([]);
  });
});

describe("invites (embedded IdP)", () => {
  test("getInvites: pending invites without their link tokens", async () => {
    const created = await ok("createInvite", {
      body: { email: "lk-bob@example.com", name: "Bob", role: "user", auto_groups: [fx.gDb.id] },
    });
    const invites = await kept(privnet.getInvites(opts));
    const bob = invites.find((i) => i.id === created.id);
    expect(bob).toMatchObject({
      email: "lk-bob@example.com",
      name: "Bob",
      role: "user",
      autoGroups: [fx.gDb.id],
      expired: false,
    });
    expect(bob?.inviteToken).toBeUndefined();
    expect(JSON.stringify(invites)).not.toContain(created.invite_token);
  });
});

describe("event logs", () => {
  test("getAuditEvents", async () => {
    const events = await kept(privnet.getAuditEvents(opts));
    const add = events.find((e) => e.activityCode === "group.add" && e.targetId === fx.gDb.id);
    expect(add).toMatchObject({ initiatorId: fx.owner, meta: { name: "lk-db" } });
    expect(typeof add?.id).toBe("number");
  });

  test("getProxyLogs: the typed query becomes the API's query", async () => {
    feedProxyLogs(s.server.state, [
      {
        id: "lk-1",
        host: "app.example.com",
        path: "/a",
        status_code: 200,
        timestamp: "2026-01-01T00:00:00Z",
      },
      {
        id: "lk-2",
        host: "api.example.com",
        path: "/b",
        method: "POST",
        status_code: 500,
        timestamp: "2026-01-02T00:00:00Z",
      },
      {
        id: "lk-3",
        host: "app.example.com",
        path: "/c",
        status_code: 404,
        source_ip: "192.0.2.7",
        timestamp: "2026-01-03T00:00:00Z",
      },
    ]);
    const page = await kept(
      privnet.getProxyLogs(
        { host: "app.example.com", sortBy: "timestamp", sortOrder: "asc", page: 2, pageSize: 1 },
        opts,
      ),
    );
    expect(page).toMatchObject({ page: 2, pageSize: 1, totalRecords: 2, totalPages: 2 });
    expect(page.data.map((e) => [e.id, e.statusCode, e.sourceIp])).toEqual([["lk-3", 404, "192.0.2.7"]]);
    const failed = await kept(
      privnet.getProxyLogs(
        { status: "failed", startDate: "2026-01-02T00:00:00Z", endDate: "2026-01-02T23:59:59Z" },
        opts,
      ),
    );
    expect(failed.data.map((e) => e.id)).toEqual(["lk-2"]);
    const searched = await kept(privnet.getProxyLogs({ search: "/c" }, opts));
    expect(searched.data.map((e) => e.id)).toEqual(["lk-3"]);
    const all = await kept(privnet.getProxyLogs(undefined, opts));
    expect(all.totalRecords).toBe(3);
    expect(all.data[0]?.id).toBe("lk-3"); // default: newest first
  });

  test("getTrafficEvents: after the account enables traffic logs", async () => {
    const [account] = await ok<any[]>("listAccounts");
    await ok("updateAccount", {
      params: { accountId: account.id },
      body: {
        settings: {
          ...account.settings,
          extra: { ...account.settings.extra, network_traffic_logs_enabled: true },
        },
      },
    });
    feedTraffic(s.server.state, [
      {
        flow_id: "lk-f1",
        reporter_id: fx.web.id,
        source: { id: fx.web.id, type: "PEER" },
        destination: { id: fx.db.id, type: "PEER" },
        protocol: 6,
        events: [{ type: "TYPE_START", timestamp: "2026-01-01T00:00:00Z" }],
      },
      {
        flow_id: "lk-f2",
        reporter_id: fx.db.id,
        protocol: 17,
        events: [{ type: "TYPE_START", timestamp: "2026-01-05T00:00:00Z" }],
      },
    ]);
    const fromWeb = await kept(privnet.getTrafficEvents({ reporterId: fx.web.id }, opts));
    expect(fromWeb.totalRecords).toBe(1);
    const [flow] = fromWeb.data;
    expect(flow).toMatchObject({
      flowId: "lk-f1",
      reporterId: fx.web.id,
      protocol: 6,
      connectionType: "P2P",
    });
    expect(flow?.source).toMatchObject({
      id: fx.web.id,
      name: "lk-web",
      address: fx.web.ip,
      dnsLabel: "lk-web",
    });
    expect(flow?.source.geoLocation).toEqual({
      cityName: expect.any(String),
      countryCode: expect.any(String),
    });
    expect(flow?.events).toEqual([{ type: "TYPE_START", timestamp: "2026-01-01T00:00:00Z" }]);
    const udp = await kept(privnet.getTrafficEvents({ protocol: 17, pageSize: 10 }, opts));
    expect(udp.data.map((e) => e.flowId)).toEqual(["lk-f2"]);
    expect(udp.pageSize).toBe(10);
    expect((await kept(privnet.getTrafficEvents({}, opts))).totalRecords).toBe(2);
    expect((await privnet.getAccount(opts)).settings.extra.networkTrafficLogsEnabled).toBe(true);
  });
});

describe("arguments and errors", () => {
  test("invalid arguments fail before any request, naming the argument", async () => {
    await expectLookupError(
      privnet.getPeer({} as never, opts),
      "invalid-arguments",
      "privnet: getPeer: id: is required",
    );
    await expectLookupError(
      privnet.getProxyLogs({ pageSize: 500 }, opts),
      "invalid-arguments",
      "privnet: getProxyLogs: pageSize: must be between 1 and 100",
    );
    await expectLookupError(
      privnet.getProxyLogs({ startDate: "2026-02-01T00:00:00Z", endDate: "2026-01-01T00:00:00Z" }, opts),
      "invalid-arguments",
      "privnet: getProxyLogs: endDate: must not be before startDate",
    );
    await expectLookupError(
      privnet.getPeers({ nmae: "x" } as never, opts),
      "invalid-arguments",
      /^privnet: getPeers: .*unknown field\(s\): nmae/,
    );
    await expectLookupError(
      privnet.getSetupKey({ id: 1.5 }, opts),
      "invalid-arguments",
      "privnet: getSetupKey: id: must be a string or an integer",
    );
    await expectLookupError(
      privnet.getSetupKey({ id: "" }, opts),
      "invalid-arguments",
      "privnet: getSetupKey: id: must not be empty",
    );
  });

  test("ids in every form a server answers with: a string setup-key id is asked for, not refused", async () => {
    // Another server's setup-key ids are strings: the lookup sends them; this server has no such key.
    await expectLookupError(
      privnet.getSetupKey({ id: "d3k4f1b0c9a2" }, opts),
      "not-found",
      /^privnet: getSetupKey: no setup key with id "d3k4f1b0c9a2" \(GET \/api\/setup-keys\/d3k4f1b0c9a2 404/,
    );
    // And an integer where this server's ids are strings is sent as its text.
    await expectLookupError(
      privnet.getGroup({ id: 42 }, opts),
      "not-found",
      /^privnet: getGroup: no group with id "42" \(GET \/api\/groups\/42 404/,
    );
  });

  test("API errors pass through with the client's message", async () => {
    const err = await privnet
      .getGroups({ apiUrl: s.url, token: "not-a-valid-token" })
      .catch((e: unknown) => e);
    expect(isPrivnetApiError(err)).toBe(true);
    expect(isPrivnetLookupError(err)).toBe(false);
    expect((err as Error).message).toMatch(/^privnet: GET \/api\/groups 401: /);
    expect((err as Error).message).not.toContain("not-a-valid-token");
  });
});

describe("credentials", () => {
  const saved = { url: process.env.PRIVNET_API_URL, token: process.env.PRIVNET_TOKEN };
  let config: Record<string, string>;
  beforeEach(() => {
    config = pulumi.runtime.allConfig();
  });
  afterEach(() => {
    pulumi.runtime.setAllConfig(config);
    for (const [k, v] of [
      ["PRIVNET_API_URL", saved.url],
      ["PRIVNET_TOKEN", saved.token],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  test("stack config over the environment: a stray variable does not redirect a stack", async () => {
    pulumi.runtime.setConfig("privnet:apiUrl", s.url);
    pulumi.runtime.setConfig("privnet:token", s.token);
    process.env.PRIVNET_API_URL = "http://127.0.0.1:9";
    process.env.PRIVNET_TOKEN = "env-token-that-is-wrong";
    expect((await kept(privnet.getCurrentUser())).id).toBe(fx.owner);
  });

  test("the environment when stack config has nothing", async () => {
    pulumi.runtime.setAllConfig({});
    process.env.PRIVNET_API_URL = s.url;
    process.env.PRIVNET_TOKEN = s.token;
    expect((await kept(privnet.getCurrentUser())).id).toBe(fx.owner);
  });

  test("stack config, read in the program's process, when the environment is unset", async () => {
    delete process.env.PRIVNET_API_URL;
    delete process.env.PRIVNET_TOKEN;
    pulumi.runtime.setConfig("privnet:apiUrl", s.url);
    pulumi.runtime.setConfig("privnet:token", s.token);
    expect((await kept(privnet.getGroup({ name: "lk-db" }))).id).toBe(fx.gDb.id);
  });

  test("explicit options over the environment", async () => {
    process.env.PRIVNET_API_URL = "http://127.0.0.1:9";
    process.env.PRIVNET_TOKEN = "env-token-that-is-wrong";
    expect((await kept(privnet.getCurrentUser({ apiUrl: `${s.url}/`, token: s.token }))).id).toBe(fx.owner);
  });

  test("no token anywhere: says how to set one", async () => {
    delete process.env.PRIVNET_API_URL;
    delete process.env.PRIVNET_TOKEN;
    pulumi.runtime.setAllConfig({});
    await expect(privnet.getCurrentUser({ apiUrl: s.url })).rejects.toThrow(
      /no API token: set it with .*privnet:token/,
    );
  });
});

describe("every lookup", () => {
  test("is in LOOKUPS with a signature, and has a test in this file", () => {
    expect(LOOKUPS.length).toBeGreaterThanOrEqual(25);
    const source = fs.readFileSync(__filename, "utf8");
    const untested = LOOKUPS.filter((l) => !source.includes(`privnet.${l.name}(`)).map((l) => l.name);
    expect(untested).toEqual([]);
    for (const l of LOOKUPS) {
      expect(l.signature.startsWith(`${l.name}(`)).toBe(true);
      expect(typeof (privnet as Record<string, unknown>)[l.name]).toBe("function");
    }
    expect(LOOKUPS.find((l) => l.name === "getTrafficEvents")).toMatchObject({ cloudOnly: true });
    expect(LOOKUPS.find((l) => l.name === "getInvites")).toMatchObject({ embeddedIdpOnly: true });
  });

  test("no result contains the owner token, and no result key is snake_case (outside data maps)", () => {
    expect(results.length).toBeGreaterThan(LOOKUPS.length);
    const text = JSON.stringify(results);
    expect(text).not.toContain(s.token);
    const snake: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (v && typeof v === "object")
        for (const [k, x] of Object.entries(v)) {
          if (k.includes("_")) snake.push(`${path}.${k}`);
          // Maps whose keys are data, not field names.
          if (!["meta", "config", "metadata", "modules", "authorizedGroups", "headers"].includes(k))
            walk(x, `${path}.${k}`);
        }
    };
    walk(results, "results");
    expect(snake).toEqual([]);
  });
});
