/**
 * Reverse proxies on privnet-server: services, custom domains, clusters and proxy tokens, with the simulated
 * proxy and DNS (`--simulate`). What each case asserts is what the reference answered when run
 * (docs/reference-answers.md, "Reverse proxies"), except where noted as ours.
 */
import * as fs from "node:fs";
import { MAX_PROXY_TOKEN_SECONDS } from "../../api/reverse-proxy";
import type { RequestLogEntry } from "../../server/context";
import { addPeer } from "../support/fixtures";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
const requestLog: RequestLogEntry[] = [];
const CLUSTER = "proxy.example.test";
let groupId: string;
let hostId: string;
let domainResId: string;
let subnetId: string;
let networkId: string;

async function sim(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function ok(op: string, args: { params?: Record<string, string>; body?: unknown } = {}) {
  const r = await s.call(op, args);
  if (r.status < 200 || r.status > 299) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

function lastAudit() {
  const events = s.server.state.store.auditEvents();
  return events[events.length - 1];
}

let n = 0;
const service = (over: Record<string, unknown> = {}) => ({
  name: "db admin",
  domain: `svc${++n}.${CLUSTER}`,
  enabled: true,
  targets: [{ target_id: hostId, target_type: "host", protocol: "http", port: 8080, enabled: true }],
  ...over,
});

beforeAll(async () => {
  s = await startTestServer({ simulate: true, onRequest: (e) => requestLog.push(e) });
  const token = await ok("createProxyToken", { body: { name: "edge" } });
  const reg = await sim("/sim/proxies", { token: token.plain_token, address: CLUSTER });
  expect(reg.status).toBe(200);
  groupId = (await ok("createGroup", { body: { name: "ops" } })).id;
  networkId = (await ok("createNetwork", { body: { name: "lan" } })).id;
  const resource = (name: string, address: string) =>
    ok("createNetworkResource", {
      params: { networkId },
      body: { name, address, enabled: true, groups: [groupId] },
    });
  hostId = (await resource("db", "10.0.0.5")).id;
  domainResId = (await resource("wiki", "wiki.internal.example")).id;
  subnetId = (await resource("lan", "10.1.0.0/16")).id;
});
afterAll(() => s.close());

describe("proxy clusters and tokens", () => {
  test("a proxy registering with a token makes its cluster and free domain appear", async () => {
    const clusters = await ok("listProxyClusters");
    expect(clusters).toEqual([
      expect.objectContaining({ address: CLUSTER, type: "account", online: true, connected_proxies: 1 }),
    ]);
    const domains = await ok("listReverseProxyDomains");
    expect(domains).toContainEqual(
      expect.objectContaining({ id: "", domain: CLUSTER, type: "free", validated: true }),
    );
    const tokens = await ok("listProxyTokens");
    expect(tokens[0]).toMatchObject({ name: "edge", revoked: false });
    expect(tokens[0].last_used).toBeDefined();
  });

  test("a token's value is answered once and stored only as a hash; delete revokes, and a revoked token cannot register", async () => {
    const created = await ok("createProxyToken", { body: { name: "ci", expires_in: 3600 } });
    expect(created.plain_token).toMatch(/^pnx_[0-9A-Za-z]{36}$/);
    expect(created.expires_at).toBeDefined();
    expect(lastAudit()).toMatchObject({ activity_code: "proxy.token.create", target_id: created.id });
    const stored = JSON.stringify(s.server.state.store.get("proxy_token", created.id));
    expect(stored).not.toContain(created.plain_token);
    expect(JSON.stringify(await ok("listProxyTokens"))).not.toContain(created.plain_token);
    expect(await ok("deleteProxyToken", { params: { tokenId: created.id } })).toEqual({});
    expect((await ok("listProxyTokens")).find((t: any) => t.id === created.id)).toMatchObject({
      revoked: true,
    });
    // A second delete of a revoked token is still fine (as on the reference); an unknown one is 404.
    expect((await s.call("deleteProxyToken", { params: { tokenId: created.id } })).status).toBe(200);
    expectError(await s.call("deleteProxyToken", { params: { tokenId: "nope" } }), 404);
    const refused = await sim("/sim/proxies", { token: created.plain_token, address: "other.example.test" });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(created.plain_token);
    expect((await sim("/sim/proxies", { token: "pnx_unknown", address: "x.example.test" })).status).toBe(401);
  });

  test("token bodies are checked field by field", async () => {
    expectError(await s.call("createProxyToken", { body: {} }), 422, "name");
    expectError(await s.call("createProxyToken", { body: { name: "x".repeat(256) } }), 422, "name");
    expectError(await s.call("createProxyToken", { body: { name: "x", expires_in: -1 } }), 422, "expires_in");
    // Past the longest duration the service can represent (2^63 ns): refused, not a 500 and not a wrong date.
    for (const expires_in of [MAX_PROXY_TOKEN_SECONDS + 1, 9007199254740990]) {
      expectError(await s.call("createProxyToken", { body: { name: "x", expires_in } }), 422, "expires_in");
    }
  });

  test("the longest lifetime is the service's longest duration (about 292 years), not a century", async () => {
    expect(MAX_PROXY_TOKEN_SECONDS).toBe(Math.floor((2 ** 63 - 1) / 1e9));
    const created = await ok("createProxyToken", {
      body: { name: "long", expires_in: MAX_PROXY_TOKEN_SECONDS },
    });
    const lifetime = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / 1000;
    expect(lifetime).toBe(MAX_PROXY_TOKEN_SECONDS);
    // Well past a century: the old bound (3,153,600,000 s) no longer refuses it.
    expect(new Date(created.expires_at).getUTCFullYear()).toBeGreaterThan(new Date().getUTCFullYear() + 290);
    await ok("deleteProxyToken", { params: { tokenId: created.id } });
  });

  test("deleting a cluster removes the account's own proxies; then it is unknown (404)", async () => {
    const token = await ok("createProxyToken", { body: { name: "temp" } });
    await sim("/sim/proxies", { token: token.plain_token, address: "temp.example.test" });
    expect((await ok("listProxyClusters")).map((c: any) => c.address)).toContain("temp.example.test");
    expect(await ok("deleteProxyCluster", { params: { clusterAddress: "temp.example.test" } })).toEqual({});
    expect((await ok("listProxyClusters")).map((c: any) => c.address)).not.toContain("temp.example.test");
    expectError(await s.call("deleteProxyCluster", { params: { clusterAddress: "temp.example.test" } }), 404);
  });
});

describe("shared clusters (--proxy-cluster)", () => {
  test("are online without a proxy, serve services, and cannot be deleted through the API", async () => {
    const shared = await startTestServer({ proxyClusters: ["eu.proxy.example.net"] });
    try {
      const clusters = await shared.call("listProxyClusters");
      expect(clusters.body).toEqual([
        expect.objectContaining({ address: "eu.proxy.example.net", type: "shared", online: true }),
      ]);
      const net = await shared.call("createNetwork", { body: { name: "n" } });
      const res = await shared.call("createNetworkResource", {
        params: { networkId: net.body.id },
        body: { name: "h", address: "10.0.0.9", enabled: true, groups: [] },
      });
      const svc = await shared.call("createReverseProxyService", {
        body: {
          name: "s",
          domain: "app.eu.proxy.example.net",
          enabled: true,
          targets: [
            { target_id: res.body.id, target_type: "host", protocol: "http", port: 80, enabled: true },
          ],
        },
      });
      expect(svc.body).toMatchObject({ proxy_cluster: "eu.proxy.example.net", meta: { status: "active" } });
      expectError(
        await shared.call("deleteProxyCluster", { params: { clusterAddress: "eu.proxy.example.net" } }),
        404,
      );
    } finally {
      await shared.close();
    }
  });
});

describe("reverse-proxy services", () => {
  test("create, get, list, replace, delete; the host comes from the resource; secrets never answered", async () => {
    const body = service({
      pass_host_header: true,
      targets: [
        {
          target_id: domainResId,
          target_type: "domain",
          protocol: "https",
          port: 443,
          enabled: true,
          path: "/",
          options: { request_timeout: "90s", custom_headers: { "X-Upstream": "v1" }, skip_tls_verify: true },
        },
        {
          target_id: subnetId,
          target_type: "subnet",
          host: "10.1.2.3",
          protocol: "http",
          port: 80,
          enabled: false,
        },
      ],
      auth: {
        password_auth: { enabled: true, password: "pw-secret-1" },
        pin_auth: { enabled: true, pin: "1234" },
        header_auths: [{ enabled: true, header: "X-Token", value: "hdr-secret-1" }],
        bearer_auth: { enabled: false, distribution_groups: [groupId] },
      },
      access_restrictions: {
        allowed_cidrs: ["192.0.2.0/24"],
        allowed_countries: ["de", "FR"],
        blocked_cidrs: [],
      },
    });
    const created = await ok("createReverseProxyService", { body });
    const id = created.id as string;
    expect(created).toMatchObject({
      name: "db admin",
      domain: body.domain,
      mode: "http",
      listen_port: 0,
      proxy_cluster: CLUSTER,
      enabled: true,
      pass_host_header: true,
      rewrite_redirects: false,
      private: false,
      terminated: false,
      meta: { status: "active" },
      access_restrictions: { allowed_cidrs: ["192.0.2.0/24"], allowed_countries: ["DE", "FR"] },
      auth: {
        password_auth: { enabled: true, password: "" },
        pin_auth: { enabled: true, pin: "" },
        header_auths: [{ enabled: true, header: "X-Token", value: "" }],
        bearer_auth: { enabled: false, distribution_groups: [groupId] },
      },
    });
    expect(created.targets).toEqual([
      {
        target_id: domainResId,
        target_type: "domain",
        protocol: "https",
        port: 443,
        enabled: true,
        path: "/",
        host: "wiki.internal.example",
        options: { request_timeout: "1m30s", custom_headers: { "X-Upstream": "v1" }, skip_tls_verify: true },
      },
      {
        target_id: subnetId,
        target_type: "subnet",
        host: "10.1.2.3",
        protocol: "http",
        port: 80,
        enabled: false,
        options: {},
      },
    ]);
    const text = JSON.stringify(created);
    for (const secret of ["pw-secret-1", "1234", "hdr-secret-1"]) expect(text).not.toContain(secret);
    expect(lastAudit()).toMatchObject({
      activity_code: "service.create",
      target_id: id,
      meta: { name: "db admin", domain: body.domain, proxy_cluster: CLUSTER, auth: true },
    });
    expect(JSON.stringify(lastAudit())).not.toContain("pw-secret-1");
    expect(await ok("getReverseProxyService", { params: { serviceId: id } })).toEqual(created);
    expect(await ok("listReverseProxyServices")).toContainEqual(created);

    // An update that sends the secrets empty keeps them; one that leaves auth out clears it.
    const keep = {
      ...body,
      name: "renamed",
      auth: {
        password_auth: { enabled: true, password: "" },
        pin_auth: { enabled: true, pin: "" },
        header_auths: [{ enabled: true, header: "x-token", value: "" }],
      },
    };
    await ok("updateReverseProxyService", { params: { serviceId: id }, body: keep });
    const secrets = s.server.state.store.get("proxy_service", id)?.auth_secrets;
    expect(secrets).toEqual({ password: "pw-secret-1", pin: "1234", headers: { "x-token": "hdr-secret-1" } });
    expect(lastAudit()).toMatchObject({ activity_code: "service.update", target_id: id });
    const cleared = await ok("updateReverseProxyService", {
      params: { serviceId: id },
      body: { ...body, auth: undefined },
    });
    expect(cleared.auth).toEqual({});

    expect(await ok("deleteReverseProxyService", { params: { serviceId: id } })).toEqual({});
    expect(lastAudit()).toMatchObject({ activity_code: "service.delete", target_id: id });
    expectError(await s.call("getReverseProxyService", { params: { serviceId: id } }), 404);
    expectError(await s.call("deleteReverseProxyService", { params: { serviceId: id } }), 404);
  });

  test("a target that does not exist, or is not what it says, is a 422 naming the field; nothing is stored", async () => {
    const before = (await ok("listReverseProxyServices")).length;
    const bad = async (target: Record<string, unknown>, field: string) =>
      expectError(
        await s.call("createReverseProxyService", {
          body: service({ targets: [{ protocol: "http", port: 80, enabled: true, ...target }] }),
        }),
        422,
        field,
      );
    await bad({ target_id: "nope", target_type: "host" }, "targets[0].target_id");
    await bad({ target_id: "nope", target_type: "peer" }, "targets[0].target_id");
    await bad(
      {
        target_id: "nope.example",
        target_type: "cluster",
        host: "10.0.0.1",
        options: { direct_upstream: true },
      },
      "targets[0].target_id",
    );
    await bad({ target_id: hostId, target_type: "domain" }, "targets[0].target_type");
    await bad({ target_id: subnetId, target_type: "subnet" }, "targets[0].host");
    await bad({ target_id: hostId, target_type: "host", port: 70000 }, "targets[0].port");
    await bad(
      { target_id: hostId, target_type: "host", options: { request_timeout: "abc" } },
      "targets[0].options.request_timeout",
    );
    await bad(
      { target_id: hostId, target_type: "host", options: { custom_headers: { Connection: "x" } } },
      "targets[0].options.custom_headers.Connection",
    );
    await bad(
      { target_id: hostId, target_type: "host", options: { custom_headers: { Host: "x" } } },
      "targets[0].options.custom_headers.Host",
    );
    expect((await ok("listReverseProxyServices")).length).toBe(before);
  });

  test("a peer target takes the peer's overlay address; the peer cannot be deleted while targeted", async () => {
    const peer = addPeer(s);
    const created = await ok("createReverseProxyService", {
      body: service({
        targets: [{ target_id: peer.id, target_type: "peer", protocol: "http", port: 3000, enabled: true }],
      }),
    });
    expect(created.targets[0].host).toBe(peer.ip);
    expectError(await s.call("deletePeer", { params: { peerId: peer.id } }), 412, /reverse-proxy service/);
    await ok("deleteReverseProxyService", { params: { serviceId: created.id } });
    expect((await s.call("deletePeer", { params: { peerId: peer.id } })).status).toBe(200);
  });

  test("a targeted resource (412) and a group a service names (400) cannot be deleted", async () => {
    const g = await ok("createGroup", { body: { name: "readers" } });
    const created = await ok("createReverseProxyService", {
      body: service({ private: true, access_groups: [g.id] }),
    });
    expectError(
      await s.call("deleteNetworkResource", { params: { networkId, resourceId: hostId } }),
      412,
      /reverse-proxy service/,
    );
    expectError(await s.call("deleteGroup", { params: { groupId: g.id } }), 400, /reverse-proxy service/);
    await ok("deleteReverseProxyService", { params: { serviceId: created.id } });
    expect((await s.call("deleteGroup", { params: { groupId: g.id } })).status).toBe(200);
  });

  test("service rules: domain, mode, ports, private, auth", async () => {
    const first = await ok("createReverseProxyService", { body: service() });
    expectError(
      await s.call("createReverseProxyService", { body: service({ domain: first.domain }) }),
      409,
      "domain",
    );
    expectError(
      await s.call("createReverseProxyService", { body: service({ domain: "app.elsewhere.test" }) }),
      412,
      "domain",
    );
    expectError(
      await s.call("createReverseProxyService", { body: service({ domain: "not a domain" }) }),
      422,
      "domain",
    );
    expectError(
      await s.call("createReverseProxyService", { body: service({ targets: [] }) }),
      422,
      "targets",
    );
    expectError(
      await s.call("createReverseProxyService", { body: service({ listen_port: 8080 }) }),
      422,
      "listen_port",
    );
    expectError(
      await s.call("createReverseProxyService", { body: service({ private: true }) }),
      422,
      "access_groups",
    );
    expectError(
      await s.call("createReverseProxyService", {
        body: service({ private: true, access_groups: [groupId], auth: { bearer_auth: { enabled: true } } }),
      }),
      422,
      "auth.bearer_auth.enabled",
    );
    expectError(
      await s.call("createReverseProxyService", {
        body: service({ auth: { header_auths: [{ enabled: true, header: "X-Key", value: "" }] } }),
      }),
      422,
      "auth.header_auths[0].value",
    );
    expectError(
      await s.call("createReverseProxyService", { body: service({ access_groups: ["nope"] }) }),
      422,
      "access_groups",
    );
    const tcpTarget = [
      { target_id: hostId, target_type: "host", protocol: "tcp", port: 5432, enabled: true },
    ];
    const tcp = await ok("createReverseProxyService", { body: service({ mode: "tcp", targets: tcpTarget }) });
    expect(tcp).toMatchObject({ listen_port: 10000, port_auto_assigned: true });
    expectError(
      await s.call("createReverseProxyService", {
        body: service({ mode: "tcp", targets: [...tcpTarget, ...tcpTarget] }),
      }),
      422,
      "targets",
    );
    expectError(
      await s.call("createReverseProxyService", {
        body: service({
          mode: "tcp",
          auth: { password_auth: { enabled: true, password: "x" } },
          targets: tcpTarget,
        }),
      }),
      422,
      "auth",
    );
    expectError(
      await s.call("createReverseProxyService", {
        body: service({ mode: "tcp", listen_port: 10000, targets: tcpTarget }),
      }),
      409,
      "listen_port",
    );
    expectError(
      await s.call("createReverseProxyService", { body: service({ mode: "tls", targets: tcpTarget }) }),
      422,
      "listen_port",
    );
    // The chosen port stays when an update leaves it out; the mode cannot change.
    const kept = await ok("updateReverseProxyService", {
      params: { serviceId: tcp.id },
      body: { ...service({ mode: "tcp", targets: tcpTarget }), domain: tcp.domain, name: "pg" },
    });
    expect(kept).toMatchObject({ listen_port: 10000, port_auto_assigned: true, name: "pg" });
    expectError(
      await s.call("updateReverseProxyService", {
        params: { serviceId: tcp.id },
        body: { ...service(), domain: tcp.domain },
      }),
      422,
      "mode",
    );
    expectError(await s.call("getReverseProxyService", { params: { serviceId: "nope" } }), 404);
  });
});

describe("custom domains", () => {
  test("validated once validation.<domain> is a CNAME of the cluster; delete answers 204; services stay", async () => {
    const d = await ok("createReverseProxyDomain", {
      body: { domain: "apps.example.com", target_cluster: CLUSTER },
    });
    expect(d).toEqual({
      id: expect.any(String),
      domain: "apps.example.com",
      validated: false,
      type: "custom",
      target_cluster: CLUSTER,
      supports_custom_ports: true,
      supports_crowdsec: false,
      supports_private: false,
    });
    expect(lastAudit()).toMatchObject({ activity_code: "domain.add", target_id: d.id });
    // A service may use the domain before it is validated (as on the reference).
    const svc = await ok("createReverseProxyService", { body: service({ domain: "app.apps.example.com" }) });
    expect(svc.proxy_cluster).toBe(CLUSTER);

    expect(
      (await sim("/sim/dns", { name: "validation.apps.example.com", cname: `${CLUSTER}.` })).status,
    ).toBe(200);
    // DNS alone changes nothing; the validate call checks again (202, no body).
    const listed = () => ok("listReverseProxyDomains").then((l: any[]) => l.find((x) => x.id === d.id));
    expect((await listed()).validated).toBe(false);
    const v = await s.call("validateReverseProxyDomain", { params: { domainId: d.id } });
    expect(v.status).toBe(202);
    expect((await listed()).validated).toBe(true);

    expectError(
      await s.call("createReverseProxyDomain", {
        body: { domain: "Apps.Example.com", target_cluster: CLUSTER },
      }),
      409,
      "domain",
    );
    expectError(
      await s.call("createReverseProxyDomain", {
        body: { domain: "x.example.com", target_cluster: "nope.test" },
      }),
      422,
      "target_cluster",
    );
    expectError(
      await s.call("createReverseProxyDomain", { body: { domain: "", target_cluster: CLUSTER } }),
      422,
      "domain",
    );
    const del = await s.call("deleteReverseProxyDomain", { params: { domainId: d.id } });
    expect(del.status).toBe(204);
    expect(lastAudit()).toMatchObject({ activity_code: "domain.delete", target_id: d.id });
    expectError(await s.call("deleteReverseProxyDomain", { params: { domainId: d.id } }), 404);
    expectError(await s.call("validateReverseProxyDomain", { params: { domainId: d.id } }), 404);
    expect((await ok("getReverseProxyService", { params: { serviceId: svc.id } })).domain).toBe(
      "app.apps.example.com",
    );
  });

  test("a service's status follows its cluster: pending while no proxy of it is connected", async () => {
    const token = await ok("createProxyToken", { body: { name: "flaky" } });
    const reg = await sim("/sim/proxies", { token: token.plain_token, address: "flaky.example.test" });
    const svc = await ok("createReverseProxyService", { body: service({ domain: "a.flaky.example.test" }) });
    expect(svc.meta.status).toBe("active");
    await sim(`/sim/proxies/${reg.body.proxy.id}/disconnect`, {});
    expect((await ok("getReverseProxyService", { params: { serviceId: svc.id } })).meta.status).toBe(
      "pending",
    );
    expect(
      (await ok("listProxyClusters")).find((c: any) => c.address === "flaky.example.test"),
    ).toMatchObject({
      online: false,
      connected_proxies: 0,
    });
  });
});

describe("secrets at rest and in logs", () => {
  test("passwords, PINs, header values and token values are not in the database file or the request log", async () => {
    const values = ["AtRest-pw-7f3a", "AtRest-pin-9c1d", "AtRest-hdr-2b8e"];
    const created = await ok("createReverseProxyService", {
      body: service({
        auth: {
          password_auth: { enabled: true, password: values[0] },
          pin_auth: { enabled: true, pin: values[1] },
          header_auths: [{ enabled: true, header: "X-Key", value: values[2] }],
        },
      }),
    });
    const token = await ok("createProxyToken", { body: { name: "at rest" } });
    // In memory the secrets are there (the proxy needs them)...
    expect(s.server.state.store.get("proxy_service", created.id)?.auth_secrets).toEqual({
      password: values[0],
      pin: values[1],
      headers: { "x-key": values[2] },
    });
    // ...but not in any database file, nor in the request log.
    const files = [s.dbFile, `${s.dbFile}-wal`, `${s.dbFile}-shm`].filter((f) => fs.existsSync(f));
    const bytes = files.map((f) => fs.readFileSync(f).toString("latin1")).join("\n");
    for (const v of [...values, token.plain_token])
      expect({ v, found: bytes.includes(v) }).toEqual({ v, found: false });
    const log = JSON.stringify(requestLog);
    for (const v of [...values, token.plain_token]) expect(log.includes(v)).toBe(false);
    expect(requestLog.some((e) => e.route === "/api/reverse-proxies/services")).toBe(true);
  });
});
