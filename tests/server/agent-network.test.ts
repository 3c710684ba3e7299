/**
 * Agent Networks on privnet-server, beyond the recorded sequence (tests/server/agent-network-replay.test.ts):
 * the API key is write-only (never answered, kept by an update without one, sealed in the database, never in
 * the request log or the audit log), and the simulated gateway (`/sim/llm`, `privnet-server sim llm`) decides
 * and meters requests so that consumption, usage, access logs and sessions answer from them.
 */
import * as fs from "node:fs";
import type { RequestLogEntry } from "../../server/context";
import { ManualClock } from "../../server/clock";
import { simMain } from "../../server/sim-cli";
import { expectError, startTestServer, type TestServer } from "../support/server";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY = "sk-test-4f8a2c91e0b3d7c6a5f4e3d2c1b0a9f8";

let s: TestServer;
let clock: ManualClock;
const logged: RequestLogEntry[] = [];

beforeAll(async () => {
  clock = new ManualClock(Date.parse("2026-03-04T10:00:00Z"));
  s = await startTestServer({ clock, simulate: true, embeddedIdp: true, onRequest: (e) => logged.push(e) });
});
afterAll(() => s.close());

const ok = async (op: string, args: Parameters<TestServer["call"]>[1] = {}) => {
  const r = await s.call(op, args);
  if (r.status !== 200) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

async function sim(body: Record<string, unknown>) {
  const r = await s.raw("POST", "/sim/llm", {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
  return r;
}

describe("the API key", () => {
  test("is never answered, stays when an update leaves it out, is replaced when one is sent", async () => {
    const created = await ok("createAgentNetworkProvider", {
      body: {
        provider_id: "openai_api",
        name: "keyed",
        upstream_url: "https://api.openai.com",
        api_key: KEY,
      },
    });
    const id = created.id as string;
    const store = s.server.state.store;
    expect(store.get("agent_network_provider", id)?.api_key).toBe(KEY);
    const answers = [
      created,
      await ok("getAgentNetworkProvider", { params: { providerId: id } }),
      await ok("listAgentNetworkProviders"),
      await ok("updateAgentNetworkProvider", {
        params: { providerId: id },
        body: { provider_id: "openai_api", name: "renamed", upstream_url: "https://api.openai.com" },
      }),
      await ok("listAuditEvents"),
    ];
    for (const a of answers) {
      expect(JSON.stringify(a)).not.toContain(KEY);
      expect(JSON.stringify(a)).not.toContain("api_key");
    }
    expect(store.get("agent_network_provider", id)?.api_key).toBe(KEY);
    // An empty key is no key: the stored one stays.
    await ok("updateAgentNetworkProvider", {
      params: { providerId: id },
      body: {
        provider_id: "openai_api",
        name: "renamed",
        upstream_url: "https://api.openai.com",
        api_key: "",
      },
    });
    expect(store.get("agent_network_provider", id)?.api_key).toBe(KEY);
    await ok("updateAgentNetworkProvider", {
      params: { providerId: id },
      body: {
        provider_id: "openai_api",
        name: "renamed",
        upstream_url: "https://api.openai.com",
        api_key: "sk-new",
      },
    });
    expect(store.get("agent_network_provider", id)?.api_key).toBe("sk-new");
    // Sealed in every database file, and absent from the request log.
    for (const f of [s.dbFile, `${s.dbFile}-wal`].filter((x) => fs.existsSync(x))) {
      const bytes = fs.readFileSync(f).toString("latin1");
      expect(bytes.includes(KEY)).toBe(false);
      expect(bytes.includes("sk-new")).toBe(false);
    }
    expect(JSON.stringify(logged)).not.toContain(KEY);
    await ok("deleteAgentNetworkProvider", { params: { providerId: id } });
  });

  test("is required on create, and a line break in it is refused", async () => {
    const base = { provider_id: "openai_api", name: "x", upstream_url: "https://api.openai.com" };
    expectError(await s.call("createAgentNetworkProvider", { body: base }), 422, "api_key");
    expectError(
      await s.call("createAgentNetworkProvider", { body: { ...base, api_key: "sk\r\nX-Evil: 1" } }),
      422,
      "api_key",
    );
    expect(await ok("listAgentNetworkProviders")).toEqual([]);
  });
});

describe("the simulated gateway", () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await ok("createAgentNetworkSettings", { body: { proxy_address: "gw.example.com" } });
    ids.eng = (await ok("createGroup", { body: { name: "engineering" } })).id;
    ids.con = (await ok("createGroup", { body: { name: "contractors" } })).id;
    ids.sup = (await ok("createGroup", { body: { name: "support" } })).id;
    ids.alice = (
      await ok("createUser", {
        body: { name: "alice", role: "user", auto_groups: [ids.eng], is_service_user: true },
      })
    ).id;
    ids.bob = (
      await ok("createUser", {
        body: { name: "bob", role: "user", auto_groups: [ids.con], is_service_user: true },
      })
    ).id;
    ids.openai = (
      await ok("createAgentNetworkProvider", {
        body: {
          provider_id: "openai_api",
          name: "openai",
          upstream_url: "https://api.openai.com",
          api_key: KEY,
          enabled: true,
          // Its own price for the one model it serves.
          models: [{ id: "gpt-4o-mini", input_per_1k: 0.5, output_per_1k: 2 }],
        },
      })
    ).id;
    // Lists no model: serves every model the other does not list, at the catalog's prices.
    ids.catchAll = (
      await ok("createAgentNetworkProvider", {
        body: {
          provider_id: "openai_api",
          name: "openai, any model",
          upstream_url: "https://api.openai.com",
          api_key: KEY,
          enabled: true,
        },
      })
    ).id;
    ids.guard = (
      await ok("createAgentNetworkGuardrail", {
        body: {
          name: "small models",
          checks: {
            model_allowlist: { enabled: true, models: ["gpt-4o-mini", "gpt-5.4"] },
            prompt_capture: { enabled: true, redact_pii: true },
          },
        },
      })
    ).id;
    ids.policy = (
      await ok("createAgentNetworkPolicy", {
        body: {
          name: "engineering to openai",
          source_groups: [ids.eng],
          destination_provider_ids: [ids.openai, ids.catchAll],
          guardrail_ids: [ids.guard],
          limits: { token_limit: { enabled: true, group_cap: 10_000, user_cap: 0, window_seconds: 86_400 } },
        },
      })
    ).id;
  });

  test("an allowed request is metered at the provider's own price, and through a catch-all at the catalog's", async () => {
    const r = await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 2000,
      output_tokens: 500,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      decision: "allow",
      user_id: ids.alice,
      group_ids: [ids.eng],
      selected_policy_id: ids.policy,
      resolved_provider_id: ids.openai,
      provider: "openai",
      host: "api.openai.com",
      input_cost_usd: 1,
      output_cost_usd: 1,
      cost_usd: 2,
      total_tokens: 2500,
    });
    // gpt-5.4 is not among the first provider's models: the catch-all serves it, at the catalog's prices (0.0025
    // and 0.015 per 1k). The gateway routes by model: the request need not name the provider.
    const c = await sim({ user: ids.alice, model: "gpt-5.4", input_tokens: 1000, output_tokens: 1000 });
    expect(c.body).toMatchObject({
      decision: "allow",
      resolved_provider_id: ids.catchAll,
      selected_policy_id: ids.policy,
      input_cost_usd: 0.0025,
      output_cost_usd: 0.015,
    });
  });

  test("refusals: a caller no policy names gets no answer; a model the guardrail does not allow; a provider the model is not routed to", async () => {
    const before = (await ok("listAgentNetworkAccessLogs")).total_records;
    const unreachable = await sim({
      user: ids.bob,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 10,
      output_tokens: 10,
    });
    expect(unreachable.status).toBe(412);
    expect(unreachable.body.message).toMatch(/does not reach the gateway/);
    expect((await ok("listAgentNetworkAccessLogs")).total_records).toBe(before);
    const model = await sim({ user: ids.alice, model: "gpt-4o", input_tokens: 10, output_tokens: 10 });
    expect(model.body).toMatchObject({
      decision: "deny",
      status_code: 403,
      deny_reason: "llm_policy.model_blocked",
      resolved_provider_id: ids.catchAll,
      cost_usd: 0,
      input_tokens: 0,
    });
    const off = await ok("createAgentNetworkProvider", {
      body: {
        provider_id: "anthropic_api",
        name: "off",
        upstream_url: "https://api.anthropic.com",
        api_key: "k",
      },
    });
    const elsewhere = await sim({
      groups: [ids.eng],
      provider: off.id,
      model: "claude-haiku-4-5",
      input_tokens: 1,
      output_tokens: 1,
    });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toContain(`to provider ${ids.catchAll}, not ${off.id}`);
    await ok("deleteAgentNetworkProvider", { params: { providerId: off.id } });
    expect((await ok("listAgentNetworkAccessLogs")).total_records).toBe(before + 1);
    expect((await sim({ provider: ids.openai, model: "m", input_tokens: 1, output_tokens: 1 })).status).toBe(
      422,
    );
    expect(
      (await sim({ user: "nobody", provider: ids.openai, model: "m", input_tokens: 1, output_tokens: 1 }))
        .status,
    ).toBe(404);
    expect(
      (await sim({ user: ids.alice, provider: "nope", model: "m", input_tokens: 1, output_tokens: 1 }))
        .status,
    ).toBe(404);
  });

  test("a spent cap refuses the next request, until the window turns", async () => {
    // 2500 + 2000 tokens so far; the group's cap is 10,000 a day.
    const big = await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 5000,
      output_tokens: 1000,
    });
    expect(big.body).toMatchObject({ decision: "allow" });
    const over = await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 1,
      output_tokens: 1,
    });
    expect(over.body).toMatchObject({ decision: "deny", deny_reason: "llm_policy.token_cap_exceeded" });
    clock.advance(DAY);
    const next = await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 1,
      output_tokens: 1,
    });
    expect(next.body).toMatchObject({ decision: "allow" });
    clock.advance(-DAY);
  });

  test("a budget rule binds whatever the policies allow, refusing with the account's code", async () => {
    const rule = await ok("createAgentNetworkBudgetRule", {
      body: {
        name: "alice's day",
        target_users: [ids.alice],
        limits: { budget_limit: { enabled: true, group_cap_usd: 0, user_cap_usd: 1, window_seconds: 3600 } },
      },
    });
    // Another day (the group's daily token cap is spent on this one), in another hour.
    clock.advance(DAY + 2 * HOUR);
    const first = await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 2000,
      output_tokens: 0,
    });
    expect(first.body).toMatchObject({ decision: "allow", cost_usd: 1 });
    const second = await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 10,
      output_tokens: 0,
    });
    expect(second.body).toMatchObject({
      decision: "deny",
      deny_reason: "llm_account.budget_cap_exceeded",
      selected_policy_id: "",
    });
    await ok("deleteAgentNetworkBudgetRule", { params: { ruleId: rule.id } });
    clock.advance(-DAY - 2 * HOUR);
  });

  test("consumption counts per user and in the policy's group bucket, in the policy's window", async () => {
    const rows = (await ok("listAgentNetworkConsumption")) as Record<string, unknown>[];
    const today = rows.filter(
      (r) => r.window_start_utc === "2026-03-04T00:00:00Z" && r.window_seconds === 86_400,
    );
    expect(today).toEqual([
      expect.objectContaining({
        dimension_kind: "user",
        dimension_id: ids.alice,
        tokens_input: 8000,
        tokens_output: 2500,
      }),
      expect.objectContaining({
        dimension_kind: "group",
        dimension_id: ids.eng,
        tokens_input: 8000,
        tokens_output: 2500,
      }),
    ]);
    expect(today[0]!.cost_usd).toBeCloseTo(2 + 0.0175 + 2.5 + 2, 9);
    // Newest window first.
    const starts = rows.map((r) => Date.parse(String(r.window_start_utc)));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
  });

  test("usage buckets by day and week; access logs filter, sort and page; sessions group by session id", async () => {
    const days = (await ok("getAgentNetworkUsageOverview")) as Record<string, unknown>[];
    expect(days.map((d) => d.period_start)).toEqual(["2026-03-04", "2026-03-05"]);
    expect(days[0]).toMatchObject({ input_tokens: 8000, output_tokens: 2500, total_tokens: 10_500 });
    const weeks = (await ok("getAgentNetworkUsageOverview", { query: { granularity: "week" } })) as unknown[];
    expect(weeks).toEqual([expect.objectContaining({ period_start: "2026-03-02" })]);

    const all = await ok("listAgentNetworkAccessLogs", { query: { sort_order: "asc" } });
    expect(all.total_records).toBe(all.data.length);
    const denied = await ok("listAgentNetworkAccessLogs", { query: { decision: "deny" } });
    expect(denied.data.every((e: { decision: string }) => e.decision === "deny")).toBe(true);
    expect(denied.total_records).toBeGreaterThanOrEqual(3);
    const paged = await ok("listAgentNetworkAccessLogs", {
      query: { page: 2, page_size: 2, sort_by: "cost_usd" },
    });
    expect(paged).toMatchObject({ page: 2, page_size: 2, total_records: all.total_records });
    expect(paged.data).toHaveLength(2);
    const byModel = await ok("listAgentNetworkAccessLogs", { query: { model: "gpt-5.4" } });
    expect(byModel.data.map((e: { model: string }) => e.model)).toEqual(["gpt-5.4"]);

    // A fresh day for what follows: alice's group spent its cap of the 4th.
    clock.set(Date.parse("2026-03-10T10:00:00Z"));
    await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 1,
      output_tokens: 1,
      session_id: "s-1",
    });
    await sim({
      user: ids.alice,
      model: "gpt-5.4",
      input_tokens: 1,
      output_tokens: 1,
      session_id: "s-1",
    });
    const sessions = await ok("listAgentNetworkAccessLogSessions", { query: { session_id: "s-1" } });
    expect(sessions.total_records).toBe(1);
    expect(sessions.data[0]).toMatchObject({
      session_id: "s-1",
      request_count: 2,
      models: ["gpt-4o-mini", "gpt-5.4"],
      decision: "allow",
    });
    expect(sessions.data[0].entries).toHaveLength(2);
  });

  test("log collection off: usage still counts, the access log does not keep the request", async () => {
    const settings = await ok("getAgentNetworkSettings");
    const put = (on: boolean) =>
      ok("updateAgentNetworkSettings", {
        body: {
          endpoint: settings.endpoint,
          proxy_address: settings.proxy_address,
          enable_log_collection: on,
          enable_prompt_collection: true,
          redact_pii: false,
          access_log_retention_days: 30,
        },
      });
    await put(false);
    const before = (await ok("listAgentNetworkAccessLogs")).total_records;
    const usage = (await ok("getAgentNetworkUsageOverview")) as { total_tokens: number }[];
    await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 7,
      output_tokens: 0,
    });
    expect((await ok("listAgentNetworkAccessLogs")).total_records).toBe(before);
    const after = (await ok("getAgentNetworkUsageOverview")) as { total_tokens: number }[];
    expect(after.reduce((a, b) => a + b.total_tokens, 0)).toBe(
      usage.reduce((a, b) => a + b.total_tokens, 0) + 7,
    );
    await put(true);
  });

  test("prompts are captured where the settings and a guardrail ask, with personal data masked", async () => {
    const r = await sim({
      user: ids.alice,
      provider: ids.openai,
      model: "gpt-4o-mini",
      input_tokens: 1,
      output_tokens: 1,
      prompt: "mail alice@example.com, card 4111111111111111",
      completion: "done",
    });
    expect(r.body.request_prompt).toBe("mail [redacted email], card [redacted number]");
    expect(r.body.response_completion).toBe("done");
  });

  test("privnet-server sim llm sends the request and prints the entry; the provider is optional", async () => {
    let stdout = "";
    const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk: any) => {
      stdout += String(chunk);
      return true;
    });
    let code: number;
    let routed: number;
    try {
      code = await simMain([
        "llm",
        "--url",
        s.url,
        "--provider",
        ids.openai!,
        "--model",
        "gpt-4o-mini",
        "--input",
        "100",
        "--output",
        "10",
        "--group",
        ids.eng!,
        "--session",
        "cli",
        "--count",
        "2",
      ]);
      routed = await simMain([
        "llm",
        "--url",
        s.url,
        "--model",
        "gpt-5.4",
        "--input",
        "1",
        "--output",
        "1",
        "--group",
        ids.eng!,
      ]);
    } finally {
      spy.mockRestore();
    }
    expect(code).toBe(0);
    expect(routed).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      decision: "allow",
      session_id: "cli",
      group_ids: [ids.eng],
      input_tokens: 100,
    });
    expect(lines[2]).toMatchObject({
      decision: "allow",
      resolved_provider_id: ids.catchAll,
      model: "gpt-5.4",
    });
    expect(stdout).not.toContain(KEY);
  });
});
