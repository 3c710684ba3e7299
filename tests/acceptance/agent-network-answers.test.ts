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
    // The sequence starts from an account with none of the family: it compares whole lists.
    const held = {
      settings: (await t.client.call<{ endpoint: string }>("getAgentNetworkSettings")).endpoint,
      providers: (await t.client.call<unknown[]>("listAgentNetworkProviders")).length,
      policies: (await t.client.call<unknown[]>("listAgentNetworkPolicies")).length,
      guardrails: (await t.client.call<unknown[]>("listAgentNetworkGuardrails")).length,
      budgetRules: (await t.client.call<unknown[]>("listAgentNetworkBudgetRules")).length,
    };
    expect(held).toEqual({ settings: "", providers: 0, policies: 0, guardrails: 0, budgetRules: 0 });
    // The gateway's history outlives the objects: after traffic through the target's gateway (the tier's
    // llm-traffic file, or any earlier use), consumption, usage and the access logs are not the fresh account's.
    // Those reads are then left out of the comparison, by name in the report; every other step is still compared.
    const consumption = await t.client.call<unknown[]>("listAgentNetworkConsumption");
    const logged = (await t.client.call<{ total_records: number }>("listAgentNetworkAccessLogs"))
      .total_records;
    const history = consumption.length > 0 || logged > 0;
    const readsHistory = (p: string) =>
      /^\/api\/agent-network\/(consumption|usage\/|access-logs|access-log-sessions)/.test(p);
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
    const leftOut: string[] = [];
    for (const step of SEQUENCE) {
      const expected = recording.answers.find((a) => a.name === step.name);
      // A refused read (a bad date, a bad page) is refused whatever the history: still compared.
      if (history && step.method === "GET" && readsHistory(step.path) && (expected?.status ?? 200) < 300) {
        leftOut.push(step.name);
        continue;
      }
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
      detail:
        `${SEQUENCE.length - leftOut.length - problems.length}/${SEQUENCE.length - leftOut.length} steps as recorded` +
        (leftOut.length
          ? `; ${leftOut.length} reads of the gateway's history left out (the account has ${consumption.length} ` +
            `consumption rows and ${logged} access-log entries from earlier traffic): ${leftOut.join(", ")}`
          : ""),
    });
    expect(problems).toEqual([]);
  }, 300_000);
});
