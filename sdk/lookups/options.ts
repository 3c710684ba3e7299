/**
 * The options every lookup takes, declared apart from the runner so that the lookups' public types
 * (./functions.ts, ./types.ts) name nothing but `@pulumi/pulumi` and each other: a type-checked program
 * (ts-node's default) reads these declarations, and with them it would read the client's and the API's.
 */
import type * as pulumi from "@pulumi/pulumi";

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
