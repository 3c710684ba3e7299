/**
 * Adoption: `adoptId` brings an object made outside Pulumi under management. Create reads it (404 is a clear
 * error) and updates it to match the inputs, keeping its id; the next diff is clean.
 */
import { providerFor, configureAll } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await configureAll(s);
});
afterAll(() => s?.close());

test("a group created through the API is adopted, changed to match, and then clean", async () => {
  const existing = (await s.call("createGroup", { body: { name: "made-by-hand" } })).body;
  const p = providerFor("Group");
  const inputs = { name: "managed-now", adoptId: existing.id };
  const created = await p.create(inputs);
  expect(created.id).toBe(existing.id);
  const after = (await s.call("getGroup", { params: { groupId: existing.id } })).body;
  expect(after.name).toBe("managed-now");
  expect((await s.call("listGroups", { query: { name: "managed-now" } })).body).toHaveLength(1);
  expect((await p.diff(created.id, created.outs, inputs)).changes).toBe(false);
});

test("a child object (network resource) is adopted under its network", async () => {
  const net = (await s.call("createNetwork", { body: { name: "n" } })).body;
  const g = (await s.call("createGroup", { body: { name: "dbs" } })).body;
  const res = (
    await s.call("createNetworkResource", {
      params: { networkId: net.id },
      body: { name: "db", address: "10.0.0.5", enabled: true, groups: [g.id] },
    })
  ).body;
  const p = providerFor("NetworkResource");
  const inputs = {
    networkId: net.id,
    name: "db",
    address: "10.0.0.6",
    enabled: true,
    groups: [g.id],
    adoptId: res.id,
  };
  const created = await p.create(inputs);
  expect(created.id).toBe(res.id);
  expect(created.outs.address).toBe("10.0.0.6");
  expect((await p.diff(created.id, created.outs, inputs)).changes).toBe(false);
});

test("adopting an id that does not exist fails clearly and creates nothing", async () => {
  const before = (await s.call("listGroups")).body.length;
  await expect(providerFor("Group").create({ name: "x", adoptId: "nosuchgroup" })).rejects.toThrow(
    /cannot adopt Group nosuchgroup: it does not exist/,
  );
  expect((await s.call("listGroups")).body.length).toBe(before);
});
