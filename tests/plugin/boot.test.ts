/**
 * The plugin's start (bin/pulumi-resource-privnet runs dist/plugin/start.js): it runs the one-file bundle with Node's
 * own compile cache, in a directory of the user's that nobody else can write. The cache is an optimisation that must
 * never change what the plugin does: written once, left alone while valid, replaced when Node rejects it, and never
 * used when someone else could have written it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { envWithoutPrivnet, type Host } from "../support/host";
import { startPlugin } from "../support/plugin";
import { startTestServer, tempDir, type TestServer } from "../support/server";

jest.setTimeout(120_000);

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const uid = process.getuid!();

/** Every file under `dir` (Node keeps one per compiled file, under a directory per Node version). */
function cacheFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile());
}

/** One plugin process as the engine uses it (configure, a group made and deleted), then stopped as it stops it. */
async function lifecycle(env: Record<string, string>, name: string): Promise<void> {
  const h: Host = await startPlugin(env);
  try {
    await h.configure({ apiUrl: s.url, token: s.token });
    const checked = await h.check("Group", { name });
    expect(checked.failures).toEqual([]);
    const created = await h.create("Group", checked.inputs);
    expect(created.props.name).toBe(name);
    await h.delete("Group", created.id, created.props);
  } finally {
    await h.stop();
  }
}

test("the compiled bundle is cached in a private directory, kept while valid, replaced when rejected", async () => {
  const tmp = tempDir("privnet-boot-");
  const env: Record<string, string> = { ...envWithoutPrivnet(), TMPDIR: tmp };
  delete env.NODE_COMPILE_CACHE;
  const dir = path.join(tmp, `pulumi-privnet-${uid}`);

  await lifecycle(env, "boot-1");
  expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe("700");
  const [file, ...others] = cacheFiles(dir);
  expect(others).toEqual([]);
  expect(fs.statSync(file!).size).toBeGreaterThan(100_000);

  // Valid: used as it is, not written again.
  const before = fs.statSync(file!).mtimeMs;
  await lifecycle(env, "boot-2");
  expect(fs.statSync(file!).mtimeMs).toBe(before);
  expect(cacheFiles(dir)).toEqual([file]);

  // Rejected by Node (not a cache of this code): the plugin works as without one, and a good cache replaces it.
  fs.writeFileSync(file!, Buffer.alloc(4096, 7));
  await lifecycle(env, "boot-3");
  expect(fs.statSync(file!).size).toBeGreaterThan(100_000);
});

test("a directory others can write is not used; NODE_COMPILE_CACHE from the caller wins", async () => {
  const tmp = tempDir("privnet-boot-");
  const dir = path.join(tmp, `pulumi-privnet-${uid}`);
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.chmodSync(dir, 0o777);
  const env: Record<string, string> = { ...envWithoutPrivnet(), TMPDIR: tmp };
  delete env.NODE_COMPILE_CACHE;
  await lifecycle(env, "boot-open-dir");
  expect(cacheFiles(dir)).toEqual([]);

  const chosen = path.join(tempDir("privnet-boot-"), "chosen");
  await lifecycle({ ...env, NODE_COMPILE_CACHE: chosen }, "boot-chosen");
  // Node turns it on before the entry (dist/plugin/start.js) loads: the entry and the bundle are kept there.
  expect(cacheFiles(chosen)).toHaveLength(2);
  expect(cacheFiles(dir)).toEqual([]);
});
