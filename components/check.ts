/**
 * The checks of a component's inputs at preview, before any child is declared: what fails names the component, the
 * entry and the field (`Segment "db": allow[1].ports[0]: must be a port number between 1 and 65535`).
 *
 * Three sources, with the kinds' own checks doing most of the work:
 * 1. the component's input schema (types, required fields, the field rules it borrows from api/);
 * 2. the plan (./spec.ts): keys that collide, entries without one;
 * 3. each planned child's inputs through its kind's own check (provider/lifecycle.ts `checkReport`, what the
 *    child's Check would say), the child's property mapped back to the entry's field (`rules[0].ports[0]` of an
 *    entry's policy is `allow[1].ports[0]`).
 * Values not known yet pass, as in every check. Advisories (values the service accepts with a warning) are left
 * to the children's own Check, which reports them when the children register.
 */
import { checkReport, checkValues } from "../provider/lifecycle";
import { PROVIDERS } from "../provider/registry";
import type { ResourceSpec } from "../provider/spec";
import { containsUnknown, numbersAsText } from "../model/mapping";
import {
  At,
  Computed,
  Pending,
  Ref,
  UNKNOWN,
  valueAt,
  type ComponentFailure,
  type ComponentSpec,
  type Plan,
  type PlannedChild,
  type PlanValue,
  type Props,
} from "./spec";

const KINDS = new Map<string, ResourceSpec>(PROVIDERS.map((p) => [p.spec.name, p.spec]));

/** A kind's spec by name (a plan naming a kind that does not exist is a bug of the definition). */
export function kindSpec(kind: string): ResourceSpec {
  const spec = KINDS.get(kind);
  if (!spec) throw new Error(`components: no resource kind ${kind}`);
  return spec;
}

/** A plan value with the component's plain input values: other children's outputs are not known yet. */
export function planValue(v: PlanValue, values: Props): unknown {
  if (v instanceof At) {
    const found = valueAt(values, v.path);
    return found === undefined || found === null
      ? v.fallback === undefined
        ? found
        : planValue(v.fallback, values)
      : found;
  }
  if (v instanceof Ref || v instanceof Pending) return UNKNOWN;
  if (v instanceof Computed) {
    const args = v.args.map((a) => planValue(a, values));
    return args.some(containsUnknown) ? UNKNOWN : v.fn(...args);
  }
  if (Array.isArray(v)) return v.map((x) => planValue(x, values));
  if (v && typeof v === "object") {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) {
      const r = planValue(x, values);
      if (r !== undefined) out[k] = r;
    }
    return out;
  }
  return v;
}

/** A child's property (`rules[0].ports[0]`) as the component's (`allow[1].ports[0]`), or undefined. */
function entryProperty(child: PlannedChild, property: string): string | undefined {
  const fields = Object.entries(child.origin.fields).sort(([a], [b]) => b.length - a.length);
  for (const [prop, field] of fields) {
    if (property === prop || property.startsWith(`${prop}[`) || property.startsWith(`${prop}.`)) {
      const rest = property.slice(prop.length);
      return child.origin.path ? `${child.origin.path}.${field}${rest}` : `${field}${rest}`;
    }
  }
  return undefined;
}

/** A check failure's reason without the property it starts with (`metric: must be ...` -> `must be ...`). */
function withoutProperty(property: string, reason: string): string {
  return reason.startsWith(`${property}: `) ? reason.slice(property.length + 2) : reason;
}

/** What a kind's check says of one planned child, in the component's property paths. */
function childFailures(child: PlannedChild, values: Props): ComponentFailure[] {
  const inputs = planValue(child.inputs, values) as Props;
  return checkReport(kindSpec(child.kind), inputs).failures.map((f) => {
    const message = withoutProperty(f.property, f.reason);
    const mapped = entryProperty(child, f.property);
    if (mapped) return { property: mapped, reason: message };
    // A property the entry does not give directly (a default, a derived name): say which child it is.
    const at = child.origin.path || "(inputs)";
    return {
      property: at,
      reason: `its ${child.kind} ${JSON.stringify(child.name)}: ${f.property}: ${message}`,
    };
  });
}

/**
 * The plan for these input values and every failure, without duplicates, in the order found; `values` as the plan
 * took them: a number where the component takes a string is its text, as a kind's check takes it
 * (model/mapping.ts `numbersAsText`: Pulumi YAML's digits-only config values).
 */
export function checkComponent(
  spec: ComponentSpec,
  name: string,
  given: Props,
  preview: boolean,
): { plan: Plan; failures: ComponentFailure[]; values: Props } {
  const values = numbersAsText(given, spec.inputs) as Props;
  const failures: ComponentFailure[] = checkValues(spec.inputs, values).failures.map((f) => ({
    property: f.property,
    reason: withoutProperty(f.property, f.reason),
  }));
  const plan = spec.plan(name, values, preview);
  failures.push(...plan.failures);
  for (const child of plan.children) failures.push(...childFailures(child, values));
  const seen = new Set<string>();
  const unique = failures.filter((f) => {
    const k = `${f.property}: ${f.reason}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { plan, failures: unique, values };
}

/** The message of a failed check: `privnet: Segment "db": allow[1].ports[0]: must be ...; ...`. */
export function failureMessage(spec: ComponentSpec, name: string, failures: ComponentFailure[]): string {
  return `privnet: ${spec.name} ${JSON.stringify(name)}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`;
}
