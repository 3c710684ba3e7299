/**
 * Node's module compile cache (`module.enableCompileCache`) for what the dynamic-provider host loads of the
 * package at its first call: the kind, the lifecycle, the client, zod. The host is a new process at every command
 * (and for each pass of a refresh), and the engine waits for that first call before the first resource's step;
 * kept compiled, it loads in about three quarters of the CPU (bench/startup.ts; BENCHMARKS.md).
 *
 * The cache holds compiled code, no values. Its place is the resource plugin's (bin/pulumi-resource-privnet):
 * NODE_COMPILE_CACHE when the caller sets it (then Node has already turned it on for the whole process), else
 * `<tmpdir>/pulumi-privnet-<uid>/compile-cache` when that directory is this user's and nobody else can write it:
 * code read from a directory another user could write would run as ours. Otherwise there is no cache and nothing
 * else changes; NODE_DISABLE_COMPILE_CACHE turns it off, as for any Node program.
 *
 * The engine ends the host with a signal, and Node writes its cache only on a normal exit, so {@link flush}
 * writes what was compiled as soon as a kind has loaded.
 */
import * as fs from "node:fs";
import * as nodeModule from "node:module";
import * as os from "node:os";
import * as path from "node:path";

/** The module API of Node >= 22.10 (typed here: @types/node may not know flushCompileCache). */
const api = nodeModule as unknown as {
  enableCompileCache?: (dir?: string) => { status: number; directory?: string };
  flushCompileCache?: () => void;
  getCompileCacheDir?: () => string | undefined;
};

let enabled = false;

/** This user's directory under the temporary directory, made if missing; undefined when it is not safe to use. */
function ownDirectory(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = path.join(os.tmpdir(), `pulumi-privnet-${uid}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700, recursive: true });
    const st = fs.lstatSync(dir);
    // A real directory (no symlink), ours, that neither the group nor others can write.
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** Turns the cache on for the modules this process loads from now on (see the module comment). */
export function enableCompileCache(): void {
  if (enabled || typeof api.enableCompileCache !== "function") return;
  enabled = true;
  if (process.env.NODE_COMPILE_CACHE || api.getCompileCacheDir?.()) return;
  const dir = ownDirectory();
  if (dir) api.enableCompileCache(path.join(dir, "compile-cache"));
}

/** Writes what was compiled since the last write (cheap when nothing was). */
export function flush(): void {
  if (enabled) api.flushCompileCache?.();
}
