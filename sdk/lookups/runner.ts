/**
 * Runs a lookup: checks its arguments, finds credentials the way the provider does, calls the API and returns the
 * answer in camelCase. Lookups are plain async functions: they work in `pulumi preview` and outside Pulumi.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveCredentials, type Credentials } from "../../model/credentials";
import { providerOf, type ProviderCredentials } from "../provider";
import { PrivnetLookupError } from "./errors";
import type * as executeTypes from "./execute";
import type { LookupOptions } from "./options";

export { PrivnetLookupError, isPrivnetLookupError } from "./errors";
export type { LookupOptions };

/**
 * The credentials of a lookup: `opts.apiUrl` / `opts.token` first, then the arguments of the lookup's provider
 * (`fromProvider`, resolved by the caller), then stack config read in the program's own process with
 * `pulumi.runtime.getConfig` (a plain read: no warning for a secret `privnet:token`), then the environment.
 */
export function lookupCredentials(opts: LookupOptions = {}, fromProvider?: ProviderCredentials): Credentials {
  const resolved = resolveCredentials((key) =>
    fromProvider ? fromProvider[key] : pulumi.runtime.getConfig(`privnet:${key}`),
  );
  return {
    ...resolved,
    apiUrl: opts.apiUrl ? opts.apiUrl.replace(/\/+$/, "") : resolved.apiUrl,
    token: opts.token || resolved.token,
  };
}

/** The value of an output, or an error naming the lookup when it is not known yet (a preview). */
async function knownValue<T>(name: string, o: pulumi.Output<T>): Promise<T> {
  // The SDK's outputs carry these (not in its typings): the value and whether it is known.
  const impl = o as unknown as { promise(): Promise<T>; isKnown: Promise<boolean> };
  if (!(await impl.isKnown)) {
    throw new PrivnetLookupError(
      name,
      "invalid-arguments",
      `the provider's arguments are not known yet (they come from another resource); use ${name}Output, ` +
        "which waits for them",
    );
  }
  return impl.promise();
}

/**
 * Runs the lookup `name` (see ./table.ts) with `args`, as the generated functions do. Returns the API's answer
 * with camelCase keys (record keys, which are data, stay as they are).
 */
export async function runLookup<T>(name: string, args: unknown, opts?: LookupOptions): Promise<T> {
  const explicit = providerOf(opts);
  return runResolved<T>(name, args, opts, explicit ? await knownValue(name, explicit) : undefined);
}

/**
 * The lookup as an output: it runs once `args` (whose members may be outputs) and the provider's arguments are
 * known; while they are not (a preview), the result is unknown, not an error.
 */
export function runLookupOutput<T>(name: string, args: unknown, opts?: LookupOptions): pulumi.Output<T> {
  const explicit = providerOf(opts);
  return pulumi
    .all([pulumi.output(args), explicit ?? pulumi.output(undefined)])
    .apply(([a, creds]) => runResolved<T>(name, a, opts, creds));
}

async function runResolved<T>(
  name: string,
  args: unknown,
  opts: LookupOptions | undefined,
  fromProvider: ProviderCredentials | undefined,
): Promise<T> {
  // Cast: the generated function names the result type T; the answer is mapped, not validated (a newer server
  // may add fields), as the client's answers are.
  // The table of lookups and the API's schemas load with the program's first lookup, not with the package.
  const { executeLookup }: typeof executeTypes = require("./execute");
  return (await executeLookup(name, args, lookupCredentials(opts, fromProvider))) as T;
}
