/**
 * privnet-import reads through the provider's readers, so what the provider learnt about other servers' answers
 * holds for the importer too. Through the quirks proxy (tests/support/quirks-proxy.ts: empty lists as `null`,
 * the plain DNS-settings object instead of `{items}`, string setup-key ids, normal forms), the account of the
 * importer's tests reads as it reads from the server directly: the same objects of every kind, the DNS settings
 * with their members, and a plan that adopts every object cleanly.
 */
import { DnsSettingsSchema } from "../../api/dns-settings";
import { PrivnetClient } from "../../client";
import type { Found } from "../../importer/kinds";
import { buildPlan, type Snapshot } from "../../importer/plan";
import { readAccount, Reader } from "../../importer/read";
import { tolerate } from "../../model/mapping";
import { PROVIDERS } from "../../provider/registry";
import { buildImportAccount, type ImportAccount } from "../support/import-account";
import { startQuirksProxy, type QuirksProxy } from "../support/quirks-proxy";
import { startTestServer, type TestServer } from "../support/server";

jest.setTimeout(60_000);

const KINDS = PROVIDERS.map((p) => p.spec.name);

let s: TestServer;
let proxy: QuirksProxy;
let direct: PrivnetClient;
let quirky: PrivnetClient;
let account: ImportAccount;

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  direct = new PrivnetClient({ apiUrl: s.url, token: s.token, rateLimit: false });
  account = await buildImportAccount(s.url, direct);
  proxy = await startQuirksProxy(s.url);
  quirky = new PrivnetClient({ apiUrl: proxy.url, token: s.token, rateLimit: false });
});
afterAll(async () => {
  await quirky?.close();
  await direct?.close();
  await proxy?.close();
  await s?.close();
});

async function read(client: PrivnetClient, url: string): Promise<Snapshot> {
  return readAccount(new Reader(client, url), KINDS, () => undefined);
}

/** Ids per kind, sorted. */
function ids(snapshot: Snapshot): Record<string, string[]> {
  return Object.fromEntries([...snapshot.objects].map(([k, list]) => [k, list.map((f) => f.id).sort()]));
}

const one = (snapshot: Snapshot, kind: string): Found => {
  const list = snapshot.objects.get(kind) ?? [];
  expect(list).toHaveLength(1);
  return list[0] as Found;
};

test("every kind reads the same through the proxy as directly: the same objects, ids as text", async () => {
  const plain = await read(direct, s.url);
  const proxied = await read(quirky, proxy.url);
  expect(proxied.unavailable).toEqual(new Map());
  expect(plain.unavailable).toEqual(new Map());
  expect([...proxied.objects.keys()].sort()).toEqual([...KINDS].sort());
  expect(ids(proxied)).toEqual(ids(plain));
  // The kinds the account was built with, by the ids the API gave them.
  for (const [kind, made] of Object.entries(account.ids))
    for (const id of made) expect([kind, ids(proxied)[kind]]).toEqual([kind, expect.arrayContaining([id])]);
  // Labels name related objects (a record by its zone's domain, a router by its network's name) either way.
  const labels = (snap: Snapshot, kind: string) => (snap.objects.get(kind) ?? []).map((f) => f.label).sort();
  expect(labels(proxied, "DnsRecord")).toEqual(["apex A record", "db A record"]);
  expect(labels(proxied, "NetworkRouter")).toEqual(["office router"]);
  expect(labels(proxied, "IngressPeer")).toEqual(["gw-2 ingress"]);
});

test("the plain DNS-settings object imports as the settings, not as an envelope", async () => {
  const raw = await quirky.call("getDnsSettings");
  expect(raw).not.toHaveProperty("items"); // the proxy answers the plain object
  const settings = one(await read(quirky, proxy.url), "DnsSettings");
  expect(settings.id).toBe("dns-settings");
  expect(settings.object).toEqual(tolerate(raw, DnsSettingsSchema));
  expect(settings.object.disabled_management_groups).toEqual([account.groups["2024 interns"]]);
});

test("null lists read as empty ones: a user without tokens, a group without members", async () => {
  const alice = (await direct.call<{ id: string; email: string }[]>("listUsers")).find(
    (u) => u.email === "alice@example.com",
  );
  // The proxy's answer for alice's tokens (none) is null, not [].
  expect(await quirky.call("listTokens", { params: { userId: String(alice?.id) } })).toBeNull();
  const proxied = await read(quirky, proxy.url);
  const tokens = proxied.objects.get("PersonalAccessToken") ?? [];
  expect(tokens.map((t) => t.parents.userId)).not.toContain(alice?.id);
  expect(tokens).toHaveLength((await read(direct, s.url)).objects.get("PersonalAccessToken")?.length ?? -1);
});

test("the plan from the proxied read adopts every object without a change on the next preview", async () => {
  const proxied = await read(quirky, proxy.url);
  const plan = buildPlan(proxied, { kinds: KINDS, peers: true });
  // The proxy drops a policy's second rule's sources on read (as one server stores it): only that may differ.
  expect(plan.warnings.filter((w) => !w.startsWith('Policy "ops ssh"'))).toEqual([]);
  const written = Object.fromEntries(plan.summary.map((k) => [k.kind, k.written]));
  expect(written.DnsSettings).toBe(1);
  expect(written.SetupKey).toBe(2);
  expect(written.AccountSettings).toBe(1);
});
