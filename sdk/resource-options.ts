/**
 * The resource options every generated class of both sets (sdk/resources, sdk/plugin) registers with: its secret
 * outputs, and the types it was known by before (a deprecated kind's, the dynamic providers' for a class through
 * the plugin), written by scripts/sdkgen.ts into each class's constructor.
 */
import type * as pulumi from "@pulumi/pulumi";

/** `opts` with `secrets` added to its additional secret outputs. */
export function withSecrets(
  opts: pulumi.CustomResourceOptions | undefined,
  secrets: string[],
): pulumi.CustomResourceOptions {
  if (!secrets.length) return opts ?? {};
  return {
    ...opts,
    additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secrets])],
  };
}

/** `opts` with a type alias of each of `types` before the program's own aliases. */
export function withAliases(
  opts: pulumi.CustomResourceOptions | undefined,
  types: string[],
): pulumi.CustomResourceOptions {
  return { ...opts, aliases: [...types.map((type) => ({ type })), ...(opts?.aliases ?? [])] };
}
