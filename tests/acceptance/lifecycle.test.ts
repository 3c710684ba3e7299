/**
 * Every resource kind through the provider's whole lifecycle against the acceptance target, with prerequisites
 * made through the API only. Per kind: check; create; read equals what create returned; a second preview shows
 * no change (diff of the created outputs with the same inputs, id lists reordered too); refresh shows no drift
 * (diff of what read reports as inputs); update in place; replace where the kind needs it (the new object is
 * made and read back, the old one deleted); delete; read gone. No warning may be raised on the way: a warning
 * means the server stored something other than what was sent.
 *
 * Kinds the target does not serve are reported as such by name, with the 404 that shows it.
 */
import { setWarningSink } from "../../provider/diagnostics";
import { PROVIDERS } from "../../provider/registry";
import type { Props } from "../../provider/spec";
import { configureAll, fixtures, PEERS_NEEDED, providerFor, type KindFixture } from "../support/provider";
import { shuffledInputs } from "../support/shuffle";
import { acceptance } from "./target";

jest.setTimeout(120_000);

const acc = acceptance();
const budget = acc.peerBudget("front");
let fx: Record<string, () => Promise<KindFixture>>;
const warnings: string[] = [];

beforeAll(async () => {
  await configureAll(acc);
  fx = await fixtures(acc.fixtureTarget("front"));
  setWarningSink((m) => warnings.push(m));
});
afterAll(async () => {
  setWarningSink(undefined);
  await acc.client.close();
});

async function lifecycle(kind: string): Promise<void> {
  const p = providerFor(kind);
  const f = await fx[kind]!();
  warnings.length = 0;

  expect((await p.check({}, f.create)).failures).toEqual([]);
  const created = await p.create(f.create);
  expect(created.id).toBeTruthy();
  const outs = created.outs as Props;
  const ids = [created.id];
  try {
    // Read equals what create returned; a second preview and a refresh show nothing.
    const read = await p.read(created.id, outs);
    expect(read.id).toBe(created.id);
    expect(read.props).toEqual(outs);
    expect((await p.diff(created.id, outs, f.create)).changes).toBe(false);
    expect((await p.diff(created.id, read.props as Props, f.create)).changes).toBe(false);
    expect((await p.diff(created.id, read.inputs as Props, f.create)).changes).toBe(false);
    expect((await p.diff(created.id, outs, shuffledInputs(p.spec, f.create))).changes).toBe(false);

    let current = read.props as Props;
    if (f.update) {
      const d = await p.diff(created.id, current, f.update);
      expect(d.changes).toBe(true);
      expect(d.replaces).toEqual([]);
      const updated = await p.update(created.id, current, f.update);
      const reread = await p.read(created.id, updated.outs as Props);
      expect(reread.props).toEqual(updated.outs);
      expect((await p.diff(created.id, reread.props as Props, f.update)).changes).toBe(false);
      expect((await p.diff(created.id, reread.inputs as Props, f.update)).changes).toBe(false);
      current = reread.props as Props;
    }
    if (f.replace) {
      const d = await p.diff(created.id, current, f.replace.inputs);
      expect(d.changes).toBe(true);
      expect(d.replaces).toContain(f.replace.property);
      // As the engine replaces: delete first where the kind asks for it, else create the new one first.
      if (d.deleteBeforeReplace) await p.delete(created.id, current);
      const replacement = await p.create(f.replace.inputs);
      ids.push(replacement.id);
      expect(replacement.id).not.toBe(created.id);
      const back = await p.read(replacement.id, replacement.outs as Props);
      expect((await p.diff(replacement.id, back.props as Props, f.replace.inputs)).changes).toBe(false);
      if (!d.deleteBeforeReplace) await p.delete(created.id, current);
      if (!f.survivesDelete) expect((await p.read(created.id, current)).id).toBeUndefined();
      current = back.props as Props;
    }

    const last = ids[ids.length - 1]!;
    await p.delete(last, current);
    const gone = await p.read(last, current);
    if (f.survivesDelete) expect(gone.id).toBe(last);
    else expect(gone.id).toBeUndefined();
    if (!f.survivesDelete) await p.delete(last, current);
    expect(warnings).toEqual([]);
  } catch (err) {
    // Leave nothing behind on a shared target.
    for (const id of ids) await p.delete(id, outs).catch(() => undefined);
    throw err;
  }
}

describe.each(PROVIDERS.map((p) => p.spec.name))("%s", (kind) => {
  const notServed = acc.probe.notServed.find((n) => n.kind === kind);
  const needed = PEERS_NEEDED[kind] ?? 0;
  if (notServed) {
    test(`not served by the target (${notServed.evidence})`, async () => {
      const res = await fetch(`${acc.url}${notServed.path}`, {
        headers: { Authorization: `Token ${acc.token}` },
      });
      expect(res.status).toBe(404);
      acc.record({ check: "lifecycle", kind, status: "not served", detail: notServed.evidence });
    });
  } else if (needed > budget) {
    test(`needs ${needed} enrolled peers; the target has ${budget} for this test`, () => {
      expect(budget).toBeLessThan(needed);
      acc.record({
        check: "lifecycle",
        kind,
        status: "too few enrolled peers",
        detail: `needs ${needed}, has ${budget}`,
      });
    });
  } else {
    test("create, read, preview, refresh, update, replace, delete", async () => {
      try {
        await lifecycle(kind);
        acc.record({ check: "lifecycle", kind, status: "passed" });
      } catch (err) {
        acc.record({ check: "lifecycle", kind, status: "failed", detail: String(err).split("\n")[0] });
        throw err;
      }
    });
  }
});
