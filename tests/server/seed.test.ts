/**
 * Seeding (server/seed.ts): an account read through one server's API, loaded into a new in-memory server with
 * ids kept, gives the same network map; the seed is refused on a database that holds an account, and for kinds
 * it cannot seed (named).
 */
import { listAccount, snapshotOf } from "../../access/snapshot";
import { PrivnetClient } from "../../client";
import { networkMaps } from "../../netmap";
import { createServer, startServer, validateSeed, type Seed } from "../../server";
import { buildAccessAccount } from "../support/access-account";
import { startTestServer, tempDir } from "../support/server";
import * as path from "node:path";

test("a seeded server holds the same account, ids kept: the same network map", async () => {
  const t = await startTestServer({ simulate: true });
  const acc = await buildAccessAccount(t.url, t.token);
  const listed = await listAccount({ client: acc.client, batchReads: false });
  const seed = validateSeed({
    version: 1,
    objects: Object.fromEntries([...listed].map(([k, l]) => [k, l.map((o) => ({ ...o }))])),
  });
  const twin = await startServer({ seed });
  const client = new PrivnetClient({ apiUrl: twin.url, token: twin.ownerToken as string, rateLimit: false });
  try {
    const now = Date.parse("2026-06-01T00:00:00Z");
    const again = await listAccount({ client, batchReads: false });
    expect(again.get("Policy")?.map((p) => p.id)).toEqual(listed.get("Policy")?.map((p) => p.id));
    expect(again.get("Peer")?.map((p) => p.id)).toEqual(listed.get("Peer")?.map((p) => p.id));
    expect(networkMaps(snapshotOf(again, now))).toEqual(networkMaps(snapshotOf(listed, now)));
    // The seeded objects are served like any other: a policy can be updated in place.
    const policy = listed.get("Policy")?.[0]?.object as { id: string; name: string };
    const got = await client.call<{ name: string }>("getPolicy", { params: { policyId: policy.id } });
    expect(got.name).toBe(policy.name);
  } finally {
    await client.close();
    await twin.close();
    await acc.client.close();
    await t.close();
  }
});

test("bad seeds are refused, naming what is wrong", () => {
  expect(() => validateSeed({ objects: {} })).toThrow('expected {"version": 1');
  expect(() => validateSeed({ version: 1, objects: { SetupKey: [] } })).toThrow(
    'kind "SetupKey" cannot be seeded',
  );
  expect(() => validateSeed({ version: 1, objects: { Group: [{ object: {} }] } })).toThrow(
    "objects.Group[0] needs an id and an object",
  );
});

test("a seed is refused on a database that already holds an account", () => {
  const db = path.join(tempDir(), "x.db");
  const first = createServer({ db });
  first.state.store.close();
  const seed: Seed = { version: 1, objects: {} };
  expect(() => createServer({ db, seed })).toThrow("loads only into a new database");
});

test("reverse-proxy services and custom domains are seeded as answered; the twin serves them on shared clusters", async () => {
  const t = await startTestServer({ simulate: true, proxyClusters: ["edge.example.test"] });
  const client = new PrivnetClient({ apiUrl: t.url, token: t.token, rateLimit: false });
  const g = await client.call<{ id: string }>("createGroup", { body: { name: "readers" } });
  const net = await client.call<{ id: string }>("createNetwork", { body: { name: "dc" } });
  const res = await client.call<{ id: string }>("createNetworkResource", {
    params: { networkId: net.id },
    body: { name: "db", address: "10.0.0.5", enabled: true, groups: [] },
  });
  const dom = await client.call<{ id: string }>("createReverseProxyDomain", {
    body: { domain: "apps.example.com", target_cluster: "edge.example.test" },
  });
  const svc = await client.call<Record<string, unknown>>("createReverseProxyService", {
    body: {
      name: "wiki",
      domain: "wiki.apps.example.com",
      enabled: true,
      private: true,
      access_groups: [g.id],
      targets: [{ target_id: res.id, target_type: "host", protocol: "http", port: 80, enabled: true }],
      auth: { header_auths: [{ enabled: true, header: "X-Key", value: "seed-secret-4f" }] },
    },
  });
  const listed = await listAccount({ client, batchReads: false });
  // As privnet-access diff reads them: the custom domains (a cluster's own domain is no object of the account).
  const domains = (await client.call<Record<string, unknown>[]>("listReverseProxyDomains"))
    .filter((d) => d.type === "custom")
    .map((d) => ({
      id: String(d.id),
      object: d,
      parents: {},
    }));
  const seed = validateSeed({
    version: 1,
    objects: {
      ...Object.fromEntries([...listed].map(([k, l]) => [k, l.map((o) => ({ ...o }))])),
      ReverseProxyDomain: domains,
    },
  });
  const twin = await startServer({ seed, proxyClusters: ["edge.example.test"] });
  const tc = new PrivnetClient({ apiUrl: twin.url, token: twin.ownerToken as string, rateLimit: false });
  try {
    const got = await tc.call<Record<string, unknown>>("getReverseProxyService", {
      params: { serviceId: String(svc.id) },
    });
    const { meta: _m1, ...a } = got;
    const { meta: _m2, ...b } = svc;
    expect(a).toEqual(b);
    expect((await tc.call<{ id: string }[]>("listReverseProxyDomains")).map((d) => d.id)).toContain(dom.id);
    // The seed held no secret: nothing of the header value reached the twin.
    expect(JSON.stringify(twin.state.store.get("proxy_service", String(svc.id)))).not.toContain(
      "seed-secret-4f",
    );
    const now = Date.parse("2026-06-01T00:00:00Z");
    const again = await listAccount({ client: tc, batchReads: false });
    expect(snapshotOf(again, now).proxy_services).toEqual(snapshotOf(listed, now).proxy_services);
  } finally {
    await tc.close();
    await twin.close();
    await client.close();
    await t.close();
  }
});
