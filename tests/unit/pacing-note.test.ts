/**
 * When the provider tells the user it is waiting for the rate limit: a wait longer than a few seconds, then at most
 * one note per interval while waits go on.
 */
import { NOTE_AFTER_MS, PacingReporter, REPEAT_MS, pacingNote } from "../../provider/pacing";

const limit = { perMinute: 120, burst: 1200 };
const wait = (waitMs: number) => ({ method: "POST" as const, path: "/api/groups", waitMs, limit });

test("short waits pass silently; a long one is noted, then at most one note per interval", () => {
  let now = 1_000_000;
  const notes: string[] = [];
  const reporter = new PacingReporter((m) => notes.push(m), { now: () => now });
  const hear = (ms: number) => reporter.observer.rateLimitWait?.(wait(ms));

  hear(500);
  hear(NOTE_AFTER_MS);
  expect(notes).toEqual([]);
  hear(NOTE_AFTER_MS + 1);
  expect(notes).toHaveLength(1);
  now += REPEAT_MS - 1;
  hear(60_000);
  expect(notes).toHaveLength(1);
  now += 1;
  hear(60_000);
  expect(notes).toHaveLength(2);
});

test("the note says the limit, how many requests wait and for how long", () => {
  expect(pacingNote(wait(170_000))).toBe(
    "privnet: waiting for the API rate limit (120 requests per minute, burst 1200): about 340 requests queued, " +
      "170 s for the last one to start. Requests go on at 2 per second; the limit is set by privnet:rateLimit.",
  );
});
