/**
 * The integrations' earlier names: EdrVendorA, EdrVendorB, EdrVendorC, DirectorySyncVendorD and
 * DirectorySyncVendorE are deprecated kinds of the same objects as EdrSentinelOne, EdrIntune, EdrFalcon,
 * GoogleWorkspaceSync and AzureAdSync. An object made under the old name is the new kind's with no change at all
 * (through the provider entry too, which the dynamic providers' resources name by `__kind`), and both names work
 * against the service's paths. And the MSP tenant's lifecycle where the API has no delete.
 */
import provider = require("../../provider/entry");
import type { Props } from "../../provider/spec";
import { formerNamesOf } from "../../provider/registry";
import { addPeer } from "../support/fixtures";
import { configureAll, fixtures, localTarget, providerFor } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  await configureAll(s);
  await provider.configure({
    config: new Map([
      ["privnet:apiUrl", s.url],
      ["privnet:token", s.token],
    ]),
  } as never);
});
afterAll(() => s?.close());

const RENAMED = [
  ["EdrVendorA", "EdrSentinelOne"],
  ["EdrVendorB", "EdrIntune"],
  ["EdrVendorC", "EdrFalcon"],
  ["DirectorySyncVendorD", "GoogleWorkspaceSync"],
  ["DirectorySyncVendorE", "AzureAdSync"],
] as const;

test("each new kind names its earlier name, and only that one", () => {
  for (const [old, kind] of RENAMED) {
    expect(formerNamesOf(providerFor(kind).spec)).toEqual([old]);
    expect(providerFor(old).spec.deprecatedBy).toBe(kind);
  }
});

describe.each(RENAMED)("%s -> %s", (old, kind) => {
  test("an object made under the old name is the new kind's: no change, no replacement, the same object", async () => {
    const f = await (await fixtures(localTarget(s)))[old]!();
    const before = providerFor(old);
    const after = providerFor(kind);
    const created = await before.create(f.create);
    // The program now names the new kind with the same inputs.
    const d = await after.compare(created.id, created.outs, f.create);
    expect({ changed: d.changed, replaces: d.replaces }).toEqual({ changed: [], replaces: [] });
    // Through the entry, as the dynamic-provider host calls it: the old outputs name the old kind, the new
    // inputs the new one.
    const olds = { ...created.outs, __kind: old };
    const news = { ...f.create, __kind: kind };
    expect(await provider.diff(created.id, olds, news)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const readOld = await before.read(created.id, created.outs);
    const readNew = await after.read(created.id, created.outs);
    expect(readNew.props).toEqual(readOld.props);
    await after.delete(created.id, readNew.props as Props);
    expect((await before.read(created.id, created.outs)).id).toBeUndefined();
  });
});

describe("MspTenant: no delete in the API", () => {
  const p = providerFor("MspTenant");
  const base = async () => {
    const g = (await s.call("createGroup", { body: { name: `msp-${Math.random()}` } })).body.id as string;
    return {
      name: "Acme",
      domain: `acme-${Math.random().toString(36).slice(2)}.example`,
      groups: [{ id: g, role: "admin" }],
    };
  };

  test("a domain change is not applied and replaces nothing; destroy with unlinkOwner unlinks", async () => {
    const inputs = { ...(await base()), unlinkOwner: "acme-owner" };
    const created = await p.create(inputs);
    expect(created.outs.status).toBe("pending");
    const d = await p.compare(created.id, created.outs, { ...inputs, domain: "other.example" });
    expect(d).toMatchObject({ changed: [], replaces: [], ignored: ["domain"] });
    await p.delete(created.id, created.outs);
    expect((await p.read(created.id, created.outs)).id).toBeUndefined();
  });

  test("destroy without unlinkOwner leaves the tenant linked", async () => {
    const created = await p.create(await base());
    await p.delete(created.id, created.outs);
    expect((await p.read(created.id, created.outs)).id).toBe(created.id);
  });
});

test("PeerEdrBypass: a bypass the device's compliance dropped is gone at the next read", async () => {
  const p = providerFor("PeerEdrBypass");
  const peer = addPeer(s);
  const created = await p.create({ peerId: peer.id });
  expect(created).toMatchObject({ id: peer.id, outs: { peerId: peer.id } });
  expect((await p.read(peer.id, created.outs)).id).toBe(peer.id);
  await s.call("deletePeerEdrBypass", { params: { peerId: peer.id } });
  expect((await p.read(peer.id, created.outs)).id).toBeUndefined();
  // Deleting what is gone is done.
  await p.delete(peer.id, created.outs);
});
