/**
 * The plugin's boot (plugin/boot.ts): the launcher runs the one-file bundle with a V8 code cache. The cache is an
 * optimisation that must never change what the plugin does: it is written once the plugin has served a resource
 * call, private to the user, left alone when valid, replaced when V8 rejects it, and never read or written when
 * someone else could have written it.
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

const cacheFiles = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith(".v8cache"));

/**
 * One plugin process: configure, a group made and deleted; then it is stopped, after the second the cache is taken
 * at, or (`stopAtOnce`) right away, as the engine stops it after a short command.
 */
async function lifecycle(env: Record<string, string>, name: string, stopAtOnce = false): Promise<void> {
  const h: Host = await startPlugin(env);
  try {
    await h.configure({ apiUrl: s.url, token: s.token });
    const checked = await h.check("Group", { name });
    expect(checked.failures).toEqual([]);
    const created = await h.create("Group", checked.inputs);
    expect(created.props.name).toBe(name);
    await h.delete("Group", created.id, created.props);
    // The cache is taken a second after the first resource call.
    if (!stopAtOnce) await new Promise((r) => setTimeout(r, 1_800));
  } finally {
    await h.stop();
  }
}

test("the cache is written after a served resource call, private, kept while valid, replaced when rejected", async () => {
  const dir = path.join(tempDir("privnet-boot-"), "cache");
  const env = { ...envWithoutPrivnet(), PRIVNET_PLUGIN_CACHE: dir };

  // A process that only answers the schema (as a language host's does) writes nothing.
  const schemaOnly = await startPlugin(env);
  expect(JSON.parse(await schemaOnly.getSchema()).name).toBe("privnet");
  await new Promise((r) => setTimeout(r, 1_800));
  await schemaOnly.stop();
  expect(fs.existsSync(dir) ? cacheFiles(dir) : []).toEqual([]);

  await lifecycle(env, "boot-1");
  expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe("700");
  const [file] = cacheFiles(dir);
  expect(file).toBeDefined();
  const p = path.join(dir, file!);
  expect((fs.statSync(p).mode & 0o777).toString(8)).toBe("600");
  const first = fs.readFileSync(p);
  expect(first.length).toBeGreaterThan(100_000);

  // Valid: used as it is, not written again.
  const before = fs.statSync(p);
  await lifecycle(env, "boot-2");
  expect(fs.statSync(p).mtimeMs).toBe(before.mtimeMs);
  expect(cacheFiles(dir)).toEqual([file]);

  // Rejected by V8 (not a cache of this code): the plugin works as without one, and a good cache replaces it.
  fs.writeFileSync(p, Buffer.alloc(4096, 7), { mode: 0o600 });
  await lifecycle(env, "boot-3");
  expect(fs.readFileSync(p).length).toBeGreaterThan(100_000);
});

test("a plugin stopped before the cache's time takes it as it exits, and the next start uses it", async () => {
  const dir = path.join(tempDir("privnet-boot-"), "cache");
  const env = { ...envWithoutPrivnet(), PRIVNET_PLUGIN_CACHE: dir };
  await lifecycle(env, "boot-short-1", true);
  const [file] = cacheFiles(dir);
  expect(file).toBeDefined();
  const p = path.join(dir, file!);
  expect((fs.statSync(p).mode & 0o777).toString(8)).toBe("600");
  expect(fs.statSync(p).size).toBeGreaterThan(100_000);
  // Used by the next short run as it is: not written again.
  const before = fs.statSync(p).mtimeMs;
  await lifecycle(env, "boot-short-2", true);
  expect(fs.statSync(p).mtimeMs).toBe(before);
  expect(cacheFiles(dir)).toEqual([file]);
});

test("a cache file or directory others can write is neither read nor written", async () => {
  const dir = path.join(tempDir("privnet-boot-"), "cache");
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.chmodSync(dir, 0o777);
  await lifecycle({ ...envWithoutPrivnet(), PRIVNET_PLUGIN_CACHE: dir }, "boot-open-dir");
  expect(cacheFiles(dir)).toEqual([]);

  const dir2 = path.join(tempDir("privnet-boot-"), "cache");
  const env2 = { ...envWithoutPrivnet(), PRIVNET_PLUGIN_CACHE: dir2 };
  await lifecycle(env2, "boot-private");
  const [file] = cacheFiles(dir2);
  const p = path.join(dir2, file!);
  // Someone made the file group-writable: garbage in it is not read (the plugin works) and it is not replaced.
  fs.writeFileSync(p, Buffer.alloc(4096, 7));
  fs.chmodSync(p, 0o666);
  await lifecycle(env2, "boot-open-file");
  expect(fs.readFileSync(p)).toEqual(Buffer.alloc(4096, 7));
});

test("writing a cache removes the directory's caches unused for a week; a cache in use stays fresh", async () => {
  const dir = path.join(tempDir("privnet-boot-"), "cache");
  fs.mkdirSync(dir, { mode: 0o700 });
  const env = { ...envWithoutPrivnet(), PRIVNET_PLUGIN_CACHE: dir };
  const days = (n: number) => (Date.now() - n * 24 * 3600_000) / 1000;
  const put = (name: string, ageDays: number) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, "old", { mode: 0o600 });
    fs.utimesSync(p, days(ageDays), days(ageDays));
  };
  put("plugin-aaaaaaaaaaaaaaaaaaaaaaaa.v8cache", 8); // another build's cache, unused for 8 days
  put("plugin-bbbbbbbbbbbbbbbbbbbbbbbb.v8cache.4242.tmp", 8); // a crashed write's leftover
  put("plugin-cccccccccccccccccccccccc.v8cache", 2); // another build's, used two days ago
  put("notes.txt", 30); // not the plugin's
  await lifecycle(env, "boot-prune");
  const left = fs.readdirSync(dir).sort();
  expect(left).toContain("plugin-cccccccccccccccccccccccc.v8cache");
  expect(left).toContain("notes.txt");
  expect(left).not.toContain("plugin-aaaaaaaaaaaaaaaaaaaaaaaa.v8cache");
  expect(left).not.toContain("plugin-bbbbbbbbbbbbbbbbbbbbbbbb.v8cache.4242.tmp");
  const own = cacheFiles(dir).filter((f) => !f.startsWith("plugin-ccc"));
  expect(own).toHaveLength(1);

  // Our cache, last touched two days ago, is used: its time is refreshed, so no other process removes it.
  const p = path.join(dir, own[0]!);
  fs.utimesSync(p, days(2), days(2));
  await lifecycle(env, "boot-fresh");
  expect(Date.now() - fs.statSync(p).mtimeMs).toBeLessThan(10 * 60_000);
});
