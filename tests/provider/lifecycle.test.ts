/**
 * Every resource kind through the provider lifecycle against a local server: create, read equals, diff with
 * shuffled id lists shows nothing, update in place, replace where required, delete, read gone.
 */
import { PROVIDERS } from "../../provider/registry";
import type { Props } from "../../provider/spec";
import { configureAll, fixtures, localTarget, providerFor, type KindFixture } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";
import { shuffledInputs } from "../support/shuffle";

let s: TestServer;
let fx: Record<string, () => Promise<KindFixture>>;

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  await configureAll(s);
  fx = await fixtures(localTarget(s));
});
afterAll(() => s?.close());

const kinds = PROVIDERS.map((p) => p.spec.name);

test("every resource kind has a fixture", () => {
  expect(Object.keys(fx).sort()).toEqual([...kinds].sort());
});

describe.each(kinds)("%s", (kind) => {
  test("check, create, read, diff, update, replace, delete", async () => {
    const p = providerFor(kind);
    const f = await fx[kind]!();

    expect((await p.check({}, f.create)).failures).toEqual([]);
    const created = await p.create(f.create);
    expect(created.id).toBeTruthy();
    const outs = created.outs as Props;

    // Read equals what create returned, and reports inputs that diff clean against the program's.
    const read = await p.read(created.id, outs);
    expect(read.id).toBe(created.id);
    expect(read.props).toEqual(outs);
    expect((await p.diff(created.id, read.props as Props, f.create)).changes).toBe(false);
    expect((await p.diff(created.id, read.inputs as Props, f.create)).changes).toBe(false);
    const reordered = shuffledInputs(p.spec, f.create);
    for (const k of f.idLists ?? []) expect(reordered[k]).not.toEqual(f.create[k]);
    expect((await p.diff(created.id, outs, reordered)).changes).toBe(false);

    let current = read.props as Props;
    if (f.update) {
      const d = await p.diff(created.id, current, f.update);
      expect(d.changes).toBe(true);
      expect(d.replaces).toEqual([]);
      const updated = await p.update(created.id, current, f.update);
      current = updated.outs as Props;
      const reread = await p.read(created.id, current);
      expect((await p.diff(created.id, reread.props as Props, f.update)).changes).toBe(false);
      current = reread.props as Props;
    }
    if (f.replace) {
      const d = await p.diff(created.id, current, f.replace.inputs);
      expect(d.changes).toBe(true);
      expect(d.replaces).toContain(f.replace.property);
    }

    await p.delete(created.id, current);
    const gone = await p.read(created.id, current);
    if (f.survivesDelete) expect(gone.id).toBe(created.id);
    else expect(gone.id).toBeUndefined();
    // Deleting what is already gone is not an error.
    if (!f.survivesDelete) await p.delete(created.id, current);
  });
});
