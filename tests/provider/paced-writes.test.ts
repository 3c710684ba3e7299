/**
 * Writes under the hosted rate limit (120 per minute, burst 1200), against a server that enforces it: a new
 * provider process starts with a full client-side bucket while the server's bucket for the token is empty (the
 * previous command spent it). Every create must still succeed: the 429s are retried, the client paces itself at
 * the refill rate after the first one, and a note tells the user that the provider is waiting.
 */
import { freshProviders } from "../support/fresh-providers";
import type { RequestLogEntry } from "../../server/context";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
const log: RequestLogEntry[] = [];

beforeAll(async () => {
  s = await startTestServer({ rateLimit: { perMinute: 120, burst: 1200 }, onRequest: (e) => log.push(e) });
});
afterAll(() => s?.close());

/** Spends the server's whole burst for the owner token, as a previous large command would have. */
async function drainServerBucket(): Promise<void> {
  const send = async () => {
    const res = await fetch(`${s.url}/api/groups`, { headers: { Authorization: `Token ${s.token}` } });
    await res.arrayBuffer();
  };
  for (let sent = 0; sent < 1200; sent += 50) await Promise.all(Array.from({ length: 50 }, send));
}

test("30 creates right after the burst is spent all succeed, paced, with a note while waiting", async () => {
  await drainServerBucket();
  const mark = log.length;
  const fresh = await freshProviders(s);
  const notes: string[] = [];
  fresh.diagnostics.setInfoSink((m) => notes.push(m));
  const Group = fresh.provider("Group");
  const names = Array.from({ length: 30 }, (_, i) => `paced-${process.pid}-${i}`);

  const created = await Promise.all(names.map((name) => Group.create({ name })));

  expect(created.map((c) => c.outs.name)).toEqual(names);
  const served = log.slice(mark);
  const posts = served.filter((e) => e.method === "POST" && e.route === "/api/groups");
  expect(posts.filter((e) => e.status === 200)).toHaveLength(30);
  // The server's bucket was empty: the first attempts met 429s, which were retried; once the client knew, it
  // paced itself, so far fewer 429s than an attempt per request per retry.
  const limited = posts.filter((e) => e.status === 429).length;
  expect(limited).toBeGreaterThan(0);
  expect(limited).toBeLessThan(60);
  // What the server holds (read from its store: its API would answer 429 now).
  const stored = s.server.state.store.all<{ id: string; name: string }>("group").map((g) => g.name);
  expect(stored.filter((n) => names.includes(n)).sort()).toEqual([...names].sort());
  expect(notes.length).toBeGreaterThanOrEqual(1);
  expect(notes[0]).toMatch(
    /^privnet: pacing requests to the API rate limit \(120 requests per minute, burst 1200\): waiting for \d+ s so far, about \d+ requests queued/,
  );
}, 120_000);
