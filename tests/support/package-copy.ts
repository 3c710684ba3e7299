/**
 * Installs the BUILT package (dist/, bin/, package.json) into a throw-away Pulumi project directory as a COPY, the
 * way `npm install pulumi-privnet` from the registry would lay it out, without touching the network:
 *
 *   <dir>/Pulumi.yaml, <dir>/package.json                       (a minimal project, unless told not to)
 *   <dir>/node_modules/pulumi-privnet/{package.json,dist,bin}   real files, copied from the repo
 *   <dir>/node_modules/@pulumi/pulumi                           real files (hard links to the repo's copy)
 *   <dir>/node_modules/<dependency>  ->  <repo>/node_modules/<dependency>   symlinks (zod, undici, ...)
 *
 * Why the package must be a copy while its dependencies may be symlinks: Pulumi's closure serializer decides how
 * to capture a module from the module's REAL path (Node's require cache holds resolved real paths), taken
 * relative to the process's cwd. A path with a `node_modules` segment is captured as `require("<the part after
 * the first node_modules>")`; any other path is a "local module" and is copied into `__provider` BY VALUE,
 * deeply (the provider, its spec, the zod schemas, the client...). A symlinked dependency resolves to
 * `<repo>/node_modules/zod/...`: still under node_modules, so still one require. A symlinked pulumi-privnet would
 * resolve to `<repo>/dist/...`: local, serialized by value, which is exactly the trap the tests must catch.
 *
 * @pulumi/pulumi is real files in the project, as npm installs it: the closure serializer names a module by the
 * "exports" of the package it belongs to (pulumi-privnet's entry becomes `require("pulumi-privnet/provider")`),
 * and finds that package from its own location. The program, the serializer and the dynamic-provider host all
 * load the project's @pulumi/pulumi; every other package of the repo is linked so its dependencies resolve.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Absolute path of the repository root. */
export const repoRoot = path.resolve(__dirname, "..", "..");

/** The package's name (from package.json). */
export const PACKAGE_NAME = "pulumi-privnet";

interface PackageJson {
  name: string;
  files?: string[];
  dependencies?: Record<string, string>;
}

function readPackageJson(): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageJson;
}

/** Source directories compiled into dist/ by `npm run build` (tsconfig.build.json). */
const SOURCE_DIRS = [
  "api",
  "client",
  "server",
  "netmap",
  "model",
  "provider",
  "sdk",
  "importer",
  "plugin",
  "access",
  "policy",
  "scripts",
];

/** Source files newer than their compiled output (or without one): dist/ is stale when this is not empty. */
export function staleSources(): string[] {
  const stale: string[] = [];
  const walk = (rel: string): void => {
    const abs = path.join(repoRoot, rel);
    if (!fs.existsSync(abs)) return;
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules") walk(r);
      } else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) {
        const js = path.join(repoRoot, "dist", r.replace(/\.ts$/, ".js"));
        if (!fs.existsSync(js) || fs.statSync(js).mtimeMs < fs.statSync(path.join(repoRoot, r)).mtimeMs) {
          stale.push(r);
        }
      }
    }
  };
  for (const d of SOURCE_DIRS) walk(d);
  return stale;
}

/**
 * A lock between the processes of one test run (jest runs test files in parallel workers): one builds while the
 * others wait, and nobody copies dist/ while it is being rewritten. mkdir is atomic; a lock older than 10
 * minutes is taken to be left over from a killed run.
 */
function withBuildLock<T>(f: () => T): T {
  const lock = path.join(
    os.tmpdir(),
    `privnet-build-${Buffer.from(repoRoot).toString("hex").slice(-24)}.lock`,
  );
  const deadline = Date.now() + 10 * 60_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const tryLock = (): boolean => {
    try {
      fs.mkdirSync(lock);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      return false;
    }
  };
  while (!tryLock()) {
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > 10 * 60_000) fs.rmdirSync(lock);
    } catch {
      // Released meanwhile.
    }
    if (Date.now() > deadline) throw new Error(`package-copy: timed out waiting for ${lock}`);
    Atomics.wait(pause, 0, 0, 100); // a synchronous wait for the other process's build
  }
  try {
    return f();
  } finally {
    fs.rmdirSync(lock);
  }
}

/**
 * Runs `npm run build` when dist/ is older than the sources (`npm test` builds first, so normally this does
 * nothing). Checks at most once per process. Throws with the compiler output when the build fails.
 */
let built = false;
export function ensureBuilt(): void {
  if (!built) withBuildLock(buildIfStale);
}

function buildIfStale(): void {
  if (built) return;
  const stale = staleSources();
  if (stale.length > 0) {
    const env = {
      ...process.env,
      PATH: `${path.join(repoRoot, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    };
    try {
      execFileSync("npm", ["run", "--silent", "build"], {
        cwd: repoRoot,
        env,
        stdio: "pipe",
        timeout: 300_000,
      });
    } catch (err) {
      const e = err as { stdout?: Buffer; stderr?: Buffer; message: string };
      throw new Error(
        `npm run build failed (dist/ was stale: ${stale.slice(0, 5).join(", ")}${stale.length > 5 ? ", ..." : ""}): ` +
          `${e.message}\n${e.stdout?.toString() ?? ""}${e.stderr?.toString() ?? ""}`,
        { cause: err },
      );
    }
  }
  built = true;
}

export interface PackageCopyOptions {
  /** Project directory (created if missing); default: a new temp directory. */
  dir?: string;
  /** Pulumi project name, written to Pulumi.yaml and package.json (default "privnet-test"). */
  projectName?: string;
  /** Write Pulumi.yaml and package.json when absent (default true). */
  writeProject?: boolean;
  /** Build first if dist/ is stale (default true). */
  build?: boolean;
  /** More packages of the repo's node_modules to link into the project (e.g. "typescript", "ts-node"). */
  extraLinks?: string[];
  /**
   * "symlink": link the package to the repo instead of copying it, as `npm install <dir>` / workspaces would.
   * Only for negative controls: it is the layout whose serialized providers are wrong.
   */
  mode?: "copy" | "symlink";
}

export interface PackageCopy {
  /** The Pulumi project directory (cwd for the program and the dynamic-provider host). */
  dir: string;
  projectName: string;
  /** `<dir>/node_modules/pulumi-privnet`: real files. */
  packageDir: string;
  /** `<dir>/node_modules/@pulumi/pulumi` (real files: hard links to the repo's copy). */
  pulumiSdkDir: string;
  /** The dependency links made: name -> target. */
  links: Record<string, string>;
  /** Time taken by the copy, ms (without a build). */
  durationMs: number;
  /** Time taken by `npm run build`, ms (0: dist/ was up to date). */
  buildMs: number;
  /** Removes the directory (only if this call created it). */
  cleanup(): void;
}

/** The packages installed in the repo's node_modules (`zod`, `@grpc/grpc-js`, ...). */
function repoPackages(): string[] {
  const root = path.join(repoRoot, "node_modules");
  const names: string[] = [];
  for (const e of fs.readdirSync(root)) {
    if (e.startsWith(".")) continue;
    if (e.startsWith("@")) for (const s of fs.readdirSync(path.join(root, e))) names.push(`${e}/${s}`);
    else names.push(e);
  }
  return names;
}

function link(nodeModules: string, name: string): string {
  const target = path.join(repoRoot, "node_modules", name);
  if (!fs.existsSync(target)) {
    throw new Error(`package-copy: ${name} is not installed in ${path.join(repoRoot, "node_modules")}`);
  }
  const at = path.join(nodeModules, name);
  fs.mkdirSync(path.dirname(at), { recursive: true }); // the scope directory (@pulumi) is a real directory
  if (!fs.existsSync(at)) fs.symlinkSync(target, at, "dir");
  return target;
}

/** Removes a directory tree; symlinks in it are unlinked first, never followed (they point into the repo). */
function removeTree(p: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch {
    return;
  }
  if (st.isSymbolicLink() || !st.isDirectory()) {
    fs.unlinkSync(p);
    return;
  }
  for (const e of fs.readdirSync(p)) removeTree(path.join(p, e));
  fs.rmdirSync(p);
}

/** What `npm pack` ships: package.json plus "files" (dereferenced: no link may point back into the repo). */
function copyPackage(pkg: PackageJson, packageDir: string): void {
  fs.mkdirSync(packageDir, { recursive: true });
  fs.copyFileSync(path.join(repoRoot, "package.json"), path.join(packageDir, "package.json"));
  for (const entry of pkg.files ?? []) {
    const from = path.join(repoRoot, entry);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(packageDir, entry), { recursive: true, dereference: true });
  }
  if (!fs.existsSync(path.join(packageDir, "dist", "sdk", "index.js"))) {
    throw new Error("package-copy: dist/sdk/index.js missing: run `npm run build`");
  }
}

/** Installs the built package into a project directory as a copy (see the file comment). Takes ~50 ms. */
export function installPackageCopy(opts: PackageCopyOptions = {}): PackageCopy {
  return withBuildLock(() => {
    const t = Date.now();
    if (opts.build !== false) buildIfStale();
    return install(opts, Date.now() - t);
  });
}

function install(opts: PackageCopyOptions, buildMs: number): PackageCopy {
  const started = Date.now();
  const created = opts.dir === undefined;
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "privnet-project-"));
  fs.mkdirSync(dir, { recursive: true });
  const projectName = opts.projectName ?? "privnet-test";
  if (opts.writeProject !== false) {
    const yaml = path.join(dir, "Pulumi.yaml");
    if (!fs.existsSync(yaml)) fs.writeFileSync(yaml, `name: ${projectName}\nruntime: nodejs\n`);
    const pj = path.join(dir, "package.json");
    if (!fs.existsSync(pj)) {
      fs.writeFileSync(
        pj,
        `${JSON.stringify({ name: projectName, private: true, main: "index.js" }, null, 2)}\n`,
      );
    }
  }

  const pkg = readPackageJson();
  const nodeModules = path.join(dir, "node_modules");
  const packageDir = path.join(nodeModules, pkg.name);
  removeTree(packageDir);
  if (opts.mode === "symlink") {
    fs.mkdirSync(nodeModules, { recursive: true });
    fs.symlinkSync(repoRoot, packageDir, "dir");
  } else {
    copyPackage(pkg, packageDir);
  }

  // @pulumi/pulumi as real files, as npm installs it (hard links to the repo's copy): its closure serializer reads
  // the package.json "exports" of the package a serialized module belongs to, resolving that package from its own
  // location, which a symlink into the repo would put outside this project.
  const sdkDir = path.join(nodeModules, "@pulumi", "pulumi");
  removeTree(sdkDir);
  fs.mkdirSync(path.dirname(sdkDir), { recursive: true });
  const repoSdk = path.join(repoRoot, "node_modules", "@pulumi", "pulumi");
  try {
    execFileSync("cp", ["-al", repoSdk, sdkDir]);
  } catch {
    fs.cpSync(repoSdk, sdkDir, { recursive: true });
  }
  const links: Record<string, string> = {};
  for (const name of [...Object.keys(pkg.dependencies ?? {}), ...(opts.extraLinks ?? [])]) {
    if (name !== "@pulumi/pulumi") links[name] = link(nodeModules, name);
  }
  // Every other package of the repo, so the dependencies of that copy of @pulumi/pulumi resolve from here.
  for (const name of repoPackages()) {
    if (name !== pkg.name && name !== "@pulumi/pulumi" && !(name in links)) link(nodeModules, name);
  }

  return {
    dir,
    projectName,
    packageDir,
    pulumiSdkDir: path.join(nodeModules, "@pulumi", "pulumi"),
    links,
    durationMs: Date.now() - started,
    buildMs,
    cleanup: () => {
      if (created) removeTree(dir);
    },
  };
}
