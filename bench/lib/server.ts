/**
 * privnet-server as a separate process (`node bin/privnet-server`, the built server in dist/), the way a user
 * runs it: its own event loop and memory, so load and RSS measurements see only the server. Loopback only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../tests/e2e/engine";

export interface ServerProcessOptions {
  /** Working directory for the database, token file, logs (created if missing). */
  dir: string;
  /** Database file name inside `dir` (default privnet.db); an existing one is reopened. */
  db?: string;
  /** Request log file name inside `dir` (default requests.log); null: no request log. */
  requestLog?: string | null;
  cloud?: boolean;
  embeddedIdp?: boolean;
  simulate?: boolean;
  /** `--faults` value, e.g. `seed=7,429=0.2,503=0.1,latency=20`. */
  faults?: string;
  /** `--rate-limit` value, e.g. `120:1200` (the hosted limit). */
  rateLimit?: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** More privnet-server options, e.g. `["--synchronous", "normal"]`. */
  serverArgs?: string[];
  /** Node flags for the server process, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Label for error messages. */
  label?: string;
}

export interface ServerProcess {
  url: string;
  /** The owner PAT (from the token file written on the first start of the database). */
  token: string;
  pid: number;
  dir: string;
  dbFile: string;
  /** Absolute request log path, or undefined. */
  requestLog: string | undefined;
  /** Resident set size now and its peak (VmHWM), in MB, from /proc. */
  memory(): { rssMb: number; peakMb: number };
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
  stop(): Promise<void>;
  stderr(): string;
}

export async function startServerProcess(opts: ServerProcessOptions): Promise<ServerProcess> {
  fs.mkdirSync(opts.dir, { recursive: true });
  const dbFile = path.join(opts.dir, opts.db ?? "privnet.db");
  const tokenFile = path.join(opts.dir, "owner-token");
  const requestLog =
    opts.requestLog === null ? undefined : path.join(opts.dir, opts.requestLog ?? "requests.log");
  const args = [
    ...(opts.nodeArgs ?? []),
    path.join(repoRoot, "bin", "privnet-server"),
    "--host",
    "127.0.0.1",
    "--port",
    String(opts.port ?? 0),
    "--db",
    dbFile,
    "--bootstrap-token-file",
    tokenFile,
  ];
  if (requestLog) args.push("--request-log", requestLog);
  if (opts.cloud) args.push("--cloud");
  if (opts.embeddedIdp) args.push("--embedded-idp");
  if (opts.simulate) args.push("--simulate");
  if (opts.faults) args.push("--faults", opts.faults);
  if (opts.serverArgs) args.push(...opts.serverArgs);
  if (opts.rateLimit) args.push("--rate-limit", opts.rateLimit);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: opts.dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_OPTIONS: "", ...opts.env },
  });
  let err = "";
  child.stderr!.on("data", (b: Buffer) => {
    err = (err + b.toString("utf8")).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const label = opts.label ?? "privnet-server";
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => fail("did not print its address within 30 s"), 30_000);
    function fail(why: string): void {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${label} ${why}\n${err}`));
    }
    child.stdout!.on("data", (b: Buffer) => {
      out += b.toString("utf8");
      const m = /privnet-server listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once("exit", (code, signal) => fail(`exited (${code ?? signal})`));
  });
  child.stdout!.on("data", () => undefined);
  const token = fs.readFileSync(tokenFile, "utf8").trim();
  const pid = child.pid as number;
  return {
    url,
    token,
    pid,
    dir: opts.dir,
    dbFile,
    requestLog,
    memory() {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
      return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(t);
    },
    stderr: () => err,
  };
}

/** A minimal JSON caller for set-up requests (not measured): fetch with the owner token. */
export async function api<T = any>(
  server: { url: string; token: string },
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${server.url}${urlPath}`, {
    method,
    headers: {
      Authorization: `Token ${server.token}`,
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text.slice(0, 300)}`);
  return (text === "" ? undefined : JSON.parse(text)) as T;
}
