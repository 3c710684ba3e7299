/**
 * The resources a policy pack sees, as the guard's unit tests build them: dynamic-provider type tokens, a stack
 * `dev` of project `proj`, and property dependencies named by URN.
 */
import type { ValidatedResource } from "../../policy/stack";

export const T = "pulumi-nodejs:dynamic/privnet:";
export const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::${T}${kind}::${name}`;

/** A planned resource of `kind` named `name`, with its inputs and the URNs each input depends on. */
export function resource(
  kind: string,
  name: string,
  props: Record<string, unknown>,
  deps: Record<string, string[]> = {},
): ValidatedResource {
  return {
    type: `${T}${kind}`,
    urn: urn(kind, name),
    props,
    propertyDependencies: Object.fromEntries(
      Object.entries(deps).map(([k, v]) => [k, v.map((u) => ({ urn: u }))]),
    ),
  };
}
