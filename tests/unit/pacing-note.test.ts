/**
 * When the provider tells the user it is waiting for the rate limit: once requests have been waiting for more
 * than a few seconds without a break (one long wait, or many short ones, as the engine's few parallel steps
 * make), then at most one note per interval.
 */
import { NOTE_AFTER_MS, PacingReporter, REPEAT_MS, pacingNote } from "../../provider/pacing";

const limit = { perMinute: 120, burst: 1200 };
const wait = (waitMs: number) => ({ method: "POST" as const, path: "/api/groups", waitMs, limit });

function reporter() {
  const time = { now: 1_000_000 };
  const notes: string[] = [];
  const r = new PacingReporter((m) => notes.push(m), { now: () => time.now });
  return { time, notes, hear: (ms: number) => r.observer.rateLimitWait?.(wait(ms)) };
}

test("one long wait is noted; a short one is not", () => {
  const a = reporter();
  a.hear(NOTE_AFTER_MS);
  expect(a.notes).toEqual([]);
  const b = reporter();
  b.hear(NOTE_AFTER_MS + 1);
  expect(b.notes).toHaveLength(1);
});

test("short waits without a break add up; a break starts again", () => {
  const r = reporter();
  // Eight steps at a time at 2 per second: every request waits up to 4 s, for as long as the run lasts.
  for (let i = 0; i < 8; i++) r.hear(500 * (i + 1));
  expect(r.notes).toEqual([]);
  for (let t = 0; t < 4; t++) {
    r.time.now += 500;
    r.hear(4000);
  }
  expect(r.notes).toHaveLength(1);
  expect(r.notes[0]).toMatch(/waiting for 6 s so far, about 8 requests queued/);

  // A break longer than the queue: the next waits start a new stretch (and the interval holds notes back).
  const q = reporter();
  q.hear(4000);
  q.time.now += 10_000;
  q.hear(4000);
  expect(q.notes).toEqual([]);
});

test("at most one note per interval while the waiting goes on", () => {
  const r = reporter();
  r.hear(60_000);
  expect(r.notes).toHaveLength(1);
  r.time.now += REPEAT_MS - 1;
  r.hear(60_000);
  expect(r.notes).toHaveLength(1);
  r.time.now += 1;
  r.hear(60_000);
  expect(r.notes).toHaveLength(2);
  expect(r.notes[1]).toMatch(/waiting for 90 s so far/);
});

test("the note says the limit, how long, how many requests wait", () => {
  expect(pacingNote(limit, 35_000, 8)).toBe(
    "privnet: pacing requests to the API rate limit (120 requests per minute, burst 1200): waiting for 35 s so " +
      "far, about 8 requests queued. Requests go on at 2 per second; the limit is set by privnet:rateLimit.",
  );
});
