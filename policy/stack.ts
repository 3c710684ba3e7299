/**
 * The stack as the access guard sees it: the privnet resources of a stack validation (planned) and of the stack's
 * state before the change (prior), by URN.
 *
 * A privnet resource is served by the resource plugin (type `privnet:index:<Kind>`) or by the dynamic providers
 * (type `pulumi-nodejs:dynamic/privnet:<Kind>`; a hand-made dynamic resource of `pulumi-privnet/provider` has the
 * generic type `pulumi-nodejs:dynamic:Resource` and its kind in the hidden input `__kind`, which the engine keeps
 * out of what a policy sees: such a resource is known by the kind its state records).
 *
 * The state is read with `pulumi stack export` (the CLI on PATH, the backend of the environment the engine gives
 * the pack; secrets stay encrypted, so no passphrase is needed): it says which object each resource holds, and
 * which resources the program no longer declares (they are deleted).
 */
import { execFile } from "node:child_process";
import { PACKAGE, TYPE_PREFIX } from "../model/hidden-inputs";
import { isRecord, UNKNOWN } from "../model/mapping";
import type { Props } from "../provider/spec";
import { KIND_INPUT } from "../provider/spec";
import type { PlannedResource, PriorResource } from "./after";

/** The generic type of a dynamic resource. */
const DYNAMIC_RESOURCE = "pulumi-nodejs:dynamic:Resource";
const PLUGIN_PREFIX = `${PACKAGE}:index:`;

/** The kind a resource type names, if it is a privnet resource (`undefined` for a generic dynamic resource). */
export function kindOfType(type: string): string | undefined {
  if (type.startsWith(TYPE_PREFIX)) return type.slice(TYPE_PREFIX.length);
  if (type.startsWith(PLUGIN_PREFIX)) return type.slice(PLUGIN_PREFIX.length);
  return undefined;
}

/** A resource of a stack validation, as far as the guard reads it. */
export interface ValidatedResource {
  type: string;
  urn: string;
  props: Props;
  propertyDependencies: Record<string, { urn: string }[]>;
  provider?: { type: string; props: Props };
}

/**
 * The values of a validated resource's properties, unknown values kept as the engine's marker. The policy SDK
 * hands properties behind a proxy that throws on an unknown value; its target is the plain object.
 */
export function rawProps(props: Props): Props {
  const target = (props as Record<string, unknown>)["__getSpecialProxyTarget"];
  if (isRecord(target)) return target;
  // No proxy (another SDK version, or tests): walk it, an unknown member reading as the marker.
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((x) => safe(() => walk(x)));
    if (isRecord(v)) {
      const out: Props = {};
      for (const k of Object.keys(v)) out[k] = safe(() => walk(v[k]));
      return out;
    }
    return v;
  };
  const safe = (f: () => unknown) => {
    try {
      return f();
    } catch {
      return UNKNOWN;
    }
  };
  return walk(props) as Props;
}

/** The API URL a resource's explicit provider names (`privnet:apiUrl` of a dynamic one, `apiUrl` of the plugin's). */
export function providerUrl(r: ValidatedResource): string | undefined {
  const p = r.provider;
  if (!p) return undefined;
  const props = rawProps(p.props);
  const url = p.type === `pulumi:providers:${PACKAGE}` ? props.apiUrl : props["privnet:apiUrl"];
  return typeof url === "string" && url !== UNKNOWN && url !== "" ? url.replace(/\/+$/, "") : undefined;
}

/** The privnet resources of a stack validation (kinds from their types, or from the state for generic ones). */
export function plannedOf(
  resources: readonly ValidatedResource[],
  prior: ReadonlyMap<string, PriorResource>,
): PlannedResource[] {
  const out: PlannedResource[] = [];
  for (const r of resources) {
    const kind =
      kindOfType(r.type) ?? (r.type === DYNAMIC_RESOURCE ? prior.get(r.urn)?.kind || undefined : undefined);
    if (!kind) continue;
    const deps: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(r.propertyDependencies ?? {})) deps[k] = v.map((x) => x.urn);
    out.push({ urn: r.urn, kind, props: rawProps(r.props), deps });
  }
  return out;
}

/** The privnet resources of a state (`pulumi stack export` text), by URN. */
export function parseState(text: string): Map<string, PriorResource> {
  const doc: unknown = JSON.parse(text);
  const d = isRecord(doc) && isRecord(doc.deployment) ? doc.deployment : {};
  const out = new Map<string, PriorResource>();
  for (const r of Array.isArray(d.resources) ? d.resources : []) {
    if (!isRecord(r) || r.delete === true) continue;
    const type = typeof r.type === "string" ? r.type : "";
    const outputs = isRecord(r.outputs) ? r.outputs : {};
    const hidden = outputs[KIND_INPUT];
    const kind =
      kindOfType(type) ?? (type === DYNAMIC_RESOURCE && typeof hidden === "string" ? hidden : undefined);
    if (!kind || typeof r.urn !== "string" || typeof r.id !== "string" || r.id === "") continue;
    out.set(r.urn, {
      urn: r.urn,
      kind,
      id: r.id,
      outputs,
      ...(r.retainOnDelete === true ? { retain: true } : {}),
    });
  }
  return out;
}

/** Pending operations of a state (an interrupted update): their URNs. */
export function pendingOf(text: string): string[] {
  const doc: unknown = JSON.parse(text);
  const d = isRecord(doc) && isRecord(doc.deployment) ? doc.deployment : {};
  const ops = Array.isArray(d.pending_operations) ? d.pending_operations : [];
  return ops.flatMap((op) => (isRecord(op) && isRecord(op.resource) ? [String(op.resource.urn ?? "")] : []));
}

/** The stack's fully qualified name from the environment the engine gives a policy pack, if it gave one. */
export function stackName(env: NodeJS.ProcessEnv): string | undefined {
  const stack = env.PULUMI_NODEJS_STACK || env.PULUMI_STACK;
  const project = env.PULUMI_NODEJS_PROJECT || env.PULUMI_PROJECT;
  const org = env.PULUMI_NODEJS_ORGANIZATION || env.PULUMI_ORGANIZATION;
  if (!stack || !project) return undefined;
  return org ? `${org}/${project}/${stack}` : `${project}/${stack}`;
}

/** `pulumi stack export --stack <stack>` (secrets stay encrypted). */
export function exportState(stack: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "pulumi",
      ["stack", "export", "--stack", stack, "--non-interactive"],
      {
        env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true" },
        maxBuffer: 1024 * 1024 * 1024,
        timeout: 120_000,
      },
      (err, stdout, stderr) => {
        if (!err) {
          resolve(String(stdout));
          return;
        }
        const code = (err as NodeJS.ErrnoException).code;
        const first =
          String(stderr)
            .split("\n")
            .find((l) => l.trim() !== "")
            ?.trim()
            .slice(0, 300) ?? "";
        reject(
          new Error(
            code === "ENOENT"
              ? "cannot read the stack's state: the pulumi CLI is not on PATH"
              : `cannot read the stack's state (pulumi stack export --stack ${stack}): ${first || err.message}`,
          ),
        );
      },
    );
  });
}
