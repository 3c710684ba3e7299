/** What the benchmarks ran on: CPU, cores, RAM, Node, OS, date, git commit, engine version, load. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../tests/e2e/engine";

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  os: string;
  date: string;
  commit: string;
  pulumi: string;
  /** 1-, 5- and 15-minute load averages at the start. */
  loadAtStart: number[];
}

function run(cmd: string, args: string[], cwd = repoRoot): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 30_000,
    }).trim();
  } catch {
    return "";
  }
}

export function machine(binDir: string): Machine {
  const cpuinfo = fs.existsSync("/proc/cpuinfo") ? fs.readFileSync("/proc/cpuinfo", "utf8") : "";
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? "unknown";
  const osRelease = fs.existsSync("/etc/os-release") ? fs.readFileSync("/etc/os-release", "utf8") : "";
  const pretty = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(osRelease)?.[1] ?? os.type();
  const commit = run("git", ["rev-parse", "--short=12", "HEAD"]);
  const dirty = run("git", ["status", "--porcelain", "--untracked-files=no"]) !== "";
  return {
    cpu,
    cores: os.availableParallelism(),
    ramGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${pretty} (${os.type()} ${os.release()} ${os.arch()})`,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    commit: commit ? `${commit}${dirty ? " + uncommitted changes" : ""}` : "unknown",
    pulumi: run(path.join(binDir, "pulumi"), ["version"]) || "unknown",
    loadAtStart: os.loadavg().map((l) => Math.round(l * 10) / 10),
  };
}
