/**
 * LLM use through the Agent Network gateway with real traffic, against the acceptance target (docs/llm-access.md):
 * a stand-in LLM upstream on loopback (an OpenAI-shaped chat completion with a usage block), the target's own
 * reverse proxy (started here, in private mode, registered with a proxy token), and two of the target's agents
 * enrolled here with setup keys in two new groups (userspace network stack, each with a SOCKS5 listener the requests
 * go through). A policy lets one group use a provider whose upstream is the stand-in, with a dollar cap per group.
 *
 * - A request from the allowed group succeeds, reaches the upstream with the provider's key and the caller's groups,
 *   and is metered; the cap, once spent, refuses the next request (`llm_policy.budget_cap_exceeded`); a model the
 *   provider does not list is not routable; a request from the other group gets no answer (its peer does not reach
 *   the gateway).
 * - netmap/llm.ts, given the account read through the API, decides every one of those requests as the target did
 *   (allowed or the same deny code, the same policy and authorising groups), and its counters after them equal the
 *   target's consumption rows for the new groups and peers.
 *
 * It needs what only a reference deployment has: the target's management gRPC (a target started by the tier is our
 * own server, which has none), `PRIVNET_ACCEPTANCE_PROXY_BIN` (the reference's `proxy` program) and
 * `PRIVNET_ACCEPTANCE_AGENT_BIN` (its client, `netbird`), both built from the target's release, and `openssl` on
 * PATH (the proxy's certificate). What is absent is recorded by name as not run. Everything the run makes is removed
 * at its end; the gateway's settings too when the run bootstrapped them.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as tls from "node:tls";
import { agentNetworkOf, readSnapshot } from "../../access/snapshot";
import {
  decideLlmRequest,
  peerCaller,
  priceOf,
  recordLlmUsage,
  type AccountSnapshot,
  type LlmCounter,
  type LlmDecision,
} from "../../netmap";
import { acceptance, type KindResult } from "./target";

const acc = acceptance();
const CHECK = "llm traffic";
const run = `acc${randomBytes(3).toString("hex")}llm`;
const PROXY_BIN = process.env.PRIVNET_ACCEPTANCE_PROXY_BIN ?? "";
const AGENT_BIN = process.env.PRIVNET_ACCEPTANCE_AGENT_BIN ?? "";
const USAGE = { prompt_tokens: 1000, completion_tokens: 500 };
const PRICE = { input_per_1k: 0.01, output_per_1k: 0.02 }; // $0.02 per request
const CAP_USD = 0.05; // the 3rd request crosses it, the 4th is refused

function hasOpenssl(): boolean {
  return spawnSync("openssl", ["version"], { stdio: "ignore" }).status === 0;
}

/** What this file needs and the target lacks, by name. */
function absent(): string[] {
  const out: string[] = [];
  if (acc.own)
    out.push("a reference target (the tier's own privnet-server has no management gRPC for a proxy)");
  if (!acc.probe.served.includes("ReverseProxyService")) out.push("reverse proxies on the target");
  if (!PROXY_BIN || !fs.existsSync(PROXY_BIN))
    out.push("PRIVNET_ACCEPTANCE_PROXY_BIN (the reference's proxy program)");
  if (!AGENT_BIN || !fs.existsSync(AGENT_BIN))
    out.push("PRIVNET_ACCEPTANCE_AGENT_BIN (the reference's client program)");
  if (!hasOpenssl()) out.push("openssl on PATH (the proxy's certificate)");
  return out;
}

function record(result: Omit<KindResult, "check">): void {
  acc.record({ check: CHECK, ...result });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function api<T = unknown>(
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${acc.url}/api${p}`, {
    method,
    headers: { Authorization: `Token ${acc.token}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function ok<T = Record<string, unknown>>(method: string, p: string, body?: unknown): Promise<T> {
  const r = await api<T>(method, p, body);
  if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** The stand-in upstream: every POST answers a chat completion with {@link USAGE}; requests are kept. */
function standIn(): Promise<{
  url: string;
  seen: { headers: http.IncomingHttpHeaders; model: string }[];
  close(): Promise<void>;
}> {
  const seen: { headers: http.IncomingHttpHeaders; model: string }[] = [];
  const server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      const model = String((JSON.parse(data || "{}") as { model?: unknown }).model ?? "");
      seen.push({ headers: req.headers, model });
      const body = JSON.stringify({
        id: "chatcmpl-stand-in",
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }],
        usage: { ...USAGE, total_tokens: USAGE.prompt_tokens + USAGE.completion_tokens },
      });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
        seen,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

/** A TCP connection to `ip:port` through a SOCKS5 listener (no auth), or the SOCKS error. */
function socks5(socksPort: number, ip: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socksPort, "127.0.0.1");
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no connection to ${ip}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    let stage = 0;
    let buf = Buffer.alloc(0);
    s.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    s.on("connect", () => s.write(Buffer.from([5, 1, 0])));
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === 0 && buf.length >= 2) {
        buf = buf.subarray(2);
        stage = 1;
        const addr = ip.split(".").map(Number);
        s.write(Buffer.from([5, 1, 0, 1, ...addr, port >> 8, port & 255]));
      }
      if (stage === 1 && buf.length >= 10) {
        clearTimeout(timer);
        s.off("data", onData);
        if (buf[1] !== 0) {
          s.destroy();
          reject(new Error(`SOCKS5 connect to ${ip}:${port} refused (code ${buf[1]})`));
        } else resolve(s);
      }
    };
    s.on("data", onData);
  });
}

interface Answer {
  status: number;
  code?: string;
  /** The connection failed before any HTTP answer. */
  unreachable?: string;
}

/** A chat completion request from an agent (its SOCKS5 port) to the gateway's endpoint at the proxy's overlay IP. */
async function ask(socksPort: number, proxyIp: string, endpoint: string, model: string): Promise<Answer> {
  let raw: net.Socket;
  try {
    raw = await socks5(socksPort, proxyIp, 443, 15000);
  } catch (err) {
    return { status: 0, unreachable: (err as Error).message };
  }
  const socket = tls.connect({ socket: raw, servername: endpoint, rejectUnauthorized: false });
  const body = JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: endpoint,
        path: "/v1/chat/completions",
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        createConnection: () => socket,
        timeout: 30000,
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => {
          let code: string | undefined;
          try {
            code = (JSON.parse(text) as { code?: string }).code;
          } catch {
            code = undefined;
          }
          socket.destroy();
          resolve({ status: res.statusCode ?? 0, ...(code ? { code } : {}) });
        });
      },
    );
    req.on("error", (e) => resolve({ status: 0, unreachable: e.message }));
    req.end(body);
  });
}

interface Started {
  child: ChildProcess;
  log: string;
}

function start(bin: string, args: string[], env: NodeJS.ProcessEnv, log: string): Started {
  const out = fs.openSync(log, "a");
  const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ["ignore", out, out] });
  fs.closeSync(out);
  return { child, log };
}

async function stop(s: Started | undefined): Promise<void> {
  if (!s || s.child.exitCode !== null) return;
  s.child.kill("SIGTERM");
  await Promise.race([new Promise((r) => s.child.once("exit", r)), sleep(5000)]);
  if (s.child.exitCode === null) s.child.kill("SIGKILL");
}

const missing = absent();

if (missing.length) {
  test(`LLM traffic through the reference's gateway needs pieces this run lacks (${missing.join("; ")})`, () => {
    expect(missing.length).toBeGreaterThan(0);
    record({ kind: "AgentNetwork", status: "not run", detail: `absent: ${missing.join("; ")}` });
  });
} else {
  describe("LLM traffic through the target's Agent Network gateway", () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), `${run}-`));
    /** What the run made, by kind, removed in an order the server accepts. */
    const made = {
      policy: "",
      provider: "",
      token: "",
      peers: [] as string[],
      keys: [] as string[],
      groups: [] as string[],
    };
    let upstream: Awaited<ReturnType<typeof standIn>> | undefined;
    let proxy: Started | undefined;
    const agents: Record<"allowed" | "denied", { started?: Started; socks: number; peer?: string }> = {
      allowed: { socks: 0 },
      denied: { socks: 0 },
    };
    let bootstrapped = false;
    let endpoint = "";
    let proxyIp = "";
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      upstream = await standIn();
      // The proxy: a token, a certificate for the cluster's names, private mode (per-account listeners on the
      // overlay network, where the agents' requests arrive).
      const settings = await ok<{ endpoint: string; proxy_address: string }>(
        "GET",
        "/agent-network/settings",
      );
      const cluster = settings.proxy_address || `${run}.proxy.privnet.test`;
      const token = await ok<{ id: string; plain_token: string }>("POST", "/reverse-proxies/proxy-tokens", {
        name: `${run} gateway`,
      });
      made.token = token.id;
      const certs = path.join(work, "certs");
      fs.mkdirSync(certs);
      const cert = spawnSync("openssl", [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-keyout",
        path.join(certs, "tls.key"),
        "-out",
        path.join(certs, "tls.crt"),
        "-subj",
        `/CN=${cluster}`,
        "-addext",
        `subjectAltName=DNS:${cluster},DNS:*.${cluster}`,
      ]);
      if (cert.status !== 0) throw new Error(`openssl: ${cert.stderr.toString()}`);
      const [addr, health, acme] = [await freePort(), await freePort(), await freePort()];
      proxy = start(
        PROXY_BIN,
        [
          "--mgmt",
          acc.url,
          "--addr",
          `127.0.0.1:${addr}`,
          "--domain",
          cluster,
          "--cert-dir",
          certs,
          "--health-addr",
          `127.0.0.1:${health}`,
          "--acme-addr",
          `127.0.0.1:${acme}`,
          "--geo-data-dir",
          path.join(work, "geo"),
        ],
        { NB_PROXY_TOKEN: token.plain_token, NB_PROXY_ALLOW_INSECURE: "true", NB_PROXY_PRIVATE: "true" },
        path.join(work, "proxy.log"),
      );
      await until("the proxy's cluster online", 30000, async () => {
        const list = await ok<{ address: string; online: boolean }[] | null>(
          "GET",
          "/reverse-proxies/clusters",
        );
        return (list ?? []).some((c) => c.address === cluster && c.online) ? true : undefined;
      });
      if (!settings.endpoint) {
        const s = await ok<{ endpoint: string }>("POST", "/agent-network/settings", {
          proxy_address: cluster,
        });
        bootstrapped = true;
        endpoint = s.endpoint;
      } else endpoint = settings.endpoint;

      // Two groups, a setup key each, an agent each.
      for (const which of ["allowed", "denied"] as const) {
        const g = await ok<{ id: string }>("POST", "/groups", { name: `${run}-${which}` });
        ids[which] = g.id;
        made.groups.push(g.id);
        const key = await ok<{ id: string; key: string }>("POST", "/setup-keys", {
          name: `${run}-${which}`,
          type: "reusable",
          expires_in: 86400,
          auto_groups: [g.id],
          usage_limit: 0,
        });
        made.keys.push(key.id);
        const dir = path.join(work, which);
        fs.mkdirSync(dir);
        const socks = await freePort();
        agents[which].socks = socks;
        agents[which].started = start(
          AGENT_BIN,
          [
            "up",
            "-F",
            "--setup-key",
            key.key,
            "--management-url",
            acc.url,
            "-c",
            path.join(dir, "config.json"),
            "--log-file",
            "console",
            "--daemon-addr",
            `unix://${path.join(dir, "d.sock")}`,
          ],
          {
            NB_USE_NETSTACK_MODE: "true",
            NB_STATE_DIR: dir,
            NB_SOCKS5_LISTENER_ADDRESS: "127.0.0.1",
            NB_SOCKS5_LISTENER_PORT: String(socks),
            NB_HOSTNAME: `${run}-${which}`,
            NB_DISABLE_SSH_CONFIG: "true",
          },
          path.join(dir, "agent.log"),
        );
      }
      for (const which of ["allowed", "denied"] as const)
        agents[which].peer = await until(`the ${which} agent enrolled`, 60000, async () => {
          const peers = await ok<{ id: string; name: string; connected: boolean }[]>("GET", "/peers");
          return peers.find((p) => p.name === `${run}-${which}` && p.connected)?.id;
        });
      for (const which of ["allowed", "denied"] as const) made.peers.push(agents[which].peer as string);

      // The provider (the stand-in behind it) and the policy of the allowed group, with a dollar cap per group.
      const provider = await ok<{ id: string }>("POST", "/agent-network/providers", {
        provider_id: "openai_api",
        name: `${run} stand-in`,
        upstream_url: upstream.url,
        api_key: `sk-${run}`,
        enabled: true,
        models: [{ id: "gpt-4o-mini", ...PRICE }],
      });
      ids.provider = provider.id;
      made.provider = provider.id;
      const policy = await ok<{ id: string }>("POST", "/agent-network/policies", {
        name: `${run} allowed`,
        enabled: true,
        source_groups: [ids.allowed],
        destination_provider_ids: [provider.id],
        guardrail_ids: [],
        limits: {
          token_limit: { enabled: false, group_cap: 0, user_cap: 0, window_seconds: 0 },
          budget_limit: { enabled: true, group_cap_usd: CAP_USD, user_cap_usd: 0, window_seconds: 86400 },
        },
      });
      ids.policy = policy.id;
      made.policy = policy.id;
      // The proxy opens the account's listeners on its overlay address once the gateway has a service.
      proxyIp = await until("the gateway's listener on the proxy's overlay address", 60000, async () => {
        const found = [...fs.readFileSync(proxy?.log as string, "utf8").matchAll(/https: ([0-9.]+):443/g)];
        return found.length ? (found[found.length - 1]?.[1] as string) : undefined;
      });
    }, 240000);

    afterAll(async () => {
      for (const which of ["allowed", "denied"] as const) await stop(agents[which].started);
      const del = async (p: string) => {
        const r = await api("DELETE", p).catch((e: unknown) => ({ status: 0, body: String(e) }));
        if (r.status !== 200 && r.status !== 404) process.stdout.write(`left behind: ${p} (${r.status})\n`);
      };
      // A provider a policy names cannot go; a group a setup key gives cannot either.
      if (made.policy) await del(`/agent-network/policies/${made.policy}`);
      if (made.provider) await del(`/agent-network/providers/${made.provider}`);
      for (const id of made.peers) await del(`/peers/${id}`);
      for (const id of made.keys) await del(`/setup-keys/${id}`);
      for (const id of made.groups) await del(`/groups/${id}`);
      await stop(proxy);
      if (made.token) await del(`/reverse-proxies/proxy-tokens/${made.token}`);
      if (bootstrapped) {
        // Refused while a proxy still serves the endpoint: wait for the cluster to go.
        await until("the gateway's settings deleted", 60000, async () =>
          (await api("DELETE", "/agent-network/settings")).status === 200 ? true : undefined,
        ).catch(() => process.stdout.write("left behind: the Agent Network settings\n"));
      }
      await upstream?.close();
      await acc.client.close();
      fs.rmSync(work, { recursive: true, force: true });
    }, 180000);

    /** Sends a request from an agent, waiting out the moments the agent is not connected to the proxy yet. */
    async function send(which: "allowed" | "denied", model: string, settle = true): Promise<Answer> {
      const a = agents[which];
      let answer = await ask(a.socks, proxyIp, endpoint, model);
      for (let i = 0; settle && answer.status === 0 && i < 20; i++) {
        await sleep(1000);
        answer = await ask(a.socks, proxyIp, endpoint, model);
      }
      return answer;
    }

    test("allowed, metered, capped; the other group gets no answer; netmap/llm.ts decides and meters the same", async () => {
      const before = Date.now();
      const sent: { which: "allowed" | "denied"; model: string; answer: Answer }[] = [];
      for (let i = 0; i < 5; i++)
        sent.push({
          which: "allowed",
          model: "gpt-4o-mini",
          answer: await send("allowed", "gpt-4o-mini", i === 0),
        });
      sent.push({ which: "allowed", model: "gpt-4.1", answer: await send("allowed", "gpt-4.1", false) });
      sent.push({
        which: "denied",
        model: "gpt-4o-mini",
        answer: await send("denied", "gpt-4o-mini", false),
      });

      expect(sent.map((s) => s.answer.status)).toEqual([200, 200, 200, 403, 403, 403, 0]);
      // A model the provider does not list: not routable, or, where a catch-all provider of other groups exists in
      // the account, not for this caller; the module must say which (below).
      expect(sent.map((s) => s.answer.code ?? "")).toEqual([
        "",
        "",
        "",
        "llm_policy.budget_cap_exceeded",
        "llm_policy.budget_cap_exceeded",
        expect.stringMatching(/^llm_policy\.(model_not_routable|no_authorised_provider)$/),
        "",
      ]);
      // What reached the upstream: the three served requests, with the provider's key and the caller's groups.
      expect(upstream?.seen).toHaveLength(3);
      for (const s of upstream?.seen ?? []) {
        expect(s.headers.authorization).toBe(`Bearer sk-${run}`);
        expect(String(s.headers["x-netbird-groups"]).split(",")).toContain(`${run}-allowed`);
      }

      // The module, given the account as the API shows it, decides the same requests against its own counters.
      const snapshot: AccountSnapshot = await readSnapshot(acc.client, Date.now());
      const [providers, policies, guardrails, rules, settings, catalog] = await Promise.all(
        ["providers", "policies", "guardrails", "budget-rules", "settings", "catalog/providers"].map((p) =>
          ok<unknown>("GET", `/agent-network/${p}`),
        ),
      );
      snapshot.agent_network = agentNetworkOf({
        providers: providers as unknown[],
        policies: policies as unknown[],
        guardrails: guardrails as unknown[],
        budget_rules: rules as unknown[],
        settings,
        catalog: catalog as unknown[],
      });
      let counters: LlmCounter[] = [];
      const decided: LlmDecision[] = [];
      for (const s of sent) {
        const caller = peerCaller(snapshot, agents[s.which].peer as string);
        const req = { caller, model: s.model, at: before };
        const d = decideLlmRequest(snapshot.agent_network, counters, req);
        decided.push(d);
        if (d.allow)
          counters = recordLlmUsage(snapshot.agent_network, counters, req, d, {
            tokens_input: USAGE.prompt_tokens,
            tokens_output: USAGE.completion_tokens,
            cost_usd: priceOf(snapshot.agent_network, d.provider_id as string, s.model, {
              tokens_input: USAGE.prompt_tokens,
              tokens_output: USAGE.completion_tokens,
            }),
          });
      }
      expect(decided.map((d) => (d.allow ? "" : d.deny))).toEqual([
        ...sent.slice(0, 6).map((s) => s.answer.code ?? ""),
        "unreachable",
      ]);
      expect(decided[0]).toMatchObject({
        provider_id: ids.provider,
        policy_id: ids.policy,
        group_ids: [ids.allowed],
      });

      // The target's counters for this run's groups and peers equal the module's.
      const mine = new Set([ids.allowed, ids.denied, agents.allowed.peer, agents.denied.peer]);
      const rows = (await ok<LlmCounter[] | null>("GET", "/agent-network/consumption")) ?? [];
      const text = (cs: LlmCounter[]) =>
        cs
          .filter((c) => mine.has(c.dimension_id))
          .map(
            (c) =>
              `${c.dimension_kind} ${c.dimension_id} ${c.window_seconds} ${c.window_start_utc}: ` +
              `${c.tokens_input}/${c.tokens_output} $${c.cost_usd.toFixed(6)}`,
          )
          .sort();
      expect(text(rows)).toEqual(text(counters));
      expect(text(rows)).toHaveLength(2); // the group and the peer, one day window

      // The access log: the policy and the authorising groups the module named.
      const logs = await ok<{
        data: { decision: string; selected_policy_id?: string; group_ids?: string[]; user_id?: string }[];
      }>("GET", "/agent-network/access-logs?page_size=20");
      const allowed = logs.data.filter((l) => l.decision === "allow" && l.user_id === agents.allowed.peer);
      expect(allowed).toHaveLength(3);
      for (const l of allowed) {
        expect(l.selected_policy_id).toBe(ids.policy);
        expect(l.group_ids).toEqual([ids.allowed]);
      }
      record({
        kind: "AgentNetworkPolicy",
        status: "passed",
        detail: `${sent.length} requests, the target and netmap/llm.ts agreeing: ${sent.map((x) => x.answer.code ?? (x.answer.status ? String(x.answer.status) : "no answer")).join(", ")}; consumption rows equal (${text(rows).length})`,
      });
    }, 240000);
  });
}
