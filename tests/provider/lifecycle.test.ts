/**
 * Every resource kind through the provider lifecycle against a local server: create, read equals, diff with
 * shuffled id lists shows nothing, update in place, replace where required, delete, read gone.
 */
import type { z } from "zod";
import { isIdList } from "../../provider/normalize";
import { PROVIDERS } from "../../provider/registry";
import { camel, elementOf, kindOf, shapeOf } from "../../provider/schema";
import type { Props, ResourceSpec } from "../../provider/spec";
import { configureAll, fixtures, providerFor, type KindFixture } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let fx: Record<string, () => Promise<KindFixture>>;

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  await configureAll(s);
  fx = await fixtures(s);
});
afterAll(() => s?.close());

/**
 * A copy of `value` with every id list reversed, at any depth (a policy rule's sources too), found from the
 * input schema; `sets` are further top-level lists the spec compares as sets.
 */
function shuffled(value: unknown, schema: z.ZodType, sets: string[] = []): unknown {
  if (Array.isArray(value)) {
    const el = elementOf(schema);
    const items = el ? value.map((v) => shuffled(v, el)) : value;
    return isIdList(schema) ? [...items].reverse() : items;
  }
  if (value && typeof value === "object" && kindOf(schema) === "object") {
    const shape = shapeOf(schema) ?? {};
    const out: Props = { ...(value as Props) };
    for (const [k, s] of Object.entries(shape)) {
      const c = camel(k);
      if (out[c] === undefined) continue;
      out[c] = shuffled(out[c], s);
      if (sets.includes(c) && Array.isArray(out[c])) out[c] = [...(out[c] as unknown[])].reverse();
    }
    return out;
  }
  return value;
}

function shuffledInputs(spec: ResourceSpec, inputs: Props): Props {
  return shuffled(inputs, spec.input, spec.setLists ?? []) as Props;
}

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
