/**
 * One resource kind through the provider's whole lifecycle, as the engine drives it: check; create; read equals
 * what create returned; a second preview shows no change (diff of the created outputs with the same inputs, id
 * lists reordered too); refresh shows no drift (diff of what read reports as inputs); update in place; replace
 * where the kind needs it (the new object is made and read back, the old one deleted, in the engine's order);
 * delete; read gone (singletons stay); a second delete is no error.
 */
import type { Props, ResourceSpec } from "../../provider/spec";
import type { KindFixture } from "./provider";
import { shuffledInputs } from "./shuffle";

/**
 * What drives a kind's lifecycle: a provider in this process (`PrivnetProvider`), or the resource plugin over
 * gRPC (tests/support/plugin.ts), which answers the same calls.
 */
export interface LifecycleDriver {
  spec: ResourceSpec;
  check(olds: Props, news: Props): Promise<{ failures?: { property: string; reason: string }[] }>;
  create(inputs: Props): Promise<{ id: string; outs?: Props }>;
  /** `inputs`: the state's inputs, which the engine sends with a refresh (a provider in this process takes none). */
  read(id: string, props: Props, inputs?: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  diff(
    id: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs?: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/** Two reads of one object agree, apart from the fixture's time-bound outputs, which hold allowed values. */
function expectSameRead(f: KindFixture, later: Props, earlier: Props): void {
  const bound = f.timeBound ?? {};
  const without = (p: Props): Props => Object.fromEntries(Object.entries(p).filter(([k]) => !(k in bound)));
  expect(without(later)).toEqual(without(earlier));
  for (const [k, allowed] of Object.entries(bound)) {
    expect(allowed).toContainEqual(earlier[k]);
    expect(allowed).toContainEqual(later[k]);
  }
}

export async function runLifecycle(p: LifecycleDriver, f: KindFixture): Promise<void> {
  expect((await p.check({}, f.create)).failures).toEqual([]);
  const created = await p.create(f.create);
  expect(created.id).toBeTruthy();
  const outs = created.outs as Props;
  const ids = [created.id];
  try {
    const read = await p.read(created.id, outs, f.create);
    expect(read.id).toBe(created.id);
    expectSameRead(f, read.props as Props, outs);
    expect((await p.diff(created.id, outs, f.create)).changes).toBe(false);
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
      const reread = await p.read(created.id, updated.outs as Props, f.update);
      expectSameRead(f, reread.props as Props, updated.outs as Props);
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
      const back = await p.read(replacement.id, replacement.outs as Props, f.replace.inputs);
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
    // Deleting what is already gone is not an error.
    if (!f.survivesDelete) await p.delete(last, current);
  } catch (err) {
    // Leave nothing behind on a shared server.
    for (const id of ids) await p.delete(id, outs).catch(() => undefined);
    throw err;
  }
}
