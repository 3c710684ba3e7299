/**
 * The directory the Pulumi CLI runs in, for the pack's relative paths.
 *
 * The CLI reads `--policy-pack-config FILE` relative to its own working directory: the directory of `--cwd DIR`
 * when given (the CLI changes into it before anything else), the workspace directory under the Automation API,
 * else where it was started. The pack runs elsewhere: the language host starts it in the pack's own directory, and
 * the environment it inherits still says the shell's `PWD` (changing directory does not change that variable). So
 * the pack asks the operating system: on Linux, `/proc` names each process's parent, executable and working
 * directory; the nearest ancestor that is the `pulumi` executable is the CLI. Where there is no `/proc` (macOS,
 * Windows) or no such ancestor, the shell's `PWD` is the best answer left, else the pack's own directory.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** What the pack may learn about a process. */
export interface ProcessTable {
  parentOf(pid: number): number | undefined;
  executableOf(pid: number): string | undefined;
  directoryOf(pid: number): string | undefined;
}

/** The processes as `/proc` (Linux) shows them; undefined where there is no `/proc`. */
export function procTable(root = "/proc"): ProcessTable | undefined {
  if (!fs.existsSync(path.join(root, "self", "stat"))) return undefined;
  const link = (pid: number, what: string): string | undefined => {
    try {
      // A link to a binary replaced since it started reads "<path> (deleted)".
      return fs.readlinkSync(path.join(root, String(pid), what)).replace(/ \(deleted\)$/, "");
    } catch {
      return undefined;
    }
  };
  return {
    parentOf(pid) {
      try {
        const stat = fs.readFileSync(path.join(root, String(pid), "stat"), "utf8");
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ")".
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
      } catch {
        return undefined;
      }
    },
    executableOf: (pid) => link(pid, "exe"),
    directoryOf: (pid) => link(pid, "cwd"),
  };
}

const CLI_NAMES = new Set(["pulumi", "pulumi.exe"]);

/** How far up the pack looks: pack, language host, (a launcher script), CLI; a few more for wrappers. */
const MAX_DEPTH = 8;

export interface CliDirectory {
  dir: string;
  /** How it was found, for messages: `the pulumi CLI's working directory`, `PWD`, `the pack's directory`. */
  from: string;
}

/** The Pulumi CLI's working directory, from the nearest ancestor that is the CLI (see the file comment). */
export function cliDirectory(
  env: NodeJS.ProcessEnv,
  table: ProcessTable | undefined = procTable(),
  start: number = process.ppid,
): CliDirectory {
  let pid: number | undefined = start;
  for (let depth = 0; table && pid !== undefined && pid > 1 && depth < MAX_DEPTH; depth++) {
    const exe = table.executableOf(pid);
    if (exe && CLI_NAMES.has(path.basename(exe))) {
      const dir = table.directoryOf(pid);
      if (dir) return { dir, from: "the pulumi CLI's working directory" };
      break;
    }
    pid = table.parentOf(pid);
  }
  if (env.PWD) return { dir: env.PWD, from: "PWD" };
  return { dir: process.cwd(), from: "the pack's directory" };
}
