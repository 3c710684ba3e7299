/**
 * Credentials for the provider and the lookups. Precedence: environment (`PRIVNET_API_URL`, `PRIVNET_TOKEN`)
 * over stack config (`privnet:apiUrl`, `privnet:token`, set with `pulumi config set --secret privnet:token`) over
 * the default URL of a local `privnet-server`. Nothing here is ever captured in a serialized provider: values
 * are read at run time, in the process that uses them.
 */
import { PrivnetClient } from "../client";

export const DEFAULT_API_URL = "http://127.0.0.1:8080";

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

/** Resolves credentials from the environment and a config source. */
export function resolveCredentials(get: ConfigGetter, env: NodeJS.ProcessEnv = process.env): Credentials {
  const apiUrl = (env.PRIVNET_API_URL || get("apiUrl") || DEFAULT_API_URL).replace(/\/+$/, "");
  const token = env.PRIVNET_TOKEN || get("token") || undefined;
  return { apiUrl, token, rateLimit: parseRateLimit(env.PRIVNET_RATE_LIMIT || get("rateLimit")) };
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
