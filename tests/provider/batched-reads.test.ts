/**
 * Batched reads (provider/read-batch.ts) against a local server that records every request: reads of one kind
 * share one list request; a list never decides that an object is gone (a miss is read by id, and only that GET's
 * 404 is gone); a write in the process drops the lists; `batchReads: false` reads by id.
 *
 * The cache is per process, so every test loads the providers afresh (jest.isolateModulesAsync): a new cache, a
 * new client, as in a new provider process.
 */
import type { PrivnetProvider } from "../../provider/lifecycle";
import type { Props } from "../../provider/spec";
import type { RequestLogEntry } from "../../server/context";
import { freshProviders as loadProviders } from "../support/fresh-providers";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
const log: RequestLogEntry[] = [];

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, onRequest: (e) => log.push(e) });
});
afterAll(() => s?.close());

/** The providers of a new provider process, for the test server (plus stack `config`). */
const freshProviders = (config: Record<string, string | boolean> = {}) => loadProviders(s, config);

/** The requests served while `fn` runs, as `METHOD route status` lines. */
async function requestsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const mark = log.length;
  await fn();
  return log.slice(mark).map((e) => `${e.method} ${e.route} ${e.status}`);
}

let n = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

async function api<T = any>(
  operationId: string,
  args: { params?: Record<string, string>; body?: unknown } = {},
) {
  const r = await s.call<T>(operationId, args);
  if (r.status !== 200) throw new Error(`${operationId}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function makeGroups(count: number): Promise<{ id: string; name: string }[]> {
  const out = [];
  for (let i = 0; i < count; i++)
    out.push(await api<{ id: string; name: string }>("createGroup", { body: { name: unique("g") } }));
  return out;
}

const readAll = (p: PrivnetProvider, objects: { id: string; props: Props }[]) =>
  Promise.all(objects.map((o) => p.read(o.id, o.props)));

describe("reads of one kind share one list request", () => {
  test("concurrent reads of 20 groups: one list, and the same results as 20 GETs (batching off)", async () => {
    const groups = await makeGroups(20);
    const objects = groups.map((g) => ({ id: g.id, props: { name: g.name } }));

    const batched = await freshProviders();
    let viaList: Awaited<ReturnType<PrivnetProvider["read"]>>[] = [];
    expect(
      await requestsDuring(async () => (viaList = await readAll(batched.provider("Group"), objects))),
    ).toEqual(["GET /api/groups 200"]);

    const off = await freshProviders({ "privnet:batchReads": "false" });
    let viaGet: typeof viaList = [];
    const perId = await requestsDuring(async () => (viaGet = await readAll(off.provider("Group"), objects)));
    expect(perId).toEqual(Array(20).fill("GET /api/groups/{groupId} 200"));
    expect(viaList).toEqual(viaGet);
    expect(viaList.map((r) => r.id)).toEqual(groups.map((g) => g.id));
    expect(viaList.map((r) => r.props?.name)).toEqual(groups.map((g) => g.name));
  });

  test("PRIVNET_BATCH_READS=0 reads by id where the config does not say", async () => {
    const groups = await makeGroups(3);
    process.env.PRIVNET_BATCH_READS = "0";
    try {
      const fresh = await freshProviders({});
      const seen = await requestsDuring(() =>
        readAll(
          fresh.provider("Group"),
          groups.map((g) => ({ id: g.id, props: { name: g.name } })),
        ),
      );
      expect(seen).toEqual(Array(3).fill("GET /api/groups/{groupId} 200"));
    } finally {
      delete process.env.PRIVNET_BATCH_READS;
    }
  });

  test("a provider's argument batchReads: false (a boolean, as the host hands it over) wins over the environment", async () => {
    const groups = await makeGroups(3);
    process.env.PRIVNET_BATCH_READS = "1";
    try {
      const fresh = await freshProviders({ "privnet:batchReads": false });
      const seen = await requestsDuring(() =>
        readAll(
          fresh.provider("Group"),
          groups.map((g) => ({ id: g.id, props: { name: g.name } })),
        ),
      );
      expect(seen).toEqual(Array(3).fill("GET /api/groups/{groupId} 200"));
    } finally {
      delete process.env.PRIVNET_BATCH_READS;
    }
  });

  test("nested kinds: one list per parent (records per zone, resources per network)", async () => {
    const [g] = await makeGroups(1);
    const zones = [];
    for (let i = 0; i < 2; i++) {
      const domain = `${unique("z")}.example`;
      zones.push(
        await api("createDnsZone", {
          body: { name: "z", domain, enable_search_domain: false, distribution_groups: [g!.id] },
        }),
      );
    }
    const records: { id: string; props: Props }[] = [];
    for (const z of zones) {
      for (let i = 0; i < 3; i++) {
        const body = { name: `h${i}.${z.domain}`, type: "A", content: `10.0.0.${i + 1}`, ttl: 300 };
        const r = await api("createDnsRecord", { params: { zoneId: z.id }, body });
        records.push({
          id: r.id,
          props: { zoneId: z.id, name: body.name, type: "A", content: body.content, ttl: 300 },
        });
      }
    }
    const net = await api("createNetwork", { body: { name: unique("net") } });
    const resources: { id: string; props: Props }[] = [];
    for (let i = 0; i < 3; i++) {
      const body = { name: unique("res"), address: `10.1.0.${i + 1}`, enabled: true, groups: [g!.id] };
      const r = await api("createNetworkResource", { params: { networkId: net.id }, body });
      resources.push({ id: r.id, props: { networkId: net.id, ...body } });
    }
    const fresh = await freshProviders();
    let read: Awaited<ReturnType<PrivnetProvider["read"]>>[] = [];
    const seen = await requestsDuring(async () => {
      const [a, b] = await Promise.all([
        readAll(fresh.provider("DnsRecord"), records),
        readAll(fresh.provider("NetworkResource"), resources),
      ]);
      read = [...a, ...b];
    });
    expect(seen.sort()).toEqual([
      "GET /api/dns/zones/{zoneId}/records 200",
      "GET /api/dns/zones/{zoneId}/records 200",
      "GET /api/networks/{networkId}/resources 200",
    ]);
    expect(read.map((r) => r.id)).toEqual([...records, ...resources].map((o) => o.id));
    expect(read.map((r) => r.props?.content ?? r.props?.address)).toEqual([
      ...records.map((o) => o.props.content),
      ...resources.map((o) => o.props.address),
    ]);
  });

  test("users (no GET of one user): one list; a user the list lacks is looked for in a new list", async () => {
    const users: { id: string; name: string }[] = [];
    for (let i = 0; i < 5; i++)
      users.push(
        await api("createUser", {
          body: { name: unique("svc"), role: "user", auto_groups: [], is_service_user: true },
        }),
      );
    const fresh = await freshProviders();
    const User = fresh.provider("User");
    const props = (u: { name: string }) => ({ name: u.name, role: "user", isServiceUser: true });
    let read: Awaited<ReturnType<PrivnetProvider["read"]>>[] = [];
    expect(
      await requestsDuring(
        async () =>
          (read = await readAll(
            User,
            users.map((u) => ({ id: u.id, props: props(u) })),
          )),
      ),
    ).toEqual(["GET /api/users 200"]);
    expect(read.map((r) => r.props?.name)).toEqual(users.map((u) => u.name));
    // Made after the list: a new list finds it. Deleted: gone only after a new list does not have it either.
    const late = await api("createUser", {
      body: { name: unique("svc"), role: "user", auto_groups: [], is_service_user: true },
    });
    expect(
      await requestsDuring(async () => expect((await User.read(late.id, props(late))).id).toBe(late.id)),
    ).toEqual(["GET /api/users 200"]);
  });
});

describe("a list never decides that an object is gone", () => {
  test("an object the cached list lacks is read by id, and found", async () => {
    const [g1] = await makeGroups(1);
    const fresh = await freshProviders();
    const Group = fresh.provider("Group");
    await Group.read(g1!.id, { name: g1!.name });
    const [late] = await makeGroups(1); // made after the list was fetched
    let found: Awaited<ReturnType<PrivnetProvider["read"]>> = {};
    expect(
      await requestsDuring(async () => (found = await Group.read(late!.id, { name: late!.name }))),
    ).toEqual(["GET /api/groups/{groupId} 200"]);
    expect(found.id).toBe(late!.id);
    expect(found.props?.name).toBe(late!.name);
  });

  test("a miss whose GET answers 404 is gone", async () => {
    const [g, doomed] = await makeGroups(2);
    await api("deleteGroup", { params: { groupId: doomed!.id } });
    const fresh = await freshProviders();
    const Group = fresh.provider("Group");
    let results: Awaited<ReturnType<PrivnetProvider["read"]>>[] = [];
    const seen = await requestsDuring(
      async () =>
        (results = await readAll(Group, [
          { id: g!.id, props: { name: g!.name } },
          { id: doomed!.id, props: { name: doomed!.name } },
        ])),
    );
    expect(seen).toEqual(["GET /api/groups 200", "GET /api/groups/{groupId} 404"]);
    expect(results[0]!.id).toBe(g!.id);
    expect(results[1]).toEqual({});
  });

  test("a list that fails serves nothing: its reads GET (records of a zone deleted meanwhile)", async () => {
    const [g] = await makeGroups(1);
    const domain = `${unique("z")}.example`;
    const z = await api("createDnsZone", {
      body: { name: "z", domain, enable_search_domain: false, distribution_groups: [g!.id] },
    });
    const body = { name: `db.${domain}`, type: "A", content: "10.0.0.5", ttl: 300 };
    const r = await api("createDnsRecord", { params: { zoneId: z.id }, body });
    await api("deleteDnsZone", { params: { zoneId: z.id } });
    const fresh = await freshProviders();
    let gone: Awaited<ReturnType<PrivnetProvider["read"]>> = { id: "x" };
    expect(
      await requestsDuring(
        async () => (gone = await fresh.provider("DnsRecord").read(r.id, { zoneId: z.id, ...body })),
      ),
    ).toEqual([
      "GET /api/dns/zones/{zoneId}/records 404",
      "GET /api/dns/zones/{zoneId}/records/{recordId} 404",
    ]);
    expect(gone).toEqual({});
  });
});

describe("freshness", () => {
  test("a cached list answers each object once: reading it again fetches a new list", async () => {
    const [g] = await makeGroups(1);
    const fresh = await freshProviders();
    const Group = fresh.provider("Group");
    await Group.read(g!.id, { name: g!.name });
    const renamed = unique("renamed");
    await api("updateGroup", { params: { groupId: g!.id }, body: { name: renamed } });
    let again: Awaited<ReturnType<PrivnetProvider["read"]>> = {};
    expect(await requestsDuring(async () => (again = await Group.read(g!.id, { name: g!.name })))).toEqual([
      "GET /api/groups 200",
    ]);
    expect(again.props?.name).toBe(renamed);
  });

  test("a list older than LIST_TTL_MS answers nothing more: a new list is fetched", async () => {
    const [g1, g2] = await makeGroups(2);
    const fresh = await freshProviders();
    const Group = fresh.provider("Group");
    await Group.read(g1!.id, { name: g1!.name });
    const renamed = unique("renamed");
    await api("updateGroup", { params: { groupId: g2!.id }, body: { name: renamed } });
    // Only the clock moves (timers stay real: the client and the server need them).
    jest.useFakeTimers({
      doNotFake: [
        "nextTick",
        "setImmediate",
        "setTimeout",
        "setInterval",
        "clearTimeout",
        "clearInterval",
        "queueMicrotask",
        "hrtime",
        "performance",
      ],
    });
    jest.setSystemTime(Date.now() + fresh.readBatch.LIST_TTL_MS + 1);
    try {
      let r2: Awaited<ReturnType<PrivnetProvider["read"]>> = {};
      expect(await requestsDuring(async () => (r2 = await Group.read(g2!.id, { name: g2!.name })))).toEqual([
        "GET /api/groups 200",
      ]);
      expect(r2.props?.name).toBe(renamed);
    } finally {
      jest.useRealTimers();
    }
  });

  test("a write in this process (of any kind) drops the lists: later reads go by id and see it", async () => {
    const [g1, g2, g3] = await makeGroups(3);
    const fresh = await freshProviders();
    const Group = fresh.provider("Group");
    // The list now cached holds g2 and g3 as they were.
    await Group.read(g1!.id, { name: g1!.name });
    expect(fresh.readBatch.hasWritten()).toBe(false);

    // An update of g2 through the provider.
    const renamed = unique("renamed");
    await Group.update(g2!.id, { name: g2!.name }, { name: renamed });
    // A write of another kind that changes g3: a network resource joins it.
    const net = await api("createNetwork", { body: { name: unique("net") } });
    const created = await fresh.provider("NetworkResource").create({
      networkId: net.id,
      name: unique("res"),
      address: "10.2.0.1",
      enabled: true,
      groups: [g3!.id],
    });
    expect(fresh.readBatch.hasWritten()).toBe(true);

    let r2: Awaited<ReturnType<PrivnetProvider["read"]>> = {};
    let r3: Awaited<ReturnType<PrivnetProvider["read"]>> = {};
    const seen = await requestsDuring(async () => {
      [r2, r3] = await Promise.all([
        Group.read(g2!.id, { name: renamed }),
        Group.read(g3!.id, { name: g3!.name }),
      ]);
    });
    expect(seen).toEqual(Array(2).fill("GET /api/groups/{groupId} 200"));
    expect(r2.props?.name).toBe(renamed);
    expect(r3.props?.resources).toEqual([{ id: created.id, type: "host" }]);
  });

  test("a list in flight when a write starts serves none of its reads: they GET", async () => {
    const [g1, g2] = await makeGroups(2);
    const fresh = await freshProviders();
    const Group = fresh.provider("Group");
    let read: Awaited<ReturnType<PrivnetProvider["read"]>> = {};
    const seen = await requestsDuring(async () => {
      const reading = Group.read(g1!.id, { name: g1!.name });
      // With both member lists given, the update is one PUT, sent before the list's answer is back.
      const renamed = { name: unique("renamed"), peers: [], resources: [] };
      const writing = Group.update(g2!.id, { name: g2!.name }, renamed);
      [read] = await Promise.all([reading, writing]);
    });
    expect(seen.sort()).toEqual([
      "GET /api/groups 200",
      "GET /api/groups/{groupId} 200",
      "PUT /api/groups/{groupId} 200",
    ]);
    expect(read.id).toBe(g1!.id);
  });
});

describe("which kinds share a list", () => {
  test("kinds whose list answers their GET's schema; singletons, Peer and kinds with their own read do not", async () => {
    const fresh = await freshProviders();
    const { listOperationOf } = fresh.readBatch;
    const { PROVIDERS } = await import("../../provider/registry");
    const table = Object.fromEntries(PROVIDERS.map((p) => [p.spec.name, listOperationOf(p.spec) ?? null]));
    expect(table).toEqual({
      Group: "listGroups",
      Policy: "listPolicies",
      PostureCheck: "listPostureChecks",
      Route: "listRoutes",
      Network: "listNetworks",
      NetworkResource: "listNetworkResources",
      NetworkRouter: "listNetworkRouters",
      NameserverGroup: "listNameserverGroups",
      DnsSettings: null, // singleton
      DnsZone: "listDnsZones",
      DnsRecord: "listDnsRecords",
      SetupKey: "listSetupKeys",
      User: null, // no GET: its own read shares listUsers
      PersonalAccessToken: "listTokens",
      UserInvite: null, // no GET: its own read shares listInvites
      Peer: null, // the list answers more than the GET
      IdentityProvider: "listIdentityProviders",
      AccountSettings: null, // singleton
      EdrVendorA: null,
      EdrVendorB: null,
      EdrVendorC: null,
      DirectorySyncVendorD: "listGoogleWorkspaceSyncs", // GoogleWorkspaceSync's earlier name
      DirectorySyncVendorE: "listAzureAdSyncs", // AzureAdSync's earlier name
      EventStreamingIntegration: "listEventStreamings",
      ScimIntegration: "listScimIntegrations",
      OktaScimIntegration: "listOktaScimIntegrations",
      NotificationChannel: "listNotificationChannels",
      IngressPeer: "listIngressPeers",
      IngressPortAllocation: "listPortAllocations",
      ReverseProxyService: "listReverseProxyServices",
      ReverseProxyDomain: null, // no GET: its own read shares listReverseProxyDomains
      ProxyToken: null, // no GET: its own read shares listProxyTokens
      EdrSentinelOne: null,
      EdrIntune: null,
      EdrFalcon: null,
      EdrHuntress: null,
      EdrFleetDm: null,
      GoogleWorkspaceSync: "listGoogleWorkspaceSyncs",
      AzureAdSync: "listAzureAdSyncs",
      PeerEdrBypass: null, // no GET, no id: its own read finds the peer in listPeerEdrBypasses
      MspTenant: null, // no GET: its own read shares listMspTenants
      AgentNetworkSettings: null,
      AgentNetworkProvider: "listAgentNetworkProviders",
      AgentNetworkGuardrail: "listAgentNetworkGuardrails",
      AgentNetworkPolicy: "listAgentNetworkPolicies",
      AgentNetworkBudgetRule: "listAgentNetworkBudgetRules",
    });
  });

  test("the setting: true or false, config first, then the environment; anything else is refused", async () => {
    const { readBatching } = (await freshProviders()).readBatch;
    expect(readBatching(() => undefined, {})).toBe(true);
    expect(readBatching(() => "false", {})).toBe(false);
    expect(readBatching(() => false as unknown as string, {})).toBe(false);
    expect(readBatching(() => "true", { PRIVNET_BATCH_READS: "0" })).toBe(true);
    expect(readBatching(() => "false", { PRIVNET_BATCH_READS: "1" })).toBe(false);
    expect(readBatching(() => undefined, { PRIVNET_BATCH_READS: "0" })).toBe(false);
    expect(readBatching(() => "", { PRIVNET_BATCH_READS: "false" })).toBe(false);
    expect(() => readBatching(() => "sometimes", {})).toThrow(/privnet:batchReads must be true or false/);
    expect(() => readBatching(() => undefined, { PRIVNET_BATCH_READS: "x" })).toThrow(/PRIVNET_BATCH_READS/);
  });
});
