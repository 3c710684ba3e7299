/**
 * 1,000 resources under the hosted rate limit: `pulumi up` from scratch, `preview` unchanged, `refresh` (plain:
 * its preview pass and the refresh), `preview --refresh` and `destroy` of bench/programs/many.js (groups,
 * networks, setup keys: kinds whose create is one request), in that order, as a user would run them, against
 * `privnet-server --rate-limit 120:1200` (one server per run, so each run starts with a full burst and the
 * commands after `up` find what it left), with batched reads and with `privnet:batchReads false`. The same
 * sequences with no limit anywhere (server without `--rate-limit`, `privnet:rateLimit off`) are the reference for
 * the wall-time targets.
 *
 * Per command: wall time, API requests the server answered (from its request log: lists, reads by id, writes),
 * the 429s it answered (each retried by the client), the provider's pacing notes in the CLI's output, and after
 * `up` and `destroy` the program's resources in the state (failed resources = the count minus those after `up`).
 * `preview` and `preview --refresh` run with `--expect-no-changes`: a non-zero exit would mean drift.
 */
import * as path from "node:path";
import { load } from "./lib/cpu";
import { progress } from "./lib/progress";
import { createProject, stateResources } from "./lib/project";
import { RequestLog, type LogEntry } from "./lib/request-log";
import { startServerProcess } from "./lib/server";

export const COMMANDS = ["up", "preview", "refresh", "preview --refresh", "destroy"] as const;
export type Command = (typeof COMMANDS)[number];

const ARGS: Record<Command, { args: string[]; yes?: boolean }> = {
  up: { args: ["up"], yes: true },
  preview: { args: ["preview", "--expect-no-changes"] },
  refresh: { args: ["refresh"], yes: true },
  "preview --refresh": { args: ["preview", "--refresh", "--expect-no-changes"] },
  destroy: { args: ["destroy"], yes: true },
};

/** Read passes per command: a plain refresh previews (reads all) and then refreshes (reads all again). */
export const READ_PASSES: Record<Command, number> = {
  up: 0,
  preview: 0,
  refresh: 2,
  "preview --refresh": 1,
  destroy: 0,
};

/** The hosted limit, as privnet-server enforces it. */
export const HOSTED_LIMIT = "120:1200";

export interface CommandFigures {
  command: Command;
  wallMs: number;
  exitCode: number | null;
  /** Requests the server answered (429s not counted). */
  requests: number;
  /** Of those: GETs of a collection, GETs of one object, anything but a GET. */
  lists: number;
  byId: number;
  writes: number;
  /** Requests the server refused with 429 (the client retried them). */
  limited: number;
  /** Distinct pacing notes of the provider in the CLI's output. */
  notes: number;
  /** After up and destroy: the program's resources in the state. */
  inState?: number;
  /** 1-minute load average at the start. */
  load1: number;
}

export interface LargeRun {
  /** The server's `--rate-limit` (and the client's bucket), or "off" for both. */
  rateLimit: string;
  batchReads: boolean;
  commands: CommandFigures[];
}

export interface LargeResult {
  count: number;
  kinds: Record<string, number>;
  runs: LargeRun[];
}

/** Resources of many.js per kind for `count`. */
export function kindsOf(count: number): Record<string, number> {
  const groups = Math.ceil(count / 2);
  const networks = Math.floor(count / 4);
  return { Group: groups, Network: networks, SetupKey: count - groups - networks };
}

/** How a request counts: a list (a GET of a collection), a read by id, a write. */
function classify(
  entries: LogEntry[],
): Pick<CommandFigures, "requests" | "lists" | "byId" | "writes" | "limited"> {
  const api = entries.filter((e) => e.route.startsWith("/api/"));
  const answered = api.filter((e) => e.status !== 429);
  const gets = answered.filter((e) => e.method === "GET");
  return {
    requests: answered.length,
    lists: gets.filter((e) => !e.route.endsWith("}")).length,
    byId: gets.filter((e) => e.route.endsWith("}")).length,
    writes: answered.length - gets.length,
    limited: api.length - answered.length,
  };
}

const NOTE = /privnet: pacing requests to the API rate limit[^\n]*/g;

export async function runLarge(opts: {
  workDir: string;
  binDir: string;
  count?: number;
  /** Upper bound of one command (the unbatched refresh under the limit waits for most of its 2,000 requests). */
  commandTimeoutMs?: number;
}): Promise<LargeResult> {
  const S = "large";
  const count = opts.count ?? 1000;
  const result: LargeResult = { count, kinds: kindsOf(count), runs: [] };
  const plan: { rateLimit: string; batchReads: boolean }[] = [
    { rateLimit: "off", batchReads: true },
    { rateLimit: "off", batchReads: false },
    { rateLimit: HOSTED_LIMIT, batchReads: true },
    { rateLimit: HOSTED_LIMIT, batchReads: false },
  ];
  for (const { rateLimit, batchReads } of plan) {
    const label = `${rateLimit === "off" ? "nolimit" : "limit"}-${batchReads ? "batched" : "byid"}`;
    const server = await startServerProcess({
      dir: path.join(opts.workDir, `large-${label}-server`),
      ...(rateLimit === "off" ? {} : { rateLimit }),
    });
    const run: LargeRun = { rateLimit, batchReads, commands: [] };
    result.runs.push(run);
    try {
      const project = await createProject({
        workDir: opts.workDir,
        name: `bench-large-${label}`,
        program: "many.js",
        binDir: opts.binDir,
        server,
      });
      project.setInput({ count, prefix: label });
      // The provider's bucket matches the server's limit (its default is the hosted one); "off" disables both.
      if (rateLimit === "off") await project.pulumi(["config", "set", "privnet:rateLimit", "off"]);
      if (!batchReads) await project.pulumi(["config", "set", "privnet:batchReads", "false"]);
      const log = new RequestLog(server.requestLog as string, server);
      await log.mark();
      progress(S, `${label}: ${count} resources, server ${server.url}, --rate-limit ${rateLimit}`);
      for (const command of COMMANDS) {
        const { args, yes } = ARGS[command];
        const load1 = load().load1;
        const r = await project.pulumi(args, {
          yes,
          allowFail: true,
          timeoutMs: opts.commandTimeoutMs ?? 45 * 60_000,
        });
        const figures: CommandFigures = {
          command,
          wallMs: r.durationMs,
          exitCode: r.code,
          ...classify(await log.take(60_000)),
          notes: new Set(`${r.stdout}\n${r.stderr}`.match(NOTE) ?? []).size,
          load1,
        };
        if (command === "up" || command === "destroy")
          figures.inState = (await stateResources(project)).length;
        run.commands.push(figures);
        progress(
          S,
          `${label} ${command}: ${(r.durationMs / 1000).toFixed(1)} s, exit ${r.code}, ${figures.requests} ` +
            `requests (${figures.lists} lists, ${figures.byId} by id, ${figures.writes} writes), ` +
            `${figures.limited} x 429, ${figures.notes} pacing notes` +
            `${figures.inState === undefined ? "" : `, ${figures.inState} in state`}; load ${load1.toFixed(1)}`,
        );
        if (r.code !== 0) {
          const tail = `${r.stdout}\n${r.stderr}`
            .split("\n")
            .filter((l) => l.trim())
            .slice(-15)
            .join("\n");
          progress(S, `${label} ${command} exited ${r.code}:\n${tail}`);
        }
      }
    } finally {
      await server.stop();
    }
  }
  return result;
}
