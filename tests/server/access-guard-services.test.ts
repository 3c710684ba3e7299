/**
 * The access guard's live reads of reverse-proxy services against a privnet-server (a proxy registered through the
 * simulated agent): the services are read with the rest of the account, and a tests file about publishing is run
 * on them. A server that answers 404 for services (one that does not serve them) has none: the guard still runs.
 * A token the server rejects is named by the pack's own setting it came from.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { parseTests } from "../../access/expectations";
import { Guard, defaultIo } from "../../policy/analysis";
import { accessTestViolations } from "../../policy/checks";
import { buildAccessAccount, type AccessAccount } from "../support/access-account";
import { startTestServer, type TestServer } from "../support/server";

const CLUSTER = "guard.proxy.example.test";

let t: TestServer;
let acc: AccessAccount;
let front: http.Server;
let frontUrl = "";
const seen: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ simulate: true });
  acc = await buildAccessAccount(t.url, t.token);
  const token = await acc.client.call<{ plain_token: string }>("createProxyToken", {
    body: { name: "edge" },
  });
  const reg = await t.raw("POST", "/sim/proxies", {
    body: JSON.stringify({ token: token.plain_token, address: CLUSTER }),
    headers: { "Content-Type": "application/json" },
  });
  expect(reg.status).toBe(200);
  await acc.client.call("createReverseProxyService", {
    body: {
      name: "files",
      domain: `files.${CLUSTER}`,
      enabled: true,
      targets: [
        { target_id: acc.resource, target_type: "host", protocol: "http", port: 8080, enabled: true },
      ],
      auth: { password_auth: { enabled: true, password: "guard-files-pw-5e1" } },
    },
  });
  // A server in front that does not serve reverse-proxy services (404), and passes everything else on.
  front = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if ((req.url ?? "").startsWith("/api/reverse-proxies/")) {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: "not found", code: 404 }));
      return;
    }
    const up = http.request(`${t.url}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await acc?.client.close();
  await new Promise((resolve) => (front ? front.close(resolve) : resolve(undefined)));
  await t?.close();
});

const EMPTY_STATE = JSON.stringify({ version: 3, deployment: { resources: [] } });

function guard(apiUrl: string): Guard {
  const env = {
    PULUMI_NODEJS_STACK: "dev",
    PULUMI_NODEJS_PROJECT: "proj",
    PULUMI_NODEJS_DRY_RUN: "true",
    PRIVNET_API_URL: apiUrl,
    PRIVNET_TOKEN: t.token,
  };
  return new Guard({ ...defaultIo(env), exportState: async () => EMPTY_STATE });
}

const tests = parseTests(
  [
    "tests:",
    "  - {name: the file server is not published, published: {resource: files}, expect: not-published}",
    "  - {name: the file server only behind auth, published: {resource: files}, expect: only-with-auth}",
    "",
  ].join("\n"),
  "t.yaml",
);

test("the services are read live, and a not-published test fails on them naming the service", async () => {
  const a = await guard(t.url).analyze([], {});
  expect((a.before.snapshot.proxy_services ?? []).map((s) => [s.name, s.domain])).toEqual([
    ["files", `files.${CLUSTER}`],
  ]);
  const out = accessTestViolations(a, tests, "t.yaml");
  expect(out.map((v) => v.message.split("\n"))).toEqual([
    [
      "FAIL the file server is not published (expect not-published, 1 pair) after this change",
      `  resource files is published publicly by service "files" at https://files.${CLUSTER} (public, guarded by password)`,
      'services responsible: "files"',
      "(access test from t.yaml)",
    ],
  ]);
});

test("a server that answers 404 for services has none: the guard reads the rest, reads only", async () => {
  seen.length = 0;
  const a = await guard(frontUrl).analyze([], {});
  expect(seen).toContain("GET /api/reverse-proxies/services");
  expect(seen.filter((l) => !l.startsWith("GET "))).toEqual([]);
  expect(a.before.snapshot.proxy_services).toEqual([]);
  expect(a.before.snapshot.peers.length).toBe(5);
  expect(accessTestViolations(a, tests, "t.yaml")).toEqual([]);
});

test("a rejected token: the message names the pack's own setting it came from, not privnet-access's flags", async () => {
  const env = (over: Record<string, string>) => ({
    PULUMI_NODEJS_STACK: "dev",
    PULUMI_NODEJS_PROJECT: "proj",
    PULUMI_NODEJS_DRY_RUN: "true",
    PRIVNET_API_URL: t.url,
    ...over,
  });
  const failure = async (e: Record<string, string>, cfg: { token?: string }) => {
    const g = new Guard({ ...defaultIo(env(e)), exportState: async () => EMPTY_STATE });
    const err = await g.analyze([], cfg).then(
      () => undefined,
      (x: unknown) => x as Error,
    );
    expect(err?.message).not.toContain("--token-file");
    expect(err?.message).not.toContain("nbp_bad");
    return err?.message;
  };
  expect(await failure({ PULUMI_CONFIG: JSON.stringify({ "privnet:token": "nbp_bad_stack" }) }, {})).toMatch(
    /^the server at http:\/\/127\.0\.0\.1:\d+ rejected the token \(401: .*\); check the stack's privnet:token \(the pack takes its config's token, else the stack's privnet:token, else PRIVNET_TOKEN\)$/,
  );
  expect(await failure({}, { token: "nbp_bad_config" })).toContain("rejected the token (401: ");
  expect(await failure({}, { token: "nbp_bad_config" })).toContain("; check the policy config's token (");
  expect(await failure({ PRIVNET_TOKEN: "nbp_bad_env" }, {})).toContain("; check PRIVNET_TOKEN (");
});
