/**
 * The recorded sequence of Agent Network requests (tests/support/agent-network-sequence.ts), replayed against
 * privnet-server: every answer must be the reference server's (tests/fixtures/agent-network/reference-answers.json)
 * in status, fields, defaults and the field a refusal names, except where the sequence declares a deliberate
 * difference (then privnet-server's own answer is expected).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { compareAnswer, runSequence, SEQUENCE, type Recording } from "../support/agent-network-sequence";
import { startTestServer, type TestServer } from "../support/server";

const recording = JSON.parse(
  fs.readFileSync(
    path.resolve(__dirname, "..", "fixtures", "agent-network", "reference-answers.json"),
    "utf8",
  ),
) as Recording;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ embeddedIdp: true });
});
afterAll(() => s.close());

test("the recording covers the sequence, step for step", () => {
  expect(recording.answers.map((a) => a.name)).toEqual(SEQUENCE.map((st) => st.name));
});

test("privnet-server answers the recorded sequence as the reference did", async () => {
  const answers = await runSequence(s.url, s.token);
  const problems = SEQUENCE.flatMap((step, i) =>
    compareAnswer(step, recording.answers[i]!, answers[i]!, "privnet").map(
      (p) => `${step.name} (${step.method} ${step.path}): ${p}`,
    ),
  );
  expect(problems).toEqual([]);
}, 60_000);

test("the comparison sees a difference: another default or another status fails a step", () => {
  const step = SEQUENCE.find((st) => st.name === "provider-create-minimal")!;
  const expected = recording.answers.find((a) => a.name === step.name)!;
  const flipped = { ...expected, body: { ...(expected.body as object), enabled: true } };
  expect(compareAnswer(step, expected, expected, "privnet")).toEqual([]);
  expect(compareAnswer(step, expected, flipped, "privnet")).toHaveLength(1);
  expect(compareAnswer(step, expected, { ...expected, status: 422 }, "privnet")).toHaveLength(1);
  const refusal = SEQUENCE.find((st) => st.name === "policy-create-window-0")!;
  const refused = recording.answers.find((a) => a.name === refusal.name)!;
  const vague = { ...refused, body: { message: "bad limits", code: 422 } };
  expect(compareAnswer(refusal, refused, vague, "privnet")).toHaveLength(1);
});
