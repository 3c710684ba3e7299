/**
 * The access guard and LLM use against the acceptance target, with a YAML program through the resource plugin (a
 * group, an Agent Network provider and a policy with a dollar cap per group; the gateway is the account's):
 *
 * - a harmless change (the cap raised, within what the tests allow) passes `pulumi preview` with the pack, and its
 *   `+ llm:` / `- llm:` lines equal `privnet-access diff`'s (the offline twin) and what was expected;
 * - a change letting the group use a second provider, which a mandatory test says it never uses, stops `pulumi up`
 *   naming the test and the policy, and the target gets no write (its providers and policies are the same after).
 *
 * The gateway needs an endpoint: the account's, or one bootstrapped here under an online proxy cluster (our own
 * server: any address). A target without either, or without the family, is recorded as not run, with the reason.
 * The stack is destroyed at the end, and settings bootstrapped here released.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { isNotFound } from "../../client";
import { repoRoot } from "../e2e/engine";
import {
  makeWork,
  packConfig,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
  twinDiff,
  yamlProject,
  type Project,
} from "../e2e/project";
import { acceptance, type KindResult } from "./target";

const acc = acceptance();
const CHECK = "access guard (LLM)";
const PACK = path.join(repoRoot, "policy");
const prefix = `acc${randomBytes(3).toString("hex")}gl`;
const KEY = `sk-${prefix}-secret`;
const names = {
  group: `${prefix}-llm`,
  openai: `${prefix} openai`,
  claude: `${prefix} claude`,
  policy: `${prefix} llm`,
  claudePolicy: `${prefix} llm claude`,
};

function program(parts: { cap: number; claude?: boolean }): string {
  const lines = [
    `name: ${prefix}-guard-llm`,
    "runtime: yaml",
    "description: The access guard and LLM use against the acceptance target",
    "config:",
    "  key: {type: string, secret: true}",
    "resources:",
    "  team:",
    "    type: privnet:Group",
    "    properties:",
    `      name: ${names.group}`,
    "  openai:",
    "    type: privnet:AgentNetworkProvider",
    "    properties:",
    "      providerId: openai_api",
    `      name: ${names.openai}`,
    "      upstreamUrl: https://api.openai.example.test",
    "      apiKey: ${key}",
    "      enabled: true",
    "      models:",
    "        - {id: gpt-4o-mini, inputPer1k: 0.00015, outputPer1k: 0.0006}",
    "  policy:",
    "    type: privnet:AgentNetworkPolicy",
    "    properties:",
    `      name: ${names.policy}`,
    '      sourceGroups: ["${team.id}"]',
    '      destinationProviderIds: ["${openai.id}"]',
    "      limits:",
    "        tokenLimit: {enabled: false, groupCap: 0, userCap: 0, windowSeconds: 0}",
    `        budgetLimit: {enabled: true, groupCapUsd: ${parts.cap}, userCapUsd: 0, windowSeconds: 86400}`,
  ];
  if (parts.claude)
    lines.push(
      "  claude:",
      "    type: privnet:AgentNetworkProvider",
      "    properties:",
      "      providerId: anthropic_api",
      `      name: ${names.claude}`,
      "      upstreamUrl: https://api.anthropic.example.test",
      "      apiKey: ${key}",
      "      enabled: true",
      "      models:",
      "        - {id: claude-haiku-4-5, inputPer1k: 0.001, outputPer1k: 0.005}",
      "  claudePolicy:",
      "    type: privnet:AgentNetworkPolicy",
      "    properties:",
      `      name: ${names.claudePolicy}`,
      '      sourceGroups: ["${team.id}"]',
      '      destinationProviderIds: ["${claude.id}"]',
    );
  return `${lines.join("\n")}\n`;
}

function record(result: Omit<KindResult, "check">): void {
  acc.record({ check: CHECK, ...result });
}

const llmLinesOf = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[+-] llm: /.test(l))
    .sort();

describe("the access guard and LLM use against the target (YAML through the resource plugin)", () => {
  let work = "";
  let project: Project;
  let stack: PulumiStack | undefined;
  let why = "";
  let bootstrapped = false;

  beforeAll(async () => {
    const settings = await acc.client
      .call<{ endpoint?: string }>("getAgentNetworkSettings")
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    if (!settings) {
      why = "the target does not serve the Agent Network";
      return;
    }
    if (!settings.endpoint) {
      const cluster = acc.own ? `${prefix}.edge.example.test` : acc.probe.proxyClusters[0];
      if (!cluster) {
        why = "the account has no gateway endpoint and no online proxy cluster to bootstrap one under";
        return;
      }
      await acc.client.call("createAgentNetworkSettings", { body: { proxy_address: cluster } });
      bootstrapped = true;
    }
    work = makeWork("acceptance-access-guard-llm");
    project = yamlProject(work, "guard", program({ cap: 50 }));
    stack = await PulumiStack.init({ project, work, name: "acc", server: acc });
    await stack.config("key", KEY, { secret: true });
    await stack.up();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    try {
      if (stack) {
        yamlProject(work, "guard", program({ cap: 50 }));
        await stack.destroy();
      }
      if (bootstrapped) await acc.client.call("deleteAgentNetworkSettings").catch(() => undefined);
    } finally {
      await acc.client.close();
      if (work) removeWork(work);
    }
  }, SETUP_TIMEOUT_MS);

  /** This run's providers and policies on the target (what a stopped up must not have written). */
  async function mine() {
    const providers = await acc.client.call<{ name: string; id: string }[]>("listAgentNetworkProviders");
    const policies =
      await acc.client.call<{ name: string; id: string; limits: unknown }[]>("listAgentNetworkPolicies");
    return {
      providers: (providers ?? []).filter((p) => p.name.startsWith(prefix)),
      policies: (policies ?? []).filter((p) => p.name.startsWith(prefix)),
    };
  }

  async function guarded(s: PulumiStack, command: string[], config: string, exit: number | "nonzero" = 0) {
    const r = await s.cli([...command, "--policy-pack", PACK, "--policy-pack-config", config], {
      expect: exit,
    });
    for (const secret of [acc.token, KEY]) expect(`${r.stdout}\n${r.stderr}`).not.toContain(secret);
    return r;
  }

  test(
    "a cap raised within the tests passes preview; its llm lines equal privnet-access diff's",
    async () => {
      if (!stack) {
        record({ kind: "AgentNetworkPolicy", status: "not run", detail: why });
        expect(why).not.toBe("");
        return;
      }
      yamlProject(work, "guard", program({ cap: 80 }));
      const config = packConfig(work, "harmless", [
        `{name: ${prefix} at most 100 a day, from: {group: ${names.group}}, llm: any, expect: at-most, usd: 100, per: day}`,
      ]);
      const r = await guarded(stack, ["preview"], config);
      expect(r.stdout).not.toContain("FAIL ");
      const line = (cap: number) =>
        `${names.group} → ${names.openai} (gpt-4o-mini) $${cap}/day per group (policy "${names.policy}")`;
      const expected = [`+ llm: ${line(80)}`, `- llm: ${line(50)}`];
      expect(llmLinesOf(r.stdout)).toEqual(expected);
      expect(llmLinesOf(await twinDiff(project, stack))).toEqual(expected);
      record({
        kind: "AgentNetworkPolicy",
        status: "passed",
        detail: "the pack's llm lines equal the twin's",
      });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "letting the group use a second provider a mandatory test forbids stops up, naming the test and the policy; no write",
    async () => {
      if (!stack) {
        record({ kind: "AgentNetworkProvider", status: "not run", detail: why });
        expect(why).not.toBe("");
        return;
      }
      yamlProject(work, "guard", program({ cap: 50, claude: true }));
      const config = packConfig(work, "never", [
        `{name: ${prefix} never uses anthropic, from: {group: ${names.group}}, llm: anthropic, expect: never}`,
      ]);
      const before = await mine();
      const r = await guarded(stack, ["up", "--yes"], config, "nonzero");
      expect(r.stdout).toContain(`FAIL ${prefix} never uses anthropic`);
      expect(r.stdout).toContain(
        `may use ${names.claude} (claude-haiku-4-5) through policy "${names.claudePolicy}"`,
      );
      expect(r.stdout).toContain(`responsible: policy "${names.claudePolicy}"`);
      expect(await mine()).toEqual(before);
      yamlProject(work, "guard", program({ cap: 50 }));
      record({
        kind: "AgentNetworkProvider",
        status: "passed",
        detail: "up stopped naming the test and the policy; no write",
      });
    },
    TEST_TIMEOUT_MS,
  );
});
