/**
 * Where the access guard takes a relative testsFile from: the working directory of the nearest ancestor that is
 * the `pulumi` executable, as Linux's /proc shows it (a real process tree: a shell binary copied under the name
 * `pulumi`, started in a directory of its own, and a child of it), else PWD.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cliDirectory, procTable } from "../../policy/cli-directory";
import { testsFileOf } from "../../policy/config";

const linux = fs.existsSync("/proc/self/stat");
const onLinux = linux ? test : test.skip; // /proc is Linux's; elsewhere the walk is not tried (the PWD case below)

let dir = "";
let cli: ChildProcess | undefined;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-cli-dir-"));
});

afterAll(() => {
  if (cli?.pid !== undefined && cli.exitCode === null) cli.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

onLinux("/proc as it is: this process's parent, executable and directory", () => {
  const table = procTable()!;
  expect(table.parentOf(process.pid)).toBe(process.ppid);
  expect(table.executableOf(process.pid)).toBe(fs.realpathSync(process.execPath));
  expect(table.directoryOf(process.pid)).toBe(fs.realpathSync(process.cwd()));
});

onLinux("from a process under a `pulumi` executable, its working directory (not PWD)", async () => {
  const bin = path.join(dir, "bin");
  const project = path.join(dir, "project");
  fs.mkdirSync(bin);
  fs.mkdirSync(project);
  fs.copyFileSync("/bin/sh", path.join(bin, "pulumi"));
  fs.chmodSync(path.join(bin, "pulumi"), 0o755);
  // The "CLI" starts a child (as the CLI starts the language host) and says its pid.
  const child = spawn(path.join(bin, "pulumi"), ["-c", "sleep 60 & echo $!; wait"], {
    cwd: project,
    stdio: ["ignore", "pipe", "inherit"],
  });
  cli = child;
  const pid = await new Promise<number>((resolve) =>
    child.stdout!.once("data", (b: Buffer) => resolve(Number(b.toString().trim()))),
  );
  const env = { PWD: dir };
  expect(cliDirectory(env, procTable(), pid)).toEqual({
    dir: fs.realpathSync(project),
    from: "the pulumi CLI's working directory",
  });
  expect(testsFileOf({ testsFile: "t.yaml" }, env, () => cliDirectory(env, procTable(), pid))).toEqual({
    path: path.join(fs.realpathSync(project), "t.yaml"),
    relativeTo: { dir: fs.realpathSync(project), from: "the pulumi CLI's working directory" },
  });
  child.kill("SIGKILL");
  // Killing the shell leaves its child: stop it too.
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
});

test("no pulumi ancestor (or no /proc): PWD, else the pack's own directory", () => {
  expect(cliDirectory({ PWD: "/somewhere" }, procTable(), process.pid)).toEqual({
    dir: "/somewhere",
    from: "PWD",
  });
  expect(cliDirectory({}, undefined)).toEqual({ dir: process.cwd(), from: "the pack's directory" });
  expect(testsFileOf({ testsFile: "/abs/t.yaml" }, {})).toEqual({ path: "/abs/t.yaml" });
  expect(
    testsFileOf({}, { PRIVNET_ACCESS_TESTS: "t.yaml", PWD: "/p" }, () =>
      cliDirectory({ PWD: "/p" }, undefined),
    ),
  ).toEqual({
    path: "/p/t.yaml",
    relativeTo: { dir: "/p", from: "PWD" },
  });
  expect(testsFileOf({}, {})).toBeUndefined();
});
