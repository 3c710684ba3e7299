/**
 * LLM use through the Agent Network gateway under the real CLI (tests/e2e/programs/access-llm, dynamic providers,
 * the pack from node_modules/pulumi-privnet/policy as the docs say): `privnet-access show`, `test` and `diff` and the
 * access guard agree on the same account and change.
 *
 * - A cap raised: the guard's `+ llm:` / `- llm:` lines in `pulumi preview` equal the offline twin's (`privnet-access
 *   diff`); after `pulumi up`, `show` lists the gained line and not the lost one, and the verdicts of one tests file
 *   agree: the guard's access-tests (advisory here), `diff --tests`, and `test` on the account after the change.
 * - A change that lets a group use a provider a mandatory test says it never uses stops `pulumi up` before anything
 *   is applied, naming the test and the policy (on that policy's resource); the server got reads only.
 * - A budget rule that brings the group back under its ceiling passes, with its `+ llm:` line equal to the twin's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { run as accessCli } from "../../access/cli";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import type { E2EServer, Project } from "./project";
import {
  copyProject,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  twinDiff,
  writes,
} from "./project";

const PROGRAM = "tests/e2e/programs/access-llm";
const KEY = "sk-e2e-llm-guard-4c1d";

/** The `+ llm:` and `- llm:` lines of an output (the guard's, or privnet-access diff's), trimmed and sorted. */
function llmLinesOf(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[+-] llm: /.test(l))
    .sort();
}

/** The grant and budget-rule lines of `privnet-access show`. */
function shownLlm(text: string): string[] {
  const at = text.indexOf("LLM use through the Agent Network gateway");
  if (at < 0) return [];
  return text
    .slice(at)
    .split("\n")
    .slice(1)
    .filter((l) => l.startsWith("  "))
    .map((l) => l.trim())
    .sort();
}

describe("LLM use: show, test, diff and the access guard agree (real CLI, dynamic providers)", () => {
  let work = "";
  let server: E2EServer;
  let acc: AccessAccount;
  let project: Project;
  let stack: PulumiStack;
  let pack = "";
  let tests = "";

  async function access(args: string[]) {
    let stdout = "";
    let stderr = "";
    const code = await accessCli(args, {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env: { ...stack.env, PRIVNET_API_URL: server.url, PRIVNET_TOKEN: server.token },
    });
    return { code, stdout, stderr };
  }

  /** `pulumi <command>` with the pack and a config; the server gets reads only; the key is never shown. */
  async function withPack(command: string[], config: string, expect_: number | "nonzero" = 0) {
    const mark = server.requests.length;
    const r = await stack.cli([...command, "--policy-pack", pack, "--policy-pack-config", config], {
      expect: expect_,
    });
    expect(writes(server.since(mark))).toEqual([]);
    const all = `${r.stdout}\n${r.stderr}`;
    expect(all).not.toContain(server.token);
    expect(all).not.toContain(KEY);
    return r;
  }

  function packConfig(name: string, level: "advisory" | "mandatory"): string {
    const file = path.join(work, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify({ "access-tests": { enforcementLevel: level, testsFile: tests } }));
    return file;
  }

  beforeAll(async () => {
    work = makeWork("access-guard-llm");
    server = await startE2EServer();
    acc = await buildAccessAccount(server.url, server.token);
    project = await copyProject([PROGRAM], work, PROGRAM);
    pack = path.join(project.programDir, "node_modules", "pulumi-privnet", "policy");
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    await stack.config("ids", JSON.stringify({ laptops: acc.groups.laptops, admins: acc.groups.admins }));
    await stack.config("proxyAddress", "llm.edge.example.test");
    await stack.config("openaiKey", KEY, { secret: true });
    await stack.up();
    tests = path.join(work, "llm-tests.yaml");
    fs.writeFileSync(
      tests,
      [
        "tests:",
        "  - {name: admins never use anthropic, from: {group: admins}, llm: anthropic, expect: never}",
        "  - {name: no group above $100 a day, from: {every: group}, llm: any, expect: at-most, usd: 100, per: day}",
        "  - {name: laptops only use OpenAI's models, from: {group: laptops}, llm: any, expect: only-models, models: [gpt-4o-mini, gpt-4o]}",
        "",
      ].join("\n"),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`access-guard-llm e2e timings: ${stack.timingLine()}\n`);
    await acc?.client.close();
    await server?.close();
    removeWork(work);
  });

  test(
    "a cap raised: the guard's lines equal diff's; show after up has them; guard, diff --tests and test give one verdict",
    async () => {
      const before = await access(["show"]);
      expect(before.code).toBe(0);
      const laptops50 =
        'laptops → OpenAI API (gpt-4o-mini, gpt-4o) $50/day per group (policy "laptops openai")';
      expect(shownLlm(before.stdout)).toEqual([laptops50]);
      const t0 = await access(["test", "--tests", tests]);
      expect(t0.code).toBe(0);

      await stack.config("laptopsCap", "150");
      const laptops150 = laptops50.replace("$50", "$150");
      const expected = [`+ llm: ${laptops150}`, `- llm: ${laptops50}`];
      // The guard, advisory: it lists the lines and reports the failing test without stopping the preview.
      const guard = await withPack(["preview"], packConfig("advisory", "advisory"));
      expect(llmLinesOf(guard.stdout)).toEqual(expected);
      expect(guard.stdout).toContain("FAIL no group above $100 a day");
      expect(guard.stdout).toContain("group laptops may use up to $150 per day, above $100");
      // The offline twin: the same lines and the same verdicts.
      const twin = await twinDiff(project, stack);
      expect(llmLinesOf(twin)).toEqual(expected);
      let dt = "";
      const diffTested = await accessCli(
        ["diff", "--cwd", project.dir, "--stack", stack.name, "--tests", tests],
        {
          stdout: (s) => (dt += s),
          stderr: () => undefined,
          env: stack.env,
        },
      );
      expect(diffTested).toBe(1);
      expect(dt).toContain("FAIL no group above $100 a day");
      expect(dt).toContain("PASS admins never use anthropic");
      expect(dt).toContain("PASS laptops only use OpenAI's models");

      await stack.up();
      const after = await access(["show"]);
      expect(shownLlm(after.stdout)).toEqual([laptops150]);
      const t1 = await access(["test", "--tests", tests]);
      expect(t1.code).toBe(1);
      expect(t1.stdout).toContain("FAIL no group above $100 a day (expect at-most,");
      expect(t1.stdout).toContain('$150/day per group (policy "laptops openai")');
      expect(t1.stdout).toContain("PASS admins never use anthropic");
      expect(t1.stdout).toContain("PASS laptops only use OpenAI's models");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a budget rule bringing laptops back under $100: its + llm line equals the twin's, and the tests pass",
    async () => {
      await stack.config("ceiling", "90");
      const guard = await withPack(["preview"], packConfig("mandatory", "mandatory"));
      const rule = '+ llm: budget rule "laptops ceiling": groups laptops: $90/day per group';
      expect(llmLinesOf(guard.stdout)).toEqual([rule]);
      expect(llmLinesOf(await twinDiff(project, stack))).toEqual([rule]);
      expect(guard.stdout).not.toContain("FAIL");
      await stack.up();
      expect((await access(["test", "--tests", tests])).code).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "letting admins use Claude stops pulumi up before anything is applied, naming the test and the policy",
    async () => {
      await stack.config("adminsClaude", "true");
      const mark = server.requests.length;
      const r = await withPack(["up", "--yes"], packConfig("mandatory-up", "mandatory"), "nonzero");
      const out = `${r.stdout}\n${r.stderr}`;
      expect(out).toContain("FAIL admins never use anthropic");
      expect(out).toContain('may use Claude (claude-haiku-4-5) through policy "admins claude"');
      expect(out).toContain('responsible: policy "admins claude"');
      expect(out).toMatch(
        /mandatory\]\s+access-tests\s+\(pulumi-nodejs:dynamic\/privnet:AgentNetworkPolicy: admins\)/,
      );
      expect(writes(server.since(mark))).toEqual([]);
      const providers = await acc.client.call<{ name: string }[]>("listAgentNetworkProviders");
      expect(providers.map((p) => p.name)).toEqual(["OpenAI API"]);
      await stack.configRemove("adminsClaude");
    },
    TEST_TIMEOUT_MS,
  );
});
