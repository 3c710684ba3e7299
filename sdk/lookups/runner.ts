/**
 * Runs a lookup: checks its arguments, finds credentials the way the provider does, calls the API and returns the
 * answer in camelCase. Lookups are plain async functions: they work in `pulumi preview` and outside Pulumi.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveCredentials, type Credentials } from "../../model/credentials";
import { providerOf, type ProviderCredentials } from "../provider";
import { executeLookup, PrivnetLookupError } from "./execute";

export { PrivnetLookupError, isPrivnetLookupError } from "./execute";

/**
 * Where a lookup sends its request, with Pulumi's invoke options: `provider` (a {@link Provider}) or a `parent`
 * that passes one down. Each value left out is resolved like the provider's: that provider's arguments, then stack
 * config (`privnet:apiUrl`, `privnet:token`), then the environment (`PRIVNET_API_URL`, `PRIVNET_TOKEN`), and the
 * URL falls back to a local `privnet-server` (`http://127.0.0.1:8080`). `apiUrl` and `token` here override all.
 */
export interface LookupOptions extends pulumi.InvokeOptions {
  /** Base URL of the service, such as `http://127.0.0.1:8080`. */
  apiUrl?: string;
  /** Personal access token (or `Bearer <token>`). */
  token?: string;
}

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
  return (await executeLookup(name, args, lookupCredentials(opts, fromProvider))) as T;
}
