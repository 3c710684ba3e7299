/**
 * Killing a run as a CI runner that goes away kills it: SIGKILL to the process group of the process started (the
 * CLI, or an Automation API program) and to those of every process below it, at once. The engine starts its
 * plugins in process groups of their own, so killing only the first group would leave the provider running.
 */
import * as fs from "node:fs";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  /** Running, not a zombie (a zombie is dead: it only waits to be reaped). */
  running: boolean;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its closing parenthesis.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.push({ pid: Number(entry), ppid: Number(f[1]), pgid: Number(f[2]), running: f[0] !== "Z" });
  }
  return out;
}

/** `pid` and every process below it. */
function tree(pid: number): Proc[] {
  const all = processes();
  const found = all.filter((p) => p.pid === pid);
  for (let i = 0; i < found.length; i++)
    for (const p of all) if (p.ppid === (found[i] as Proc).pid && !found.includes(p)) found.push(p);
  return found;
}

/** SIGKILL to the process group of `pid` and of every process below it. Returns the processes killed. */
export function killAll(pid: number): number[] {
  const procs = tree(pid);
  for (const pgid of new Set([pid, ...procs.map((p) => p.pgid)])) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  return procs.map((p) => p.pid);
}

/** Which of `pids` still run. */
export function stillRunning(pids: number[]): number[] {
  const running = new Set(
    processes()
      .filter((p) => p.running)
      .map((p) => p.pid),
  );
  return pids.filter((p) => running.has(p));
}

/** What a killed run printed, and what was killed. */
export interface Killed<R> {
  result: R;
  /** Processes killed (the started one, the CLI, the language host or program, the plugin...). */
  killed: number[];
}

/**
 * Starts a run (`start` reports the started process's pid, which leads its own process group) and kills it with
 * {@link killAll} as soon as `ready()` holds (polled every `pollMs`), then waits until none of the killed processes
 * runs. Fails if the run ends before `ready()` held, or if it is not ready within `timeoutMs`.
 */
export async function killWhen<R>(
  start: (onSpawn: (pid: number) => void) => Promise<R>,
  ready: () => boolean | Promise<boolean>,
  opts: { timeoutMs: number; pollMs?: number; describe: (r: R) => string },
): Promise<Killed<R>> {
  let pid: number | undefined;
  let ended = false;
  const run = start((p) => (pid = p)).finally(() => (ended = true));
  const deadline = Date.now() + opts.timeoutMs;
  let wasReady = false;
  while (!ended && Date.now() < deadline) {
    if (await ready()) {
      wasReady = true;
      break;
    }
    await sleep(opts.pollMs ?? 20);
  }
  const killed = pid === undefined ? [] : killAll(pid);
  const result = await run;
  while (stillRunning(killed).length > 0 && Date.now() < deadline) await sleep(50);
  if (stillRunning(killed).length > 0)
    throw new Error(`still running after SIGKILL: ${stillRunning(killed)}`);
  if (!wasReady) throw new Error(`the run ended before the point to kill it at\n${opts.describe(result)}`);
  return { result, killed };
}

/**
 * Repairs what a kill can do to a file state backend (`file://` PULUMI_BACKEND_URL), as docs/interrupted-runs.md
 * tells users to: the backend writes a stack's `<stack>.json.attrs` beside its checkpoint by truncating it and then
 * writing it (gocloud.dev's fileblob, in CLI 3.259), so a SIGKILL between the two leaves it empty, and every later
 * command fails with `failed to load checkpoint: EOF`. The checkpoint itself is written whole (to a temporary file,
 * then renamed), so removing the empty attributes file is all it takes. Returns the files removed.
 */
export function repairFileBackend(backendUrl: string | undefined): string[] {
  if (!backendUrl?.startsWith("file://")) return [];
  const removed: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".json.attrs") && fs.statSync(p).size === 0) {
        fs.rmSync(p);
        removed.push(p);
      }
    }
  };
  const stacks = `${backendUrl.slice("file://".length)}/.pulumi/stacks`;
  if (fs.existsSync(stacks)) walk(stacks);
  if (removed.length > 0)
    process.stdout.write(`the kill left an empty stack attributes file; removed: ${removed.join(", ")}\n`);
  return removed;
}
