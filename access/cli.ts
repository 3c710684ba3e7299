/**
 * `privnet-access`: who can reach what in an account, now and after a stack's pending change (docs/access.md).
 *
 *   privnet-access show [--peer NAME|IP] [--format text|json|html] [--json]
 *   privnet-access test --tests FILE [--json]
 *   privnet-access diff --cwd DIR --stack NAME [--tests FILE] [--json]
 *
 * Every verb takes `--api-url URL` (default PRIVNET_API_URL; for diff, also the stack's `privnet:apiUrl`) and
 * `--token-file FILE` (default PRIVNET_TOKEN; for diff, also the stack's `privnet:token`). The token is never
 * printed or written. Progress goes to stderr, results to stdout.
 *
 * Exit codes: 0 done (tests passed); 1 an access test failed; 2 bad input (arguments, a tests file that does
 * not validate, a project that does not exist); 3 the account or the stack could not be read or run (server
 * unreachable, token rejected, stack with pending operations, the program failed against the twin).
 */
import * as fs from "node:fs";
import { visibleText } from "../api/common";
import { isNotFound, PrivnetClient } from "../client";
import { readToken } from "../importer/cli";
import { displayUrl, ImportError } from "../importer/read";
import { readLiveObjects } from "./live";
import type { Seed } from "../server";
import {
  parseTests,
  resultsText,
  runTests,
  TestsFileError,
  type AccessTest,
  type TestResult,
} from "./expectations";
import { diffAccess, diffText, type AccessDiff } from "./diff";
import { renderHtml } from "./html";
import {
  accessLines,
  accountOf,
  groupsByPeer,
  lineText,
  publishedFor,
  publishedLines,
  publishedText,
  undecided,
  type Account,
  type AccessLine,
  type PublishedLine,
} from "./report";
import { AGENT_NETWORK_KINDS, readSnapshot, snapshotOf, SNAPSHOT_KINDS } from "./snapshot";
import { llmLineText, llmRuleText, llmShowText, llmView, modelsText, type LlmView } from "./llm";
import { checkProject, readStack, runAgainstTwin, startTwin } from "./twin";

export const USAGE = `usage: privnet-access show|test|diff [options]
  show                     what every peer reaches now (peers and network resources, traffic, policy and rule)
    --peer NAME|IP         only this peer
    --format text|json|html  html: one page with a picture of groups, peers and the access between them
  test --tests FILE        check access tests (YAML or JSON: docs/access.md) against the account now
  diff --cwd DIR --stack NAME [--tests FILE]
                           what the stack's pending change grants and withdraws, computed offline: the program
                           runs against an in-memory clone of the account; with --tests, checks them after it
common options:
  --api-url URL            the management API (default: PRIVNET_API_URL; diff: also the stack's privnet:apiUrl)
  --token-file FILE        a file holding the API token (default: PRIVNET_TOKEN; diff: also privnet:token)
  --json                   machine-readable output (same as --format json)
exit codes: 0 ok, 1 an access test failed, 2 bad input, 3 the account or stack could not be read or run`;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** The clock expirations are evaluated at (ms); default Date.now. */
  now?: () => number;
}

export interface Options {
  verb: "show" | "test" | "diff";
  apiUrl?: string;
  tokenFile?: string;
  peer?: string;
  format: "text" | "json" | "html";
  tests?: string;
  cwd?: string;
  stack?: string;
}

const usage = (m: string) => new ImportError(m, 2);

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Options | "help" {
  const [verb, ...rest] = argv;
  if (verb === "-h" || verb === "--help" || verb === "help") return "help";
  if (verb !== "show" && verb !== "test" && verb !== "diff")
    throw usage(
      verb === undefined
        ? "a verb is required: show, test or diff"
        : `unknown verb ${JSON.stringify(verb)}: use show, test or diff`,
    );
  const o: Options = { verb, format: "text", apiUrl: env.PRIVNET_API_URL || undefined };
  const allowed: Record<Options["verb"], string[]> = {
    show: ["--peer", "--format"],
    test: ["--tests"],
    diff: ["--cwd", "--stack", "--tests"],
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined || (inline === undefined && v.startsWith("--")))
        throw usage(`${flag} needs a value`);
      return v;
    };
    if (flag === "-h" || flag === "--help") return "help";
    const common = ["--api-url", "--token-file", "--json"];
    if (!common.includes(flag) && !allowed[verb].includes(flag))
      throw usage(`${verb}: unknown argument ${JSON.stringify(arg)}`);
    switch (flag) {
      case "--api-url":
        o.apiUrl = value();
        break;
      case "--token-file":
        o.tokenFile = value();
        break;
      case "--json":
        o.format = "json";
        break;
      case "--format": {
        const f = value();
        if (f !== "text" && f !== "json" && f !== "html")
          throw usage(`--format: expected text, json or html, got ${JSON.stringify(f)}`);
        o.format = f;
        break;
      }
      case "--peer":
        o.peer = value();
        break;
      case "--tests":
        o.tests = value();
        break;
      case "--cwd":
        o.cwd = value();
        break;
      case "--stack":
        o.stack = value();
        break;
    }
  }
  if (verb === "test" && !o.tests) throw usage("test: --tests FILE is required");
  if (verb === "diff" && !o.cwd) throw usage("diff: --cwd DIR (the Pulumi project) is required");
  if (verb === "diff" && !o.stack) throw usage("diff: --stack NAME is required");
  if (o.apiUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(o.apiUrl))
    throw usage(
      `--api-url must be an http(s) URL such as http://127.0.0.1:8080, got ${JSON.stringify(displayUrl(o.apiUrl))}`,
    );
  if (o.apiUrl) o.apiUrl = o.apiUrl.replace(/\/+$/, "");
  return o;
}

/** Reads and validates the tests file (before anything is read from the account). */
function loadTests(file: string): AccessTest[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw usage(`--tests ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return parseTests(text, file);
}

interface Live {
  account: Account;
  seed: Seed;
  requests: number;
}

/** Reads the account behind `apiUrl` with the importer's reader (one list per kind), reporting progress. */
async function readLive(
  apiUrl: string,
  token: string,
  io: Io,
  progress: (l: string) => void,
  kinds: string[],
  tokenHint?: string,
): Promise<Live> {
  const read = await readLiveObjects(apiUrl, token, kinds, progress, tokenHint);
  const now = io.now?.() ?? Date.now();
  const snapshot = snapshotOf(read.objects, now);
  const seed: Seed = {
    version: 1,
    // The provider catalog is the server's own, not the account's: the twin has it.
    objects: Object.fromEntries([...read.objects].filter(([k]) => k !== "AgentNetworkCatalog")),
  };
  return { account: accountOf(snapshot, read.users), seed, requests: read.requests };
}

function resolvePeer(account: Account, name: string): string {
  const p =
    account.snapshot.peers.find((x) => x.name === name) ??
    account.snapshot.peers.find((x) => x.ip === name || x.dns_label === name || x.id === name);
  if (!p)
    throw usage(`--peer: no peer ${JSON.stringify(name)} in the account (by name, IP, DNS label or id)`);
  return p.id;
}

/** Lines by the peer they start from. */
function byPeerOf(lines: readonly AccessLine[]): Map<string, AccessLine[]> {
  const byPeer = new Map<string, AccessLine[]>();
  for (const l of lines) {
    const list = byPeer.get(l.from.id);
    if (list) list.push(l);
    else byPeer.set(l.from.id, [l]);
  }
  return byPeer;
}

/** The text of `show`: per peer, its groups and every line of what it reaches; then what services publish. */
export function showText(
  account: Account,
  lines: readonly AccessLine[],
  peerIds: readonly string[],
  published: readonly PublishedLine[] = [],
  llm?: LlmView,
): string {
  const groups = groupsByPeer(account.snapshot);
  const byPeer = byPeerOf(lines);
  const out: string[] = [];
  for (const id of peerIds) {
    const pm = account.map.peerMap(id);
    if (!pm) continue;
    const g = groups.get(id) ?? [];
    const status =
      pm.status === "ok" ? "" : ` [${pm.status}${pm.status_reason ? `: ${pm.status_reason}` : ""}]`;
    out.push(`${pm.name} (${pm.ip})${g.length ? ` groups: ${g.join(", ")}` : ""}${status}`);
    const mine = byPeer.get(id) ?? [];
    if (!mine.length) out.push("  reaches nothing");
    for (const l of mine) out.push(`  ${lineText(l).slice(l.from.name.length + 1)}`);
  }
  const u = undecided(account, peerIds);
  if (u.length) {
    out.push(
      "",
      "Cannot decide (posture checks on metadata only the agent reports; lines above marked [only if ...]):",
    );
    for (const x of u) out.push(`  ${x}`);
  }
  if (published.length) {
    out.push(
      "",
      "Published through reverse proxies (reachable from outside the network, or by the groups named):",
    );
    for (const l of published) out.push(`  ${publishedText(l).slice("published: ".length)}`);
  }
  out.push(...llmShowText(llm));
  const peers = new Set(lines.map((l) => l.from.id)).size;
  out.push(
    "",
    `${lines.length} access line${lines.length === 1 ? "" : "s"} from ${peers} of ${peerIds.length} peers` +
      (published.length ? `; ${published.length} target${published.length === 1 ? "" : "s"} published` : "") +
      (llm?.lines.length ? `; ${llm.lines.length} LLM grant${llm.lines.length === 1 ? "" : "s"}` : ""),
  );
  return `${out.join("\n")}\n`;
}

function showJson(
  account: Account,
  lines: readonly AccessLine[],
  peerIds: readonly string[],
  published: readonly PublishedLine[],
  llm: LlmView | undefined,
): unknown {
  const groups = groupsByPeer(account.snapshot);
  const byPeer = byPeerOf(lines);
  return {
    peers: peerIds.map((id) => {
      const pm = account.map.peerMap(id);
      return {
        id,
        name: pm?.name,
        ip: pm?.ip,
        status: pm?.status,
        groups: groups.get(id) ?? [],
        reaches: (byPeer.get(id) ?? []).map(({ from: _f, ...rest }) => rest),
      };
    }),
    cannot_decide: undecided(account, peerIds),
    published: published.map((l) => ({ ...l, text: publishedText(l) })),
    ...(llm
      ? {
          llm: {
            endpoint: llm.endpoint,
            grants: llm.lines.map((l) => ({
              ...l,
              models_text: modelsText(l.models, Infinity),
              text: llmLineText(l),
            })),
            budget_rules: llm.rules.map((r) => ({ ...r, text: llmRuleText(r) })),
          },
        }
      : {}),
  };
}

function testsJson(results: readonly TestResult[]) {
  return {
    passed: results.filter((r) => r.passed).length,
    failed: results.filter((r) => !r.passed).length,
    results,
  };
}

/** What show and test read: the map's kinds and the Agent Network. */
const SHOW_KINDS = [...SNAPSHOT_KINDS, ...AGENT_NETWORK_KINDS];

async function show(o: Options, io: Io, token: string, progress: (l: string) => void): Promise<number> {
  const live = await readLive(o.apiUrl as string, token, io, progress, SHOW_KINDS);
  progress("computing the network map");
  const peerIds = o.peer ? [resolvePeer(live.account, o.peer)] : live.account.map.peerIds();
  const lines = accessLines(live.account, peerIds);
  const all = publishedLines(live.account);
  const published = o.peer ? publishedFor(all, peerIds) : all;
  const llm = llmOf(live.account, o.peer ? peerIds : undefined);
  if (o.format === "json")
    io.stdout(`${JSON.stringify(showJson(live.account, lines, peerIds, published, llm), null, 2)}\n`);
  else if (o.format === "html")
    io.stdout(renderHtml(live.account, lines, { title: displayUrl(o.apiUrl as string), published, llm }));
  else io.stdout(showText(live.account, lines, peerIds, published, llm));
  return 0;
}

async function test(o: Options, io: Io, token: string, progress: (l: string) => void): Promise<number> {
  const tests = loadTests(o.tests as string);
  const live = await readLive(o.apiUrl as string, token, io, progress, SHOW_KINDS);
  progress(`checking ${tests.length} access test${tests.length === 1 ? "" : "s"}`);
  const results = runTests(live.account, tests);
  if (o.format === "json") io.stdout(`${JSON.stringify(testsJson(results), null, 2)}\n`);
  else io.stdout(resultsText(results));
  return results.every((r) => r.passed) ? 0 : 1;
}

async function diff(o: Options, io: Io, progress: (l: string) => void): Promise<number> {
  const cwd = o.cwd as string;
  const stack = o.stack as string;
  checkProject(cwd);
  const tests = o.tests ? loadTests(o.tests) : undefined;
  progress(`reading stack ${stack} (pulumi stack export, pulumi config)`);
  const t0 = Date.now();
  const timings: Record<string, number> = {};
  const lap = (k: string, since: number) => (timings[k] = Date.now() - since);
  const read = await readStack(cwd, stack, io.env);
  lap("read_stack", t0);
  const cfg = (k: string) => read.config[k]?.value;
  const apiUrl = o.apiUrl ?? cfg("privnet:apiUrl");
  if (!apiUrl)
    throw usage("diff: no API URL: pass --api-url, set PRIVNET_API_URL, or set privnet:apiUrl in the stack");
  const fromStack = !(o.tokenFile !== undefined || io.env.PRIVNET_TOKEN);
  const token = fromStack ? cfg("privnet:token") : readToken(o, io.env);
  if (!token)
    throw usage(
      "diff: no API token: pass --token-file, set PRIVNET_TOKEN, or set privnet:token in the stack",
    );
  let t = Date.now();
  const live = await readLive(
    apiUrl,
    token,
    io,
    progress,
    [...SNAPSHOT_KINDS, ...AGENT_NETWORK_KINDS, "DnsRecord", "ReverseProxyDomain"],
    fromStack ? "check the stack's privnet:token (or pass --token-file, or set PRIVNET_TOKEN)" : undefined,
  );
  const clusters = await proxyClusters(apiUrl, token);
  lap("read_account", t);
  progress("cloning the account into the offline twin");
  t = Date.now();
  const twin = await startTwin(live.seed, clusters);
  let before: Account;
  let after: Account;
  try {
    const client = new PrivnetClient({ apiUrl: twin.twin.url, token: twin.token, rateLimit: false });
    try {
      const now = io.now?.() ?? Date.now();
      before = accountOf(await readSnapshot(client, now), live.account.users);
      lap("clone", t);
      t = Date.now();
      timings.program = await runAgainstTwin({
        cwd,
        stack,
        read,
        twinUrl: twin.twin.url,
        twinToken: twin.token,
        env: io.env,
        progress,
      });
      lap("stack_copy_and_program", t);
      progress("computing both maps");
      t = Date.now();
      after = accountOf(await readSnapshot(client, now), live.account.users);
    } finally {
      await client.close();
    }
  } finally {
    await twin.close();
  }
  const d = diffAccess(before, after);
  const results = tests ? runTests(after, tests) : undefined;
  lap("compute", t);
  timings.total = Date.now() - t0;
  progress(
    `done in ${(timings.total / 1000).toFixed(1)} s (the program's pulumi up: ${((timings.program ?? 0) / 1000).toFixed(1)} s)`,
  );
  if (o.format === "json")
    io.stdout(`${JSON.stringify({ ...diffJson(d, results), timings_ms: timings }, null, 2)}\n`);
  else {
    io.stdout(diffText(d));
    if (results) io.stdout(`\nAccess tests after the change:\n${resultsText(results)}`);
  }
  return results && !results.every((r) => r.passed) ? 1 : 0;
}

/** The LLM view of an account; with `peerIds`, only the grants to groups those peers are in (and All). */
function llmOf(account: Account, peerIds?: readonly string[]): LlmView | undefined {
  const v = llmView(account.snapshot, account.users);
  if (!v || !peerIds) return v;
  const s = account.snapshot;
  const mine = new Set(
    s.groups.filter((g) => g.all || peerIds.some((p) => g.peers.includes(p))).map((g) => g.id),
  );
  const users = new Set(peerIds.map((p) => s.peers.find((x) => x.id === p)?.user_id || p));
  return {
    ...v,
    lines: v.lines.filter((l) => mine.has(l.group.id)),
    rules: v.rules.filter(
      (r) =>
        (!r.groups.length && !r.users.length) ||
        r.groups.some((g) => mine.has(g.id)) ||
        r.users.some((u) => users.has(u.id)),
    ),
  };
}

/** The addresses of the account's proxy clusters (none on a server without reverse proxies). */
async function proxyClusters(apiUrl: string, token: string): Promise<string[]> {
  const client = new PrivnetClient({ apiUrl, token });
  try {
    const list = (await client.call<{ address?: unknown }[] | null>("listProxyClusters")) ?? [];
    return [...new Set(list.map((c) => String(c.address ?? "")).filter(Boolean))];
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  } finally {
    await client.close();
  }
}

function diffJson(d: AccessDiff, results: readonly TestResult[] | undefined) {
  return { ...d, ...(results ? { tests: testsJson(results) } : {}) };
}

/** Runs the command; returns the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  try {
    const o = parseArgs(argv, io.env);
    if (o === "help") {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const progress = (l: string) => io.stderr(`privnet-access: ${l}\n`);
    if (o.verb === "diff") return await diff(o, io, progress);
    if (!o.apiUrl) throw usage("--api-url is required (or set PRIVNET_API_URL)");
    if (o.verb === "test" && o.tests) loadTests(o.tests); // a broken file fails before any request
    const token = readToken(o, io.env);
    return o.verb === "show" ? await show(o, io, token, progress) : await test(o, io, token, progress);
  } catch (err) {
    if (err instanceof TestsFileError) {
      io.stderr(`privnet-access: ${err.message}\n`);
      return 2;
    }
    if (err instanceof ImportError) {
      const hint = err.exitCode === 2 ? " (privnet-access --help shows the usage)" : "";
      io.stderr(`privnet-access: ${err.message}${hint}\n`);
      return err.exitCode === 2 ? 2 : 3;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`privnet-access: ${message.replace(/^privnet(-access)?: /, "")}\n`);
    return 3;
  }
}

export async function main(argv: string[]): Promise<void> {
  process.exitCode = await run(argv, {
    // Names come from the account as stored: control and bidi characters print escaped, never acting.
    stdout: (t) => process.stdout.write(visibleText(t)),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
  });
}
