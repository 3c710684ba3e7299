/**
 * privnet-access answers for LLM use through the Agent Network gateway against a privnet-server: show lists the
 * grants and budget rules (text and JSON, --peer keeping its groups'), test checks LLM expectations (exit 1 naming
 * the test and the policy or budget rule), and the offline twin of `diff` (a server seeded from the account's reads)
 * holds the same Agent Network, so the LLM lines before a change are the account's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "../../access/cli";
import { llmLineText, llmView } from "../../access/llm";
import { listAccount, listAgentNetwork, readSnapshot } from "../../access/snapshot";
import { PrivnetClient } from "../../client";
import { startServer, validateSeed } from "../../server";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import { startTestServer, tempDir, type TestServer } from "../support/server";

let t: TestServer;
let acc: AccessAccount;
let dir: string;
const ids: Record<string, string> = {};

const NOW = Date.parse("2026-06-01T12:00:00Z");

async function call<T = { id: string }>(op: string, args: Record<string, unknown> = {}): Promise<T> {
  return acc.client.call<T>(op, args);
}

beforeAll(async () => {
  t = await startTestServer({ simulate: true });
  acc = await buildAccessAccount(t.url, t.token);
  dir = tempDir("privnet-access-llm-");
  const groups = await call<{ id: string; name: string }[]>("listGroups");
  for (const g of groups) ids[g.name] = g.id;
  await call("createAgentNetworkSettings", { body: { proxy_address: "proxy.example.test" } });
  const openai = await call("createAgentNetworkProvider", {
    body: {
      provider_id: "openai_api",
      name: "OpenAI API",
      upstream_url: "https://api.openai.com",
      api_key: "sk-server-tier-secret-7d1e",
      enabled: true,
      models: [
        { id: "gpt-4o-mini", input_per_1k: 0.00015, output_per_1k: 0.0006 },
        { id: "gpt-4o", input_per_1k: 0.0025, output_per_1k: 0.01 },
      ],
    },
  });
  const claude = await call("createAgentNetworkProvider", {
    body: {
      provider_id: "anthropic_api",
      name: "Claude",
      upstream_url: "https://api.anthropic.com",
      api_key: "sk-ant-server-tier-secret",
      enabled: true,
      models: [{ id: "claude-haiku-4-5", input_per_1k: 0.001, output_per_1k: 0.005 }],
    },
  });
  const cheap = await call("createAgentNetworkGuardrail", {
    body: {
      name: "cheap",
      checks: {
        model_allowlist: { enabled: true, models: ["gpt-4o-mini"] },
        prompt_capture: { enabled: false, redact_pii: false },
      },
    },
  });
  ids.openai = openai.id;
  ids.claude = claude.id;
  const laptops = ids.laptops as string;
  const admins = ids.admins as string;
  ids.laptopsPolicy = (
    await call("createAgentNetworkPolicy", {
      body: {
        name: "laptops openai",
        source_groups: [laptops],
        destination_provider_ids: [openai.id],
        guardrail_ids: [cheap.id],
        limits: {
          token_limit: { enabled: true, group_cap: 0, user_cap: 2_000_000, window_seconds: 86400 },
          budget_limit: { enabled: true, group_cap_usd: 50, user_cap_usd: 0, window_seconds: 86400 },
        },
      },
    })
  ).id;
  ids.adminsPolicy = (
    await call("createAgentNetworkPolicy", {
      body: {
        name: "admins claude",
        source_groups: [admins],
        destination_provider_ids: [claude.id],
        limits: {
          token_limit: { enabled: false, group_cap: 0, user_cap: 0, window_seconds: 0 },
          budget_limit: { enabled: false, group_cap_usd: 0, user_cap_usd: 0, window_seconds: 0 },
        },
      },
    })
  ).id;
  ids.rule = (
    await call("createAgentNetworkBudgetRule", {
      body: {
        name: "laptops ceiling",
        target_groups: [laptops],
        limits: {
          token_limit: { enabled: false, group_cap: 0, user_cap: 0, window_seconds: 0 },
          budget_limit: { enabled: true, group_cap_usd: 80, user_cap_usd: 0, window_seconds: 86400 },
        },
      },
    })
  ).id;
}, 60_000);

afterAll(async () => {
  await acc?.client.close();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await run(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { PRIVNET_API_URL: t.url, PRIVNET_TOKEN: t.token },
    now: () => NOW,
  });
  return { code, stdout, stderr };
}

const LAPTOPS =
  'laptops → OpenAI API (gpt-4o-mini) tokens 2M/day per user, $50/day per group (policy "laptops openai")';
const ADMINS = 'admins → Claude (claude-haiku-4-5) no cap (policy "admins claude")';

test("show: the gateway, each grant and the budget rules; no API key; --peer keeps its groups' grants", async () => {
  const r = await cli(["show"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/LLM use through the Agent Network gateway [a-z0-9-]+\.proxy\.example\.test:/);
  expect(r.stdout).toContain(`  ${LAPTOPS}`);
  expect(r.stdout).toContain(`  ${ADMINS}`);
  expect(r.stdout).toContain('  budget rule "laptops ceiling": groups laptops: $80/day per group');
  expect(r.stdout).toContain("2 LLM grants");
  expect(`${r.stdout}${r.stderr}`).not.toContain("sk-server-tier-secret-7d1e");
  const json = JSON.parse((await cli(["show", "--json"])).stdout);
  expect(json.llm.grants.map((g: { text: string }) => g.text)).toEqual([LAPTOPS, ADMINS]);
  expect(json.llm.grants[0]).toMatchObject({
    group: { id: ids.laptops, name: "laptops" },
    provider: { id: ids.openai, name: "OpenAI API", catalog: "openai_api" },
    policy: { id: ids.laptopsPolicy },
    models: { any: false, models: ["gpt-4o-mini"] },
  });
  const one = await cli(["show", "--peer", "laptop-1"]);
  expect(one.stdout).toContain(LAPTOPS);
  expect(one.stdout).not.toContain(ADMINS);
});

test("test: LLM expectations pass and fail, naming the policy or budget rule responsible", async () => {
  const file = path.join(dir, "llm.yaml");
  fs.writeFileSync(
    file,
    [
      "tests:",
      "  - {name: laptops never use anthropic, from: {group: laptops}, llm: anthropic, expect: never}",
      "  - {name: admins never use anthropic, from: {group: admins}, llm: anthropic, expect: never}",
      "  - {name: laptops only mini, from: {group: laptops}, llm: any, expect: only-models, models: [gpt-4o-mini]}",
      "  - {name: no group above $100 a day, from: {every: group}, llm: any, expect: at-most, usd: 100, per: day}",
      "  - {name: laptop-1 may use mini, from: {peer: laptop-1}, llm: OpenAI API, model: gpt-4o-mini, expect: may-use}",
      "",
    ].join("\n"),
  );
  const r = await cli(["test", "--tests", file]);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("PASS laptops never use anthropic");
  expect(r.stdout).toContain("FAIL admins never use anthropic");
  expect(r.stdout).toContain('may use Claude (claude-haiku-4-5) through policy "admins claude"');
  expect(r.stdout).toContain("PASS laptops only mini");
  // admins' uncapped policy: no dollar limit on that group; laptops are bounded by their rule ($80 < $100).
  expect(r.stdout).toContain("FAIL no group above $100 a day");
  expect(r.stdout).toContain(
    'group admins may use any provider without a dollar limit: policy "admins claude" carries requests with no such cap on a group',
  );
  expect(r.stdout).not.toContain("group laptops may use up to");
  expect(r.stdout).toContain("PASS laptop-1 may use mini");
  const json = JSON.parse((await cli(["test", "--tests", file, "--json"])).stdout);
  const failed = json.results.find((x: { name: string }) => x.name === "admins never use anthropic");
  expect(failed.llm).toEqual([{ kind: "policy", id: ids.adminsPolicy, name: "admins claude" }]);
});

test("the twin of diff, seeded from the account's reads, holds the same Agent Network", async () => {
  const listed = new Map([
    ...(await listAccount({ client: acc.client, batchReads: false })),
    ...[...(await listAgentNetwork(acc.client))].filter(([k]) => k !== "AgentNetworkCatalog"),
  ]);
  const twin = await startServer({ seed: validateSeed({ version: 1, objects: Object.fromEntries(listed) }) });
  const client = new PrivnetClient({ apiUrl: twin.url, token: twin.ownerToken as string, rateLimit: false });
  try {
    const view = (s: Awaited<ReturnType<typeof readSnapshot>>) => llmView(s);
    const here = view(await readSnapshot(acc.client, NOW));
    const there = view(await readSnapshot(client, NOW));
    expect(there).toEqual(here);
    expect(there?.lines.map(llmLineText)).toEqual([LAPTOPS, ADMINS]);
    // The seeded provider has no key (the API never answers one) and is served like any other.
    const p = await client.call<{ name: string }>("getAgentNetworkProvider", {
      params: { providerId: ids.openai as string },
    });
    expect(p.name).toBe("OpenAI API");
  } finally {
    await client.close();
    await twin.close();
  }
});
