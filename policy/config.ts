/**
 * The access guard's settings. Each comes from the policy pack's config (`--policy-pack-config FILE`, or a Pulumi
 * Cloud policy group), else the stack's own config (what the program's provider uses), else the environment,
 * else a default:
 *
 * | setting                   | pack config (policy: key)          | stack config     | environment                    |
 * | ------------------------- | ---------------------------------- | ---------------- | ------------------------------ |
 * | the API URL               | any policy: `apiUrl`               | `privnet:apiUrl` | `PRIVNET_API_URL`              |
 * | the API token             | any policy: `token`                | `privnet:token`  | `PRIVNET_TOKEN`                |
 * | the access tests file     | `access-tests`: `testsFile`        |                  | `PRIVNET_ACCESS_TESTS`         |
 * | the sensitive groups      | `no-broad-access`: `sensitiveGroups` |                | `PRIVNET_SENSITIVE_GROUPS`     |
 * | policies exempt from it   | `no-broad-access`: `ignorePolicies` |                 |                                |
 * | each policy's enforcement | `<policy>`: `enforcementLevel`     |                  | `PRIVNET_POLICY_<POLICY>`      |
 *
 * (`PRIVNET_POLICY_ACCESS_TESTS`, `PRIVNET_POLICY_ACCESS_CHANGES`, `PRIVNET_POLICY_NO_BROAD_ACCESS`: advisory,
 * mandatory or disabled; the pack config's `enforcementLevel` wins, as the engine applies it.) A relative tests
 * file is taken from the directory the Pulumi CLI runs in, as the CLI takes `--policy-pack-config` itself
 * (policy/cli-directory.ts). The token is never printed.
 */
import * as path from "node:path";
import { cliDirectory, type CliDirectory } from "./cli-directory";
import type * as Credentials from "../model/credentials";

export type Level = "advisory" | "mandatory" | "disabled";

/** The policies, their default enforcement levels and the variables that change them. */
export const POLICIES = {
  "access-tests": { level: "mandatory", env: "PRIVNET_POLICY_ACCESS_TESTS" },
  "access-changes": { level: "advisory", env: "PRIVNET_POLICY_ACCESS_CHANGES" },
  "no-broad-access": { level: "advisory", env: "PRIVNET_POLICY_NO_BROAD_ACCESS" },
} as const satisfies Record<string, { level: Level; env: string }>;

export type PolicyName = keyof typeof POLICIES;

const LEVELS: readonly string[] = ["advisory", "mandatory", "disabled"];

/** A setting that is wrong: the message names it. */
export class GuardConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GuardConfigError";
  }
}

/** A policy's enforcement level from the environment, or its default. */
export function levelOf(name: PolicyName, env: NodeJS.ProcessEnv): Level {
  const p = POLICIES[name];
  const v = env[p.env]?.trim();
  if (!v) return p.level;
  if (!LEVELS.includes(v))
    throw new GuardConfigError(
      `${p.env}: expected advisory, mandatory or disabled, got ${JSON.stringify(v)}`,
    );
  return v as Level;
}

/** The config keys every policy takes: where the account is. */
const connectionSchema = {
  apiUrl: {
    type: "string",
    description: "The management API's URL (default: the stack's privnet:apiUrl, then PRIVNET_API_URL)",
  },
  token: {
    type: "string",
    description: "The API token (default: the stack's privnet:token, then PRIVNET_TOKEN); prefer those",
  },
} as const;

/** Each policy's config schema, as the engine validates the pack config against it. */
export const CONFIG_SCHEMAS = {
  "access-tests": {
    properties: {
      ...connectionSchema,
      testsFile: {
        type: "string",
        description: "The access tests file (privnet-access test's format); default PRIVNET_ACCESS_TESTS",
      },
    },
  },
  "access-changes": { properties: { ...connectionSchema } },
  "no-broad-access": {
    properties: {
      ...connectionSchema,
      sensitiveGroups: {
        type: "array",
        items: { type: "string" },
        description:
          "Groups (names or ids) no rule may open with protocol all and no ports; default PRIVNET_SENSITIVE_GROUPS",
      },
      ignorePolicies: {
        type: "array",
        items: { type: "string" },
        description: "Policies (names) this check leaves alone",
      },
    },
  },
} as const;

/** What a policy's config may hold. */
export interface PolicyConfig {
  apiUrl?: string;
  token?: string;
  testsFile?: string;
  sensitiveGroups?: string[];
  ignorePolicies?: string[];
}

/** The stack's config as the engine gives it to a pack (`PULUMI_CONFIG`, secrets decrypted). */
export function stackConfig(env: NodeJS.ProcessEnv): Record<string, string> {
  const text = env.PULUMI_CONFIG;
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The provider's default URL (loaded when needed: the credentials module brings the HTTP client). */
function defaultApiUrl(): string {
  const credentials: typeof Credentials = require("../model/credentials");
  return credentials.DEFAULT_API_URL;
}

export interface Connection {
  apiUrl: string;
  token: string | undefined;
  /** Where the URL came from, for messages. */
  from: string;
  /** Where the token came from, for messages (`the stack's privnet:token`); absent without a token. */
  tokenFrom?: string;
}

/** What to check when the server rejects the token: the setting it came from, and the pack's order. */
export function tokenHint(c: Connection): string {
  return (
    `check ${c.tokenFrom ?? "the token"} (the pack takes its config's token, else the stack's privnet:token, ` +
    "else PRIVNET_TOKEN)"
  );
}

/** The account to read: the policy's config, else the stack's config, else the environment, else the default. */
export function connectionOf(cfg: PolicyConfig, env: NodeJS.ProcessEnv): Connection {
  const stack = stackConfig(env);
  const pick = (
    ...c: [string | undefined, string][]
  ): { value: string | undefined; from: string } | undefined =>
    c.map(([value, from]) => ({ value: value?.trim(), from })).find((x) => x.value);
  const url = pick(
    [cfg.apiUrl, "the policy config's apiUrl"],
    [stack["privnet:apiUrl"], "the stack's privnet:apiUrl"],
    [env.PRIVNET_API_URL, "PRIVNET_API_URL"],
  ) ?? { value: defaultApiUrl(), from: "the default URL" };
  const token = pick(
    [cfg.token, "the policy config's token"],
    [stack["privnet:token"], "the stack's privnet:token"],
    [env.PRIVNET_TOKEN, "PRIVNET_TOKEN"],
  );
  const apiUrl = (url.value as string).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/\s]+/.test(apiUrl))
    throw new GuardConfigError(`${url.from} must be an http(s) URL such as http://127.0.0.1:8080`);
  return token
    ? { apiUrl, token: token.value, from: url.from, tokenFrom: token.from }
    : { apiUrl, token: undefined, from: url.from };
}

/** The tests file to read; for a relative setting, the directory it was taken from. */
export interface TestsFile {
  path: string;
  relativeTo?: CliDirectory;
}

/**
 * The tests file: the policy's `testsFile`, else PRIVNET_ACCESS_TESTS; a relative one from the directory the
 * Pulumi CLI runs in (that of `--cwd DIR`), where the CLI found the pack's config file.
 */
export function testsFileOf(
  cfg: PolicyConfig,
  env: NodeJS.ProcessEnv,
  base: () => CliDirectory = () => cliDirectory(env),
): TestsFile | undefined {
  const f = cfg.testsFile?.trim() || env.PRIVNET_ACCESS_TESTS?.trim();
  if (!f) return undefined;
  if (path.isAbsolute(f)) return { path: path.normalize(f) };
  const relativeTo = base();
  return { path: path.resolve(relativeTo.dir, f), relativeTo };
}

/** The sensitive groups: the policy's `sensitiveGroups`, else PRIVNET_SENSITIVE_GROUPS (comma-separated). */
export function sensitiveGroupsOf(cfg: PolicyConfig, env: NodeJS.ProcessEnv): string[] {
  if (cfg.sensitiveGroups) return cfg.sensitiveGroups.map((g) => g.trim()).filter(Boolean);
  return (env.PRIVNET_SENSITIVE_GROUPS ?? "")
    .split(",")
    .map((g) => g.trim())
    .filter(Boolean);
}
