/**
 * `privnet-server [--host 127.0.0.1] [--port N|0] [--db FILE|:memory:] [--synchronous full|normal]
 *  [--secrets-key-file FILE] [--bootstrap-token-file FILE] [--cloud] [--embedded-idp]
 *  [--rate-limit PER_MIN:BURST|off] [--auth-fail-limit PER_MIN:BURST|off] [--simulate] [--request-log FILE|-]
 *  [--faults SPEC] [--seed FILE] [--proxy-cluster ADDRESS]...
 *  [--bearer-issuer URL --bearer-jwks FILE [--bearer-audience AUD]]`
 *
 * Prints `privnet-server listening on http://HOST:PORT` on stdout once ready. On a new database the owner PAT
 * is written to --bootstrap-token-file (mode 0600) or, without it, printed once. SIGTERM/SIGINT close cleanly.
 * `privnet-server sim ...` drives the simulated agent of a running server (see `privnet-server sim --help`).
 */
import * as fs from "node:fs";
import { isDomain } from "../api/common";
import type { BearerOptions } from "./context";
import { parseFaults } from "./faults";
import { startServer, validateSeed, type StartOptions } from "./index";
import { parseRateLimit } from "./rate-limit";

const USAGE = `usage: privnet-server [options]
  --host HOST                    address to bind (default 127.0.0.1)
  --port N                       port; 0 picks a free one (default 8080)
  --db FILE|:memory:             SQLite database file (default :memory:); data survives restarts on a file
  --synchronous full|normal      full (default): an acknowledged write survives a power loss; normal: faster
                                 commits, survives a killed process but may lose the last writes on power loss
  --bootstrap-token-file FILE    on a new database, write the owner token here (0600) instead of printing it
  --secrets-key-file FILE        key integration credentials are encrypted with (default DB.key beside the
                                 database, created 0600 on the first start; in memory for :memory:)
  --cloud                        serve the cloud-only operations (ingress, network traffic events)
  --embedded-idp                 serve the embedded-IdP operations (invites, password change)
  --rate-limit PER_MIN:BURST|off token bucket per user, all its tokens together (default off; the hosted
                                 service is 120:1200)
  --auth-fail-limit PER_MIN:BURST|off
                                 failed authentications per client address; over it, 429 without looking at
                                 the credential (default 10:20 with --rate-limit, else off)
  --simulate                     serve the simulated agent under /sim (enroll and connect peers, finish jobs,
                                 register reverse proxies, set DNS records custom domains are checked against)
  --proxy-cluster ADDRESS        a shared reverse-proxy cluster, always online (repeatable): services can be
                                 published under ADDRESS without a proxy registering first
  --request-log FILE|-           append one JSON line per request (no bodies, no secrets); - for stderr
  --faults SPEC                  inject faults: seed=N,429=RATE,503=RATE,latency=MS
  --seed FILE                    load an account read from another server into the new database, ids kept
                                 (off by default; the offline twin of privnet-access diff: docs/access.md)
  --bearer-issuer URL            accept Authorization: Bearer JWTs from this issuer...
  --bearer-jwks FILE             ...verified with this JSON Web Key Set file
  --bearer-audience AUD          ...and this audience
  sim --help                     drive the simulated agent of a running server`;

/** Failed authentications per client address when --rate-limit is on and --auth-fail-limit is not given. */
export const DEFAULT_AUTH_FAIL_LIMIT = "10:20";

class UsageError extends Error {}

export function parseArgs(
  argv: string[],
): StartOptions & { bootstrapTokenFile?: string; requestLog?: string } {
  const opts: StartOptions & { bootstrapTokenFile?: string; requestLog?: string } = {
    port: 8080,
    db: ":memory:",
  };
  let issuer: string | undefined;
  let jwksFile: string | undefined;
  let audience: string | undefined;
  let authFailLimit: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] =
      arg.includes("=") && arg.startsWith("--")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--host":
        opts.host = value();
        break;
      case "--port": {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) > 65535)
          throw new UsageError(`--port: expected 0..65535, got ${v}`);
        opts.port = Number(v);
        break;
      }
      case "--db":
        opts.db = value();
        break;
      case "--bootstrap-token-file":
        opts.bootstrapTokenFile = value();
        break;
      case "--synchronous": {
        const v = value();
        if (v !== "full" && v !== "normal")
          throw new UsageError(`--synchronous: expected full or normal, got ${v}`);
        opts.synchronous = v;
        break;
      }
      case "--secrets-key-file":
        opts.secretsKeyFile = value();
        break;
      case "--cloud":
        opts.cloud = true;
        break;
      case "--embedded-idp":
        opts.embeddedIdp = true;
        break;
      case "--simulate":
        opts.simulate = true;
        break;
      case "--proxy-cluster": {
        const v = value();
        if (!isDomain(v)) throw new UsageError(`--proxy-cluster: expected a domain name, got ${v}`);
        opts.proxyClusters = [...(opts.proxyClusters ?? []), v];
        break;
      }
      case "--rate-limit":
        opts.rateLimit = parseRateLimit(value());
        break;
      case "--auth-fail-limit":
        authFailLimit = value();
        break;
      case "--request-log":
        opts.requestLog = value();
        break;
      case "--faults":
        opts.faults = parseFaults(value());
        break;
      case "--bearer-issuer":
        issuer = value();
        break;
      case "--bearer-jwks":
        jwksFile = value();
        break;
      case "--bearer-audience":
        audience = value();
        break;
      case "--seed": {
        const file = value();
        let raw: unknown;
        try {
          raw = JSON.parse(fs.readFileSync(file, "utf8"));
        } catch (err) {
          throw new UsageError(`--seed ${file}: ${(err as Error).message.split("\n")[0]}`);
        }
        try {
          opts.seed = validateSeed(raw);
        } catch (err) {
          throw new UsageError(`--seed ${file}: ${(err as Error).message}`);
        }
        break;
      }
      case "-h":
      case "--help":
        throw new UsageError("");
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  opts.authFailLimit = parseRateLimit(
    authFailLimit ?? (opts.rateLimit ? DEFAULT_AUTH_FAIL_LIMIT : "off"),
    "--auth-fail-limit",
  );
  if ((issuer === undefined) !== (jwksFile === undefined)) {
    throw new UsageError("--bearer-issuer and --bearer-jwks go together");
  }
  if (issuer && jwksFile) {
    const jwks = JSON.parse(fs.readFileSync(jwksFile, "utf8")) as BearerOptions["jwks"];
    opts.bearer = { issuer, jwks, audience };
  }
  return opts;
}

export async function main(argv: string[]): Promise<void> {
  if (argv[0] === "sim") {
    const { simMain } = await import("./sim-cli");
    process.exitCode = await simMain(argv.slice(1));
    return;
  }
  let opts: ReturnType<typeof parseArgs>;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) process.stderr.write(`privnet-server: ${err.message}\n`);
      process.stderr.write(`${USAGE}\n`);
      process.exitCode = err.message ? 2 : 0;
      return;
    }
    process.stderr.write(`privnet-server: ${(err as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  if (opts.requestLog) {
    const out =
      opts.requestLog === "-" ? process.stderr : fs.createWriteStream(opts.requestLog, { flags: "a" });
    opts.onRequest = (entry) => out.write(`${JSON.stringify(entry)}\n`);
  }
  // A startup refusal (a wrong secrets key, a port in use) throws: bin/privnet-server prints its message.
  const server = await startServer(opts);
  if (server.ownerToken) {
    if (opts.bootstrapTokenFile) {
      fs.writeFileSync(opts.bootstrapTokenFile, `${server.ownerToken}\n`, { mode: 0o600 });
      fs.chmodSync(opts.bootstrapTokenFile, 0o600);
      process.stderr.write(
        `privnet-server: new database; owner token written to ${opts.bootstrapTokenFile}\n`,
      );
    } else {
      process.stderr.write(
        `privnet-server: new database; owner token (shown once, store it now):\n${server.ownerToken}\n`,
      );
    }
  }
  process.stdout.write(`privnet-server listening on ${server.url}\n`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`privnet-server: ${signal}, closing\n`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`privnet-server: close failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
