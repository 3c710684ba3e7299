/**
 * privnet-access show and test against the acceptance target (our own privnet-server, or a live server at
 * PRIVNET_ACCEPTANCE_URL): every reader of the account meets the target (show exits 0 on what it answers), a
 * policy made through the API shows as access lines with its port and name, an access test it satisfies passes,
 * and one it breaks fails naming it and the policy. Uses 2 enrolled peers of the `back` half.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run } from "../../access/cli";
import { isNotFound } from "../../client";
import { acceptance } from "./target";

jest.setTimeout(120_000);

const acc = acceptance();
const tag = `ax-${process.pid}`;
const created: { op: string; param: string; id: string }[] = [];
let dir = "";

afterAll(async () => {
  for (const o of created.reverse())
    await acc.client.call(o.op, o.param ? { params: { [o.param]: o.id } } : {}).catch(() => undefined);
  await acc.client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await run(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { PRIVNET_API_URL: acc.url, PRIVNET_TOKEN: acc.token },
  });
  return { code, stdout, stderr };
}

test("show and test read the target and agree with a policy made through its API", async () => {
  if (acc.peerBudget("back") < 2) {
    acc.record({
      check: "privnet-access",
      kind: "Policy",
      status: "too few enrolled peers",
      detail: "needs 2",
    });
    expect(acc.peerBudget("back")).toBeGreaterThanOrEqual(2);
    return;
  }
  const fx = acc.fixtureTarget("back");
  const [a, b] = [await fx.peer(), await fx.peer()];
  const group = async (name: string, peers: string[]) => {
    const g = await acc.client.call<{ id: unknown }>("createGroup", {
      body: { name: `${tag}-${name}`, peers },
    });
    created.push({ op: "deleteGroup", param: "groupId", id: String(g.id) });
    return String(g.id);
  };
  const src = await group("src", [a]);
  const dst = await group("dst", [b]);
  const policy = await acc.client.call<{ id: unknown }>("createPolicy", {
    body: {
      name: `${tag}-pg`,
      enabled: true,
      rules: [
        {
          name: "pg",
          enabled: true,
          action: "accept",
          bidirectional: false,
          protocol: "tcp",
          ports: ["5432"],
          sources: [src],
          destinations: [dst],
        },
      ],
    },
  });
  created.push({ op: "deletePolicy", param: "policyId", id: String(policy.id) });

  const shown = await cli(["show", "--peer", a, "--json"]);
  expect(shown.stderr).not.toContain(acc.token);
  expect(shown.code).toBe(0);
  const reaches = JSON.parse(shown.stdout).peers[0].reaches as {
    to: { id: string };
    traffic: string;
    policy: { name: string };
    rule: { name: string };
  }[];
  const ours = reaches.filter((l) => l.policy.name === `${tag}-pg`);
  expect(ours.map((l) => [l.to.id, l.traffic, l.rule.name])).toEqual([[b, "tcp/5432", "pg"]]);

  dir = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-access-acceptance-"));
  const file = path.join(dir, "tests.yaml");
  fs.writeFileSync(
    file,
    [
      "tests:",
      `  - {name: src reaches dst, from: {group: ${tag}-src}, to: {group: ${tag}-dst}, port: 5432, expect: accept}`,
      `  - {name: src never reaches dst, from: {peer: ${a}}, to: {peer: ${b}}, port: 5432, expect: deny}`,
      "",
    ].join("\n"),
  );
  const tested = await cli(["test", "--tests", file, "--json"]);
  expect(tested.code).toBe(1);
  const results = JSON.parse(tested.stdout).results as {
    name: string;
    passed: boolean;
    policies: string[];
  }[];
  expect(results.map((r) => [r.name, r.passed])).toEqual([
    ["src reaches dst", true],
    ["src never reaches dst", false],
  ]);
  expect(results[1]?.policies).toContain(`${tag}-pg`);
  acc.record({
    check: "privnet-access",
    kind: "Policy",
    status: "passed",
    detail: `show: ${reaches.length} lines from ${a}; test: 1 passed, 1 failed as expected`,
  });
});

test("show names what a public reverse-proxy service publishes and its auth; a not-published test fails", async () => {
  const fx = acc.fixtureTarget("back");
  const cluster = acc.own ? await fx.proxyCluster() : acc.probe.proxyClusters[0];
  if (!cluster) {
    acc.record({
      check: "privnet-access",
      kind: "ReverseProxyService",
      status: "no proxy cluster",
      detail: "no online cluster to publish on",
    });
    expect(acc.probe.proxyClusters).toEqual([]);
    return;
  }
  const network = await acc.client.call<{ id: unknown }>("createNetwork", { body: { name: `${tag}-net` } });
  created.push({ op: "deleteNetwork", param: "networkId", id: String(network.id) });
  const resource = await acc.client.call<{ id: unknown }>("createNetworkResource", {
    params: { networkId: String(network.id) },
    body: { name: `${tag}-db`, address: "10.60.0.5", enabled: true, groups: [] },
  });
  const domain = `${tag}.${cluster}`;
  const service = await acc.client.call<{ id: unknown }>("createReverseProxyService", {
    body: {
      name: `${tag}-db admin`,
      domain,
      enabled: true,
      targets: [
        { target_id: String(resource.id), target_type: "host", protocol: "http", port: 8080, enabled: true },
      ],
      auth: {
        password_auth: { enabled: true, password: "ax-proxy-password-3f1a" },
        header_auths: [{ enabled: true, header: "X-Api-Key", value: "ax-proxy-header-9b0c" }],
      },
    },
  });
  // Deleted before the network (created is undone in reverse order).
  created.push({ op: "deleteReverseProxyService", param: "serviceId", id: String(service.id) });

  const shown = await cli(["show"]);
  expect(shown.code).toBe(0);
  const line =
    `https://${domain} → resource ${tag}-db (10.60.0.5:8080, network ${tag}-net) http, public, guarded by ` +
    `password, header X-Api-Key (service "${tag}-db admin")`;
  expect(shown.stdout).toContain(line);
  for (const secret of ["ax-proxy-password-3f1a", "ax-proxy-header-9b0c", acc.token])
    expect(`${shown.stdout}${shown.stderr}`).not.toContain(secret);

  dir ||= fs.mkdtempSync(path.join(os.tmpdir(), "privnet-access-acceptance-"));
  const file = path.join(dir, "published.yaml");
  fs.writeFileSync(
    file,
    [
      "tests:",
      `  - {name: the database is not published, published: {resource: ${tag}-db}, expect: not-published}`,
      `  - {name: the database only behind auth, published: {resource: ${tag}-db}, expect: only-with-auth}`,
      "",
    ].join("\n"),
  );
  const tested = await cli(["test", "--tests", file]);
  expect(tested.code).toBe(1);
  expect(tested.stdout).toContain("FAIL the database is not published");
  expect(tested.stdout).toContain(`resource ${tag}-db is published publicly by service "${tag}-db admin"`);
  expect(tested.stdout).toContain("PASS the database only behind auth");
  acc.record({
    check: "privnet-access",
    kind: "ReverseProxyService",
    status: "passed",
    detail: "show: the target published with its auth; a not-published test failed as expected",
  });
});

test("show lists LLM use the target's Agent Network grants; LLM tests pass and fail naming the policy", async () => {
  const served = await acc.client
    .call<{ endpoint?: string }>("getAgentNetworkSettings")
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  if (!served) {
    acc.record({
      check: "privnet-access",
      kind: "AgentNetwork",
      status: "not served",
      detail: "settings 404",
    });
    return;
  }
  // A gateway needs an endpoint: bootstrapped here under an online cluster when the account has none.
  let endpoint = served.endpoint ?? "";
  const cluster = acc.own ? await acc.fixtureTarget("back").proxyCluster() : acc.probe.proxyClusters[0];
  if (!endpoint && cluster) {
    const s = await acc.client.call<{ endpoint: string }>("createAgentNetworkSettings", {
      body: { proxy_address: cluster },
    });
    endpoint = s.endpoint;
    created.push({ op: "deleteAgentNetworkSettings", param: "", id: "" });
  }
  const group = await acc.client.call<{ id: unknown }>("createGroup", { body: { name: `${tag}-llm` } });
  created.push({ op: "deleteGroup", param: "groupId", id: String(group.id) });
  const provider = await acc.client.call<{ id: unknown }>("createAgentNetworkProvider", {
    body: {
      provider_id: "openai_api",
      name: `${tag} openai`,
      upstream_url: "https://api.openai.example.test",
      api_key: "sk-ax-llm-secret-51c2",
      enabled: true,
      models: [{ id: "gpt-4o-mini", input_per_1k: 0.00015, output_per_1k: 0.0006 }],
    },
  });
  created.push({ op: "deleteAgentNetworkProvider", param: "providerId", id: String(provider.id) });
  const policy = await acc.client.call<{ id: unknown }>("createAgentNetworkPolicy", {
    body: {
      name: `${tag} llm`,
      enabled: true,
      source_groups: [String(group.id)],
      destination_provider_ids: [String(provider.id)],
      guardrail_ids: [],
      limits: {
        token_limit: { enabled: true, group_cap: 0, user_cap: 2_000_000, window_seconds: 86400 },
        budget_limit: { enabled: true, group_cap_usd: 50, user_cap_usd: 0, window_seconds: 86400 },
      },
    },
  });
  // Deleted first: a provider a policy names cannot go.
  created.push({ op: "deleteAgentNetworkPolicy", param: "policyId", id: String(policy.id) });

  const shown = await cli(["show"]);
  expect(shown.code).toBe(0);
  expect(`${shown.stdout}${shown.stderr}`).not.toContain("sk-ax-llm-secret-51c2");
  if (!endpoint) {
    expect(shown.stdout).toContain("no Agent Network gateway");
    acc.record({
      check: "privnet-access",
      kind: "AgentNetworkPolicy",
      status: "no proxy cluster",
      detail: "the account has no gateway endpoint and no online cluster to bootstrap one: show says so",
    });
    return;
  }
  expect(shown.stdout).toContain(`LLM use through the Agent Network gateway ${endpoint}:`);
  expect(shown.stdout).toContain(
    `${tag}-llm → ${tag} openai (gpt-4o-mini) tokens 2M/day per user, $50/day per group (policy "${tag} llm")`,
  );
  dir ||= fs.mkdtempSync(path.join(os.tmpdir(), "privnet-access-acceptance-"));
  const file = path.join(dir, "llm.yaml");
  fs.writeFileSync(
    file,
    [
      "tests:",
      `  - {name: the group never uses openai, from: {group: ${tag}-llm}, llm: openai_api, expect: never}`,
      `  - {name: the group at most 100 a day, from: {group: ${tag}-llm}, llm: any, expect: at-most, usd: 100, per: day}`,
      `  - {name: the group at most 40 a day, from: {group: ${tag}-llm}, llm: any, expect: at-most, usd: 40, per: day}`,
      `  - {name: the group only mini, from: {group: ${tag}-llm}, llm: any, expect: only-models, models: [gpt-4o-mini]}`,
      "",
    ].join("\n"),
  );
  const tested = await cli(["test", "--tests", file]);
  expect(tested.code).toBe(1);
  expect(tested.stdout).toContain("FAIL the group never uses openai");
  expect(tested.stdout).toContain(`may use ${tag} openai (gpt-4o-mini) through policy "${tag} llm"`);
  expect(tested.stdout).toContain("PASS the group at most 100 a day");
  expect(tested.stdout).toContain("FAIL the group at most 40 a day");
  expect(tested.stdout).toContain(`up to $50 per day, above $40: $50/day per group (policy "${tag} llm")`);
  expect(tested.stdout).toContain("PASS the group only mini");
  acc.record({
    check: "privnet-access",
    kind: "AgentNetworkPolicy",
    status: "passed",
    detail:
      "show: the grant with its models and caps; never / at-most failed naming the policy, at-most / only-models passed",
  });
});
