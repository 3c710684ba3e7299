/**
 * The plugin process's first module (`bin/pulumi-resource-privnet` runs it): it runs `dist/plugin/bundle.js` (the
 * plugin in one file, scripts/bundle-plugin.js) with a V8 code cache.
 *
 * Why: the engine waits for the plugin at every command, and most of the plugin's start is V8 compiling the
 * functions that load the provider (zod schemas, the route table, gRPC) and serve the first calls. Node's own
 * compile cache keeps only what is compiled before a module runs; this keeps what is compiled while the plugin
 * starts and serves its first calls (`vm.Script#createCachedData` a second after its first resource call, or at
 * exit when the command is shorter), so the next start skips that work (bench/README.md, "plugin start-up").
 *
 * The cache is an optimisation only: V8 rejects a cache made from other source or by another Node, and then (or
 * without a cache) the bundle is compiled as usual and a new cache is written. It lives in a directory only this
 * user can write (`$PRIVNET_PLUGIN_CACHE`, else `<tmpdir>/pulumi-privnet-<uid>`, made 0700): a cache file or
 * directory another user could have written is never read or written. Nothing in it is a secret (compiled code of
 * the package, no values).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import Module, { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import { WARM_EVENT } from "./warm";

/**
 * The cache is taken this long after the plugin's first served resource call ({@link WARM_EVENT}), or when the
 * process exits if that comes first: by then it has loaded the provider and served calls, so their code is
 * compiled. A process that serves none (the one a language host starts for the schema) writes nothing.
 */
const CACHE_AFTER_MS = 1_000;

/**
 * Each build of the package (and each Node) has a cache of its own (~2 MB), so old ones would pile up in the
 * directory: when a cache is written, the others of this directory unused for this long are removed (a cache in
 * use has its time refreshed once a day), as are temporary files a crashed write left.
 */
const STALE_MS = 7 * 24 * 3600_000;
const TOUCH_AFTER_MS = 24 * 3600_000;

function uid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

/** Whether `p` (file or directory) is this user's and nobody else can write it. */
function isPrivate(p: string): boolean {
  const st = fs.lstatSync(p);
  const me = uid();
  return !st.isSymbolicLink() && (me === undefined || st.uid === me) && (st.mode & 0o022) === 0;
}

/** The cache directory, made if missing; undefined when it cannot be trusted or made. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.PRIVNET_PLUGIN_CACHE || path.join(os.tmpdir(), `pulumi-privnet-${uid() ?? "user"}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return isPrivate(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the bundle; returns whether a cache was used (for tests and the bench). */
export function boot(bundle = path.join(__dirname, "bundle.js")): { cacheUsed: boolean; cacheFile?: string } {
  const source = fs.readFileSync(bundle, "utf8");
  const dir = cacheDir();
  const key = createHash("sha256")
    .update(`${process.version}\0${process.arch}\0${process.execArgv.join(" ")}\0`)
    .update(source)
    .digest("hex")
    .slice(0, 24);
  const file = dir ? path.join(dir, `plugin-${key}.v8cache`) : undefined;
  let cachedData: Buffer | undefined;
  try {
    if (file && fs.existsSync(file) && isPrivate(file)) cachedData = fs.readFileSync(file);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script((Module as unknown as { wrap(s: string): string }).wrap(source), {
    filename: bundle,
    cachedData,
  });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  if (file && cacheUsed) keepFresh(file);
  if (file && !cacheUsed) {
    // Taken once the plugin is warm; the timer never keeps the process alive, and a failure only means no cache.
    // A short command (a small stack) stops the plugin before the timer: then the cache is taken as the process
    // exits (`exit` handlers run synchronously, and the engine waits for the exit), so that its next start has one.
    let taken = false;
    const take = () => {
      if (taken) return;
      taken = true;
      writeCache(script, file);
    };
    process.once(WARM_EVENT, () => {
      setTimeout(take, CACHE_AFTER_MS).unref();
      process.once("exit", take);
    });
  }
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  const mod = { exports: {}, filename: bundle, id: bundle };
  run.call(mod.exports, mod.exports, createRequire(bundle), mod, bundle, path.dirname(bundle));
  return { cacheUsed, cacheFile: file };
}

function writeCache(script: vm.Script, file: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    if (fs.existsSync(file) && !isPrivate(file)) return;
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: "wx" });
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
    return;
  }
  removeStale(path.dirname(file), file);
}

/** Marks a cache in use, so that no other process removes it as stale. */
function keepFresh(file: string): void {
  try {
    const now = Date.now();
    if (now - fs.statSync(file).mtimeMs > TOUCH_AFTER_MS) fs.utimesSync(file, now / 1000, now / 1000);
  } catch {
    // Only the time a stale cache is removed depends on it.
  }
}

/** Removes the directory's other caches (and leftover temporary files) unused for {@link STALE_MS}. */
export function removeStale(dir: string, keep?: string, now = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^plugin-[0-9a-f]+\.v8cache(?:\.\d+\.tmp)?$/.test(name)) continue;
    const p = path.join(dir, name);
    if (p === keep) continue;
    try {
      const st = fs.lstatSync(p);
      if (st.isFile() && now - st.mtimeMs > STALE_MS && isPrivate(p)) fs.rmSync(p, { force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

if (require.main === module) boot();
