/**
 * Credentials for the provider and the lookups. Precedence, as Pulumi users expect: the arguments of an explicit
 * `privnet.Provider` (which reach an explicit provider's process as its config) over stack config
 * (`privnet:apiUrl`, `privnet:token`, set with `pulumi config set --secret privnet:token`) over the environment
 * (`PRIVNET_API_URL`, `PRIVNET_TOKEN`, `PRIVNET_RATE_LIMIT`) over the default URL of a local `privnet-server`. A
 * stray variable in the environment never overrides what the stack says. Nothing here is ever captured in a
 * serialized provider: values are read at run time, in the process that uses them.
 */
import { PrivnetClient } from "../client";
import { DEFAULT_API_URL } from "./api-url";

export { DEFAULT_API_URL };

export interface Credentials {
  apiUrl: string;
  token: string | undefined;
  /** Client-side rate limit, `PER_MIN:BURST` or `off` (config `privnet:rateLimit`, env PRIVNET_RATE_LIMIT). */
  rateLimit?: { perMinute: number; burst: number } | false;
}

/** A config source: stack config as the dynamic-provider host or the program sees it. */
export type ConfigGetter = (key: "apiUrl" | "token" | "rateLimit") => string | undefined;

function parseRateLimit(text: string | undefined): Credentials["rateLimit"] {
  if (text === undefined || text === "") return undefined;
  if (text === "off") return false;
  const m = /^(\d+):(\d+)$/.exec(text);
  if (!m) throw new Error(`privnet: rateLimit must be PER_MIN:BURST or off, got ${JSON.stringify(text)}`);
  return { perMinute: Number(m[1]), burst: Number(m[2]) };
}

/**
 * Resolves credentials from a config source (explicit arguments or stack config), then the environment.
 *
 * One exception: `PRIVNET_TWIN_API_URL` (with `PRIVNET_TWIN_TOKEN`) wins over everything. `privnet-access diff`
 * sets it when it runs a program against its offline twin (docs/access.md), so that no provider and no lookup
 * of the program, explicit providers included, can reach the account the twin was cloned from.
 */
export function resolveCredentials(get: ConfigGetter, env: NodeJS.ProcessEnv = process.env): Credentials {
  if (env.PRIVNET_TWIN_API_URL)
    return {
      apiUrl: env.PRIVNET_TWIN_API_URL.replace(/\/+$/, ""),
      token: env.PRIVNET_TWIN_TOKEN,
      rateLimit: false,
    };
  const apiUrl = (get("apiUrl") || env.PRIVNET_API_URL || DEFAULT_API_URL).replace(/\/+$/, "");
  const token = get("token") || env.PRIVNET_TOKEN || undefined;
  return { apiUrl, token, rateLimit: parseRateLimit(get("rateLimit") || env.PRIVNET_RATE_LIMIT) };
}

const clients = new Map<string, PrivnetClient>();

/** A client for the credentials, shared per URL and token within the process (one keep-alive pool). */
export function clientFor(creds: Credentials): PrivnetClient {
  if (!creds.token) {
    throw new Error(
      "privnet: no API token: set it with `pulumi config set --secret privnet:token <token>` or the PRIVNET_TOKEN " +
        "environment variable",
    );
  }
  const key = `${creds.apiUrl}\u0000${creds.token}`;
  let c = clients.get(key);
  if (!c) {
    c = new PrivnetClient({
      apiUrl: creds.apiUrl,
      token: creds.token,
      ...(creds.rateLimit !== undefined ? { rateLimit: creds.rateLimit } : {}),
    });
    clients.set(key, c);
  }
  return c;
}
