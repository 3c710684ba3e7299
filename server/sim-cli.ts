/**
 * `privnet-server sim ...`: drives the simulated agent of a running server (started with --simulate) over HTTP.
 *
 *   privnet-server sim enroll --url URL --setup-key KEY [--hostname NAME] [--count N]
 *                             [--extra-dns-label LABEL ...] [metadata options]
 *   privnet-server sim meta --url URL --peer ID [metadata options]
 *   privnet-server sim connect|disconnect|login --url URL --peer ID
 *   privnet-server sim job complete --url URL --peer ID --job ID [--upload-key KEY]
 *   privnet-server sim job fail --url URL --peer ID --job ID [--reason TEXT]
 *   privnet-server sim sweep --url URL
 *   privnet-server sim proxy register --url URL --address CLUSTER [--proxy-token TOKEN]
 *   privnet-server sim proxy connect|disconnect --url URL --proxy ID
 *   privnet-server sim dns --url URL --name NAME --cname TARGET
 *   privnet-server sim llm --url URL --model MODEL --input N --output N
 *                          (--peer ID | --user ID-OR-EMAIL | --group ID ...) [--provider ID] [llm options]
 *
 * Prints one JSON line per result on stdout. Exit codes: 0 done, 1 the server refused, 2 usage error.
 * The setup key may come from PRIVNET_SETUP_KEY instead of --setup-key, and the proxy token from
 * PRIVNET_PROXY_TOKEN instead of --proxy-token (keeps them out of the process list); neither is ever printed,
 * not even in errors.
 */
import { randomBytes } from "node:crypto";

const USAGE = `usage: privnet-server sim <command> [options]
  enroll --setup-key KEY [--hostname NAME] [--count N] [--extra-dns-label LABEL]... [metadata]
                          enroll N peers (default 1; host names NAME-1..NAME-N when N > 1);
                          the key may come from PRIVNET_SETUP_KEY instead
  meta --peer ID [metadata]
                          the agent reports new metadata (only what is given changes)
  connect --peer ID       mark a peer connected
  disconnect --peer ID    mark a peer disconnected (a temporary access peer is deleted)
  login --peer ID         the peer's user logs in again (last login now, login no longer expired)
  job complete --peer ID --job ID [--upload-key KEY]
  job fail --peer ID --job ID [--reason TEXT]
  sweep                   delete ephemeral peers offline for 10 minutes or more
  proxy register --address CLUSTER [--proxy-token TOKEN]
                          a self-hosted reverse proxy of the cluster CLUSTER registers with a proxy token
                          (POST /api/reverse-proxies/proxy-tokens makes one); the token may come from
                          PRIVNET_PROXY_TOKEN instead
  proxy connect|disconnect --proxy ID
                          a registered proxy resumes or stops reporting
  dns --name NAME --cname TARGET
                          set the CNAME custom-domain validation reads (validation.<domain> -> the cluster's
                          address); an empty TARGET removes it
  llm --model MODEL --input N --output N (--peer ID | --user USER | --group ID...) [--provider ID]
                          an agent's request for a model through the Agent Network gateway: routed to a provider,
                          decided by the policies, guardrails, caps and budget rules as privnet-access reads them
                          (docs/llm-access.md), metered at the model's prices, logged; --provider: the provider
                          the request must reach (refused when the gateway routes it elsewhere); --count N
                          sends it N times. Options: --cached-input N --cache-creation N --session ID --stream
                          --path PATH --duration-ms N --status N --prompt TEXT --completion TEXT --at TIME
metadata (what the agent reports; posture checks read it):
  --version V --os OS --goos FAMILY --os-version V --kernel V --country CC --city NAME --connection-ip IP
  --address CIDR (repeatable; --no-addresses for none) --process PATH (repeatable; --no-processes for none)
common options:
  --url URL               the server (default http://127.0.0.1:8080)`;

/** Metadata options with one value, and the report member each sets. */
const META_FLAGS: Record<string, string> = {
  "--version": "version",
  "--os": "os",
  "--goos": "goos",
  "--os-version": "os_version",
  "--kernel": "kernel_version",
  "--country": "country_code",
  "--city": "city_name",
  "--connection-ip": "connection_ip",
};

class UsageError extends Error {}

interface SimArgs {
  command: string[];
  url: string;
  setupKey?: string;
  hostname?: string;
  count: number;
  /** The metadata options given, as the report members of server/sim.ts. */
  meta: Record<string, string | string[]>;
  extraDnsLabels: string[];
  peer?: string;
  job?: string;
  reason?: string;
  uploadKey?: string;
  address?: string;
  proxyToken?: string;
  proxy?: string;
  name?: string;
  cname?: string;
  /** `sim llm`: the request's members (server/sim-llm.ts). */
  llm: Record<string, unknown>;
}

/** `sim llm` options with a value, and the request member each sets (numbers are whole and at least 0). */
const LLM_FLAGS: Record<string, { key: string; number?: true; list?: true }> = {
  "--provider": { key: "provider" },
  "--model": { key: "model" },
  "--input": { key: "input_tokens", number: true },
  "--output": { key: "output_tokens", number: true },
  "--cached-input": { key: "cached_input_tokens", number: true },
  "--cache-creation": { key: "cache_creation_tokens", number: true },
  "--user": { key: "user" },
  "--group": { key: "groups", list: true },
  "--session": { key: "session_id" },
  "--path": { key: "path" },
  "--duration-ms": { key: "duration_ms", number: true },
  "--status": { key: "status_code", number: true },
  "--prompt": { key: "prompt" },
  "--completion": { key: "completion" },
  "--at": { key: "at" },
};

/** Parses the arguments after `sim`. */
export function parseSimArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): SimArgs {
  const args: SimArgs = {
    command: [],
    url: "http://127.0.0.1:8080",
    count: 1,
    meta: {},
    extraDnsLabels: [],
    llm: {},
    setupKey: env.PRIVNET_SETUP_KEY || undefined,
    proxyToken: env.PRIVNET_PROXY_TOKEN || undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const llmFlag = args.command[0] === "llm" ? LLM_FLAGS[flag] : undefined;
    if (llmFlag) {
      const v = value();
      if (llmFlag.number && !/^\d+$/.test(v))
        throw new UsageError(`${flag}: expected a whole number, got ${v}`);
      const x = llmFlag.number ? Number(v) : v;
      args.llm[llmFlag.key] = llmFlag.list ? [...((args.llm[llmFlag.key] as unknown[]) ?? []), x] : x;
      continue;
    }
    if (args.command[0] === "llm" && flag === "--stream") {
      args.llm.stream = true;
      continue;
    }
    const metaKey = META_FLAGS[flag];
    if (metaKey) {
      args.meta[metaKey] = value();
      continue;
    }
    switch (flag) {
      case "--address":
      case "--process": {
        // `sim proxy register --address CLUSTER`: the proxy's cluster, not an agent's network address.
        if (flag === "--address" && args.command[0] === "proxy") {
          args.address = value();
          break;
        }
        const key = flag === "--address" ? "network_addresses" : "processes";
        const list = Array.isArray(args.meta[key]) ? (args.meta[key] as string[]) : [];
        args.meta[key] = [...list, value()];
        break;
      }
      case "--no-addresses":
        args.meta.network_addresses = [];
        break;
      case "--no-processes":
        args.meta.processes = [];
        break;
      case "--url":
        args.url = value().replace(/\/+$/, "");
        break;
      case "--setup-key":
        args.setupKey = value();
        break;
      case "--hostname":
        args.hostname = value();
        break;
      case "--count": {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 10000)
          throw new UsageError(`--count: expected 1..10000, got ${v}`);
        args.count = Number(v);
        break;
      }
      case "--extra-dns-label":
        args.extraDnsLabels.push(value());
        break;
      case "--peer":
        args.peer = value();
        break;
      case "--job":
        args.job = value();
        break;
      case "--reason":
        args.reason = value();
        break;
      case "--upload-key":
        args.uploadKey = value();
        break;
      case "--proxy-token":
        args.proxyToken = value();
        break;
      case "--proxy":
        args.proxy = value();
        break;
      case "--name":
        args.name = value();
        break;
      case "--cname":
        // An empty value removes the record.
        args.cname = inline ?? argv[++i] ?? "";
        break;
      case "-h":
      case "--help":
        throw new UsageError("");
      default:
        if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
        args.command.push(arg);
    }
  }
  return args;
}

function need<T>(v: T | undefined, flag: string): T {
  if (v === undefined) throw new UsageError(`${flag} is required`);
  return v;
}

/** A refusal of the server: status and its message. */
class SimError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function post(url: string, path: string, body: unknown = {}): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new SimError(0, `cannot reach ${url}: ${(err as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? {} : JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  if (!res.ok) {
    const message =
      typeof parsed === "object" &&
      parsed !== null &&
      typeof (parsed as { message?: unknown }).message === "string"
        ? (parsed as { message: string }).message
        : String(text).slice(0, 200);
    const hint = res.status === 404 && path.startsWith("/sim/") && /no route/.test(message);
    throw new SimError(res.status, hint ? `${message} (is the server running with --simulate?)` : message);
  }
  return parsed;
}

const seg = encodeURIComponent;

async function run(a: SimArgs, out: (line: unknown) => void): Promise<void> {
  const [cmd, sub] = a.command;
  switch (cmd) {
    case "enroll": {
      const setupKey = need(a.setupKey, "--setup-key (or PRIVNET_SETUP_KEY)");
      const base = a.hostname ?? `sim-${randomBytes(3).toString("hex")}`;
      for (let i = 1; i <= a.count; i++) {
        const body: Record<string, unknown> = {
          setup_key: setupKey,
          hostname: a.count > 1 ? `${base}-${i}` : base,
        };
        Object.assign(body, a.meta);
        if (a.extraDnsLabels.length) body.extra_dns_labels = a.extraDnsLabels;
        out(await post(a.url, "/sim/enroll", body));
      }
      return;
    }
    case "meta":
      out(await post(a.url, `/sim/peers/${seg(need(a.peer, "--peer"))}/meta`, a.meta));
      return;
    case "connect":
    case "disconnect":
    case "login":
      out(await post(a.url, `/sim/peers/${seg(need(a.peer, "--peer"))}/${cmd}`));
      return;
    case "job": {
      const path = `/sim/peers/${seg(need(a.peer, "--peer"))}/jobs/${seg(need(a.job, "--job"))}`;
      if (sub === "complete")
        out(await post(a.url, `${path}/complete`, a.uploadKey ? { upload_key: a.uploadKey } : {}));
      else if (sub === "fail")
        out(await post(a.url, `${path}/fail`, { reason: a.reason ?? "simulated failure" }));
      else throw new UsageError(`sim job: expected complete or fail, got ${sub ?? "nothing"}`);
      return;
    }
    case "sweep":
      out(await post(a.url, "/sim/ephemeral/sweep"));
      return;
    case "proxy":
      if (sub === "register")
        out(
          await post(a.url, "/sim/proxies", {
            token: need(a.proxyToken, "--proxy-token (or PRIVNET_PROXY_TOKEN)"),
            address: need(a.address, "--address"),
          }),
        );
      else if (sub === "connect" || sub === "disconnect")
        out(await post(a.url, `/sim/proxies/${seg(need(a.proxy, "--proxy"))}/${sub}`));
      else
        throw new UsageError(`sim proxy: expected register, connect or disconnect, got ${sub ?? "nothing"}`);
      return;
    case "dns":
      out(await post(a.url, "/sim/dns", { name: need(a.name, "--name"), cname: need(a.cname, "--cname") }));
      return;
    case "llm": {
      for (const f of ["--model", "--input", "--output"]) need(a.llm[LLM_FLAGS[f]!.key], f);
      const body = { ...a.llm, ...(a.peer ? { peer: a.peer } : {}) };
      for (let i = 0; i < a.count; i++) out(await post(a.url, "/sim/llm", body));
      return;
    }
    default:
      throw new UsageError(cmd ? `unknown sim command ${cmd}` : "a command is required");
  }
}

/** Entry point of `privnet-server sim`; returns the exit code. */
export async function simMain(argv: string[]): Promise<number> {
  const out = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
  try {
    await run(parseSimArgs(argv), out);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) process.stderr.write(`privnet-server sim: ${err.message}\n`);
      process.stderr.write(`${USAGE}\n`);
      return err.message ? 2 : 0;
    }
    if (err instanceof SimError) {
      const status = err.status ? `${err.status} ` : "";
      process.stderr.write(`privnet-server sim: ${status}${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
