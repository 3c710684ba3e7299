/**
 * Property values as the engine sends them to a resource plugin, and back.
 *
 * The engine encodes Pulumi values in `google.protobuf.Struct`s with two special forms this plugin meets:
 * - a secret is an object `{ [SIG]: SECRET, value }` (the plugin says it accepts secrets, so they arrive so);
 * - a value not known yet (a preview) is the string {@link UNKNOWN}, the same marker the dynamic-provider host
 *   uses, so the lifecycle's checks and diffs treat it alike.
 * The lifecycle works on plain values: {@link reveal} unwraps the secrets and says which top-level properties held
 * one; {@link seal} marks properties secret again on the way out.
 */
import { UNKNOWN } from "../model/unknown";

/** The member that marks a special value, and its value for a secret (Pulumi's wire constants). */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

export { UNKNOWN };

export type Props = Record<string, unknown>;

function isObject(v: unknown): v is Props {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether `v` is a secret in the wire form. */
export function isSecret(v: unknown): v is { value: unknown } {
  return isObject(v) && v[SIG] === SECRET;
}

/** `v` without any secret wrapper, at any depth; `found` is set when one was removed. */
function unwrap(v: unknown, found: { secret: boolean }): unknown {
  if (isSecret(v)) {
    found.secret = true;
    return unwrap(v.value, found);
  }
  if (Array.isArray(v)) return v.map((x) => unwrap(x, found));
  if (isObject(v)) {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) out[k] = unwrap(x, found);
    return out;
  }
  return v;
}

/** Plain properties and the names of the top-level properties that were (or held) secrets. */
export function reveal(props: Props | undefined): { props: Props; secrets: Set<string> } {
  const out: Props = {};
  const secrets = new Set<string>();
  for (const [k, v] of Object.entries(props ?? {})) {
    const found = { secret: false };
    out[k] = unwrap(v, found);
    if (found.secret) secrets.add(k);
  }
  return { props: out, secrets };
}

/** The properties with those named in `secrets` wrapped as secrets (absent and null values stay as they are). */
export function seal(props: Props, secrets: Iterable<string>): Props {
  const out = { ...props };
  for (const k of secrets) {
    const v = out[k];
    if (v !== undefined && v !== null && !isSecret(v)) out[k] = { [SIG]: SECRET, value: v };
  }
  return out;
}

/** Properties fit for a Struct: undefined members dropped (a Struct cannot hold them), at any depth. */
export function structSafe(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : structSafe(x)));
  if (isObject(v)) {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = structSafe(x);
    return out;
  }
  return v;
}
