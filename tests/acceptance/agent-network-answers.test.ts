/**
 * The recorded sequence of Agent Network requests (tests/support/agent-network-sequence.ts) against the
 * acceptance target: every answer is compared with the reference server's recording
 * (tests/fixtures/agent-network/reference-answers.json). On the tier's own privnet-server, the deliberate
 * differences the sequence declares are expected; on a live server, either answer passes.
 *
 * `PRIVNET_AGENT_NETWORK_RECORD=1` against the reference makes the recording instead (see the fixture's
 * README): run it on a fresh instance.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { compareAnswer, runSequence, SEQUENCE, type Recording } from "../support/agent-network-sequence";
import { referenceLogin } from "../support/reference-login";
import { acceptance } from "./target";

const FIXTURE = path.resolve(__dirname, "..", "fixtures", "agent-network", "reference-answers.json");
const t = acceptance();
const served =
  t.probe.served.includes("AgentNetworkProvider") || process.env.PRIVNET_AGENT_NETWORK_RECORD === "1";

const login = async (email: string, password: string | undefined) =>
  password === undefined ? undefined : referenceLogin(t.url, email, password);

(served ? describe : describe.skip)("agent network: the recorded sequence", () => {
  test("answers as the reference answered: status codes, fields, defaults and refusals", async () => {
    const answers = await runSequence(t.url, t.token, { login });
    if (process.env.PRIVNET_AGENT_NETWORK_RECORD === "1") {
      const recording: Recording = {
        server: `reference v0.77.1 at ${t.url}`,
        recorded: new Date().toISOString().slice(0, 10),
        answers,
      };
      fs.writeFileSync(FIXTURE, `${JSON.stringify(recording, null, 2)}\n`);
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      return;
    }
    const recording = JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as Recording;
    const problems: string[] = [];
    for (const step of SEQUENCE) {
      const expected = recording.answers.find((a) => a.name === step.name);
      const actual = answers.find((a) => a.name === step.name)!;
      if (!expected) problems.push(`${step.name}: not in the recording (record it again)`);
      else
        for (const p of compareAnswer(step, expected, actual, t.own ? "privnet" : "either"))
          problems.push(`${step.name} (${step.method} ${step.path}): ${p}`);
    }
    t.record({
      check: "recorded sequence",
      kind: "AgentNetwork",
      status: problems.length ? "failed" : "passed",
      detail: `${SEQUENCE.length - problems.length}/${SEQUENCE.length} steps as recorded`,
    });
    expect(problems).toEqual([]);
  }, 300_000);
});
