/**
 * Crash safety, the core of bench/crash/run.mts in one short round: 200 concurrent creates against the real CLI,
 * `kill -9` mid-flight, restart on the same SQLite file. Every create that was answered 2xx is there, none was
 * answered 5xx, and SQLite's integrity_check and quick_check say "ok". The bench runs the same code with 500
 * requests and three rounds.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { ensureBuilt, repoRoot } from "../support/package-copy";

interface CrashResult {
  sent: number;
  ok: number;
  present: number;
  missing: number;
  lost: number;
  r5xx: number;
  integrity: string;
  quickCheck: string;
  failures: string[];
}

function runBench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, "bench", "crash", "run.mts"), ...args],
      { timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("kill -9 during 200 concurrent creates loses no acknowledged write and leaves a sound file", async () => {
  ensureBuilt();
  const run = await runBench([
    "--requests",
    "200",
    "--rounds",
    "1",
    "--seed",
    "7",
    "--json",
    "--timeout",
    "50",
  ]);
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  let result: CrashResult;
  try {
    result = JSON.parse(line) as CrashResult;
  } catch {
    throw new Error(`no result line (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
  expect(result.failures).toEqual([]);
  expect(result.sent).toBe(200);
  // The kill really landed mid-flight: some creates were answered, some were not.
  expect(result.ok).toBeGreaterThan(0);
  expect(result.lost).toBeGreaterThan(0);
  expect(result.present).toBe(result.ok);
  expect(result.missing).toBe(0);
  expect(result.r5xx).toBe(0);
  expect(result.integrity).toBe("ok");
  expect(result.quickCheck).toBe("ok");
  expect(run.code).toBe(0);
}, 70_000);
