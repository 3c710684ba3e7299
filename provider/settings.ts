/**
 * Settings objects that always exist once per account (account settings, DNS settings) and that a PUT replaces
 * whole. Such a resource manages only the settings the program names:
 * - create and update read the current settings and send them back with only the named settings changed, every
 *   other member as the server holds it, members this provider does not know included;
 * - the values the named settings had before the resource took them over are kept in state (`priorSettings`),
 *   and destroy puts them back; a setting the program stops naming is left as it is and forgotten;
 * - diffs and refresh look at the named settings only (the spec is `partial`).
 */
import { buildOutputs, inputsFromOutputs } from "./lifecycle";
import { fromApi, toApi } from "../model/mapping";
import { expectRecord, isRecord, type LifecycleContext, type Props, type ResourceSpec } from "./spec";

/** How to read and write one settings object. */
export interface SettingsAccess {
  /** The current settings (API form, every member the server sent) and the id of the object they belong to. */
  read(ctx: LifecycleContext): Promise<{ id: string; settings: Props }>;
  /** Replaces the settings (API form); returns the settings as stored. */
  write(ctx: LifecycleContext, id: string, settings: Props): Promise<Props>;
  /** Members the server echoes but does not take back (read-only). */
  readOnly?: string[];
}

/** The output holding the named settings' values from before the resource managed them (API form). */
export const PRIOR_SETTINGS = "priorSettings";

/** `base` with `patch` laid over it; plain objects merge member by member, anything else replaces. */
export function overlay(base: Props, patch: Props): Props {
  const out: Props = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    out[k] = isRecord(v) && isRecord(base[k]) ? overlay(base[k], v) : v;
  }
  return out;
}

/** The members of `value` that `shape` names, at any depth of plain objects. */
export function pickLike(value: Props, shape: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(shape)) {
    if (v === undefined || !(k in value)) continue;
    out[k] = isRecord(v) && isRecord(value[k]) ? pickLike(value[k], v) : value[k];
  }
  return out;
}

/** Hooks for a partial settings resource (see the module comment). */
export function settingsHooks(
  spec: ResourceSpec,
  access: SettingsAccess,
): NonNullable<ResourceSpec["hooks"]> {
  const named = (inputs: Props) =>
    expectRecord(toApi(inputs, spec.input) ?? {}, `${spec.name}: the settings named`);
  // The settings' values from before this resource managed them, as kept in its outputs.
  const priorOf = (props: Props): Props => {
    const prior = props[PRIOR_SETTINGS];
    return isRecord(prior) ? prior : {};
  };
  const sendable = (settings: Props) => {
    const out = { ...settings };
    for (const k of access.readOnly ?? []) delete out[k];
    return out;
  };
  // Read-only members are not sent, and a server may echo them as if unset: the read is their truth.
  const write = async (ctx: LifecycleContext, id: string, current: Props, patch: Props) => {
    const stored = await access.write(ctx, id, sendable(overlay(current, patch)));
    for (const k of access.readOnly ?? []) if (k in current) stored[k] = current[k];
    return stored;
  };
  const outputs = (
    stored: Props,
    inputs: Props,
    previous: Props | undefined,
    prior: Props,
    phase: "create" | "update" | "read",
  ) => ({
    ...buildOutputs(spec, stored, inputs, previous, phase),
    [PRIOR_SETTINGS]: prior,
  });
  return {
    async create(ctx, inputs) {
      const { id, settings } = await access.read(ctx);
      const patch = named(inputs);
      const prior = pickLike(settings, patch);
      const stored = await write(ctx, id, settings, patch);
      return { id, outs: outputs(stored, inputs, undefined, prior, "create") };
    },
    async read(ctx, id, props) {
      const current = await access.read(ctx);
      if (current.id !== id) return {};
      const prior = priorOf(props);
      const outs = outputs(current.settings, props, props, prior, "read");
      // The inputs a refresh reports are the settings this resource manages: those it keeps prior values of.
      const managed = expectRecord(fromApi(prior, spec.input), `${spec.name}: the settings managed`);
      return { id, props: outs, inputs: pickLike(inputsFromOutputs(spec, outs), managed) };
    },
    async update(ctx, id, olds, news) {
      const { settings } = await access.read(ctx);
      const patch = named(news);
      const oldPrior = priorOf(olds);
      // Settings named before keep their first prior value; newly named ones take the value they have now.
      const prior = overlay(pickLike(settings, patch), pickLike(oldPrior, patch));
      const stored = await write(ctx, id, settings, patch);
      return { outs: outputs(stored, news, olds, prior, "update") };
    },
    async list(ctx) {
      const { id, settings } = await access.read(ctx);
      return [{ id, object: settings, parents: {} }];
    },
    async delete(ctx, id, props) {
      const prior = priorOf(props);
      if (Object.keys(prior).length === 0) return;
      const { settings } = await access.read(ctx);
      await write(ctx, id, settings, prior);
    },
  };
}
