/**
 * CPU time from /proc (Linux), in ms. Wall time on a shared 2-core machine moves with whatever else runs; CPU
 * time of the processes involved does much less, so the benchmarks report both.
 *
 * - `childrenCpuMs()`: this process's reaped children (cutime + cstime), which includes their own reaped
 *   descendants: the delta around one `pulumi` run is the CPU of the CLI, the language host, the program and the
 *   dynamic-provider host together (the CLI waits for its plugins; no other child of ours exits meanwhile).
 * - `processCpuMs(pid)`: a running process's own CPU (utime + stime), e.g. the server's.
 */
import * as fs from "node:fs";
import * as os from "node:os";

const TICK_MS = 10; // CLK_TCK is 100 on Linux

function statFields(pid: number | "self"): string[] {
  const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may contain spaces: fields start after the last ")".
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** utime + stime of a process, ms. Fields 14 and 15 of /proc/PID/stat (index 11, 12 after the name). */
export function processCpuMs(pid: number | "self"): number {
  const f = statFields(pid);
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}

/** cutime + cstime of this process (reaped children), ms. */
export function childrenCpuMs(): number {
  const f = statFields("self");
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
}

/** The 1-minute load average and the core count, to show how busy the machine was. */
export function load(): { load1: number; cores: number } {
  return { load1: os.loadavg()[0] as number, cores: os.availableParallelism() };
}
