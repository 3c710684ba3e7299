import { ManualClock } from "../../server/clock";
import { simMain } from "../../server/sim-cli";
import { EPHEMERAL_TTL_MS, enrollPeer, sweepEphemeralPeers } from "../../server/sim";
import { expectError, startTestServer, type CallResult, type TestServer } from "../support/server";

const clock = new ManualClock(Date.parse("2026-04-01T10:00:00Z"));
let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer({ clock, simulate: true });
});
afterAll(() => s.close());

/** POST to a /sim route; errors must be in the service's shape. */
async function sim(path: string, body: unknown = {}): Promise<CallResult> {
  const res = await s.raw("POST", path, {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
  if (res.status >= 400) expect(res.body).toEqual({ message: expect.any(String), code: res.status });
  return res;
}

async function newKey(over: Record<string, unknown> = {}): Promise<{ id: number; key: string }> {
  const res = await s.call("createSetupKey", {
    body: { name: "sim", type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0, ...over },
  });
  return { id: res.body.id, key: res.body.key };
}

const keyState = async (id: number) => (await s.call("getSetupKey", { params: { keyId: id } })).body;
const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);

describe("enrollment", () => {
  test("a reusable key enrolls peers; used_times and last_used follow", async () => {
    const k = await newKey();
    clock.advance(1000);
    const res = await sim("/sim/enroll", { setup_key: k.key, hostname: "Build Agent", os: "windows" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Build Agent",
      hostname: "Build Agent",
      dns_label: "build-agent",
      os: "windows",
      connected: false,
      ephemeral: false,
      user_id: "",
    });
    expect(res.body.ip).toMatch(/^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.\d+\.\d+$/);
    expect((await s.call("getPeer", { params: { peerId: res.body.id } })).body.name).toBe("Build Agent");
    const second = await sim("/sim/enroll", { setup_key: k.key, hostname: "Build Agent" });
    expect(second.body.dns_label).toBe("build-agent-1");
    expect(second.body.ip).not.toBe(res.body.ip);
    expect(await keyState(k.id)).toMatchObject({
      used_times: 2,
      last_used: "2026-04-01T10:00:01Z",
      state: "valid",
    });
    expect(auditCodes()).toContain("peer.add");
  });

  test("a one-off key enrolls once", async () => {
    const k = await newKey({ type: "one-off" });
    expect((await sim("/sim/enroll", { setup_key: k.key, hostname: "one" })).status).toBe(200);
    const again = await sim("/sim/enroll", { setup_key: k.key, hostname: "two" });
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/usage limit/);
    expect(await keyState(k.id)).toMatchObject({ used_times: 1, state: "overused" });
  });

  test("usage_limit caps the enrollments of a reusable key", async () => {
    const k = await newKey({ usage_limit: 2 });
    for (const h of ["l1", "l2"])
      expect((await sim("/sim/enroll", { setup_key: k.key, hostname: h })).status).toBe(200);
    expect((await sim("/sim/enroll", { setup_key: k.key, hostname: "l3" })).status).toBe(403);
    expect((await keyState(k.id)).used_times).toBe(2);
  });

  test("a revoked key is refused", async () => {
    const k = await newKey();
    await s.call("updateSetupKey", { params: { keyId: k.id }, body: { revoked: true, auto_groups: [] } });
    const res = await sim("/sim/enroll", { setup_key: k.key, hostname: "rev" });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/revoked/);
    expect((await keyState(k.id)).used_times).toBe(0);
  });

  test("an expired key is refused", async () => {
    const k = await newKey({ expires_in: 86400 });
    clock.advance(86400_000);
    const res = await sim("/sim/enroll", { setup_key: k.key, hostname: "late" });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/expired/);
  });

  test("an unknown key is 401, and the message never echoes the key", async () => {
    const bogus = "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE";
    const res = await sim("/sim/enroll", { setup_key: bogus, hostname: "x" });
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain(bogus);
  });

  test("auto_groups: the new peer joins the key's groups", async () => {
    const g = (await s.call("createGroup", { body: { name: "sim-auto" } })).body.id;
    const k = await newKey({ auto_groups: [g] });
    const peer = (await sim("/sim/enroll", { setup_key: k.key, hostname: "grouped" })).body;
    expect(peer.groups.map((x: any) => x.name).sort()).toEqual(["All", "sim-auto"]);
    const group = (await s.call("getGroup", { params: { groupId: g } })).body;
    expect(group.peers).toEqual([{ id: peer.id, name: "grouped" }]);
  });

  test("ephemeral: the peer is ephemeral, survives disconnect, and a sweep deletes it after 10 minutes offline", async () => {
    const k = await newKey({ ephemeral: true });
    const peer = (await sim("/sim/enroll", { setup_key: k.key, hostname: "eph" })).body;
    expect(peer.ephemeral).toBe(true);
    await sim(`/sim/peers/${peer.id}/connect`);
    const disc = await sim(`/sim/peers/${peer.id}/disconnect`);
    expect(disc.body).toMatchObject({ deleted: false, peer: { id: peer.id, connected: false } });
    expect((await s.call("getPeer", { params: { peerId: peer.id } })).status).toBe(200);
    clock.advance(EPHEMERAL_TTL_MS - 1000);
    expect(sweepEphemeralPeers(s.server.state)).not.toContain(peer.id);
    clock.advance(1000);
    const swept = await sim("/sim/ephemeral/sweep");
    expect(swept.body.deleted).toContain(peer.id);
    expectError(await s.call("getPeer", { params: { peerId: peer.id } }), 404);
  });

  test("extra DNS labels: refused unless the key allows them; labels are validated", async () => {
    const plain = await newKey();
    const refused = await sim("/sim/enroll", {
      setup_key: plain.key,
      hostname: "lbl",
      extra_dns_labels: ["api"],
    });
    expect(refused.status).toBe(412);
    expect(refused.body.message).toMatch(/^extra_dns_labels:/);
    expect((await keyState(plain.id)).used_times).toBe(0);
    const allowing = await newKey({ allow_extra_dns_labels: true });
    const ok = await sim("/sim/enroll", {
      setup_key: allowing.key,
      hostname: "lbl",
      extra_dns_labels: ["api", "web"],
    });
    expect(ok.body.extra_dns_labels).toEqual(["api", "web"]);
    const bad = await sim("/sim/enroll", {
      setup_key: allowing.key,
      hostname: "lbl2",
      extra_dns_labels: ["not a label"],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/^extra_dns_labels\[0\]:/);
  });

  test("body validation is 422 naming the field; a reused WireGuard key is 409", async () => {
    const k = await newKey();
    const noHost = await sim("/sim/enroll", { setup_key: k.key });
    expect(noHost.status).toBe(422);
    expect(noHost.body.message).toMatch(/hostname/);
    const badWg = await sim("/sim/enroll", { setup_key: k.key, hostname: "h", wg_pub_key: "x" });
    expect(badWg.status).toBe(422);
    expect(badWg.body.message).toMatch(/wg_pub_key/);
    const wg = Buffer.alloc(32, 7).toString("base64");
    expect((await sim("/sim/enroll", { setup_key: k.key, hostname: "h1", wg_pub_key: wg })).status).toBe(200);
    expect((await sim("/sim/enroll", { setup_key: k.key, hostname: "h2", wg_pub_key: wg })).status).toBe(409);
    const raw = await s.raw("POST", "/sim/enroll", {
      body: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    expect(raw.status).toBe(400);
  });

  test("in-process enrollment works the same way", async () => {
    const k = await newKey();
    const peer = enrollPeer(s.server.state, { setup_key: k.key, hostname: "inproc" });
    expect((await s.call("getPeer", { params: { peerId: peer.id } })).body.name).toBe("inproc");
    expect(() => enrollPeer(s.server.state, { setup_key: "nope", hostname: "x" })).toThrow(
      /unknown setup key/,
    );
  });
});

describe("connect, disconnect, jobs", () => {
  test("connect and disconnect set connected and last_seen; unknown peers are 404", async () => {
    const k = await newKey();
    const peer = (await sim("/sim/enroll", { setup_key: k.key, hostname: "status" })).body;
    clock.advance(30_000);
    const on = await sim(`/sim/peers/${peer.id}/connect`);
    expect(on.body).toMatchObject({ id: peer.id, connected: true });
    const seen = (await s.call("getPeer", { params: { peerId: peer.id } })).body;
    expect(seen).toMatchObject({ connected: true, last_seen: on.body.last_seen });
    expect(Date.parse(seen.last_seen)).toBe(clock.now() - (clock.now() % 1000));
    const off = await sim(`/sim/peers/${peer.id}/disconnect`);
    expect(off.body.peer.connected).toBe(false);
    expect((await s.call("getPeer", { params: { peerId: peer.id } })).body.connected).toBe(false);
    expect((await sim("/sim/peers/ghost/connect")).status).toBe(404);
    expect((await sim("/sim/peers/ghost/disconnect")).status).toBe(404);
  });

  test("a temporary access peer is deleted on disconnect, with its policy", async () => {
    const k = await newKey();
    const target = (await sim("/sim/enroll", { setup_key: k.key, hostname: "ta-target" })).body;
    const temp = (
      await s.call("createTemporaryAccess", {
        params: { peerId: target.id },
        body: { name: "visitor", wg_pub_key: Buffer.alloc(32, 9).toString("base64"), rules: ["tcp/443"] },
      })
    ).body;
    await sim(`/sim/peers/${temp.id}/connect`);
    const off = await sim(`/sim/peers/${temp.id}/disconnect`);
    expect(off.body).toMatchObject({ deleted: true });
    expect(off.body.policies_deleted).toHaveLength(1);
    expectError(await s.call("getPeer", { params: { peerId: temp.id } }), 404);
    expect(s.server.state.store.get("policy", off.body.policies_deleted[0])).toBeUndefined();
  });

  test("jobs: complete and fail over HTTP; finishing twice is 412; a job of another peer is 404", async () => {
    const k = await newKey();
    const a = (await sim("/sim/enroll", { setup_key: k.key, hostname: "job-a" })).body;
    const b = (await sim("/sim/enroll", { setup_key: k.key, hostname: "job-b" })).body;
    const workload = {
      type: "bundle",
      parameters: { bundle_for: false, bundle_for_time: 1, log_file_count: 5, anonymize: true },
    };
    const j1 = (await s.call("createPeerJob", { params: { peerId: a.id }, body: { workload } })).body;
    const j2 = (await s.call("createPeerJob", { params: { peerId: a.id }, body: { workload } })).body;
    expect((await sim(`/sim/peers/${b.id}/jobs/${j1.id}/complete`)).status).toBe(404);
    const done = await sim(`/sim/peers/${a.id}/jobs/${j1.id}/complete`, { upload_key: "up-1" });
    expect(done.body).toMatchObject({ status: "succeeded", workload: { result: { upload_key: "up-1" } } });
    expect((await sim(`/sim/peers/${a.id}/jobs/${j1.id}/fail`, { reason: "late" })).status).toBe(412);
    const noReason = await sim(`/sim/peers/${a.id}/jobs/${j2.id}/fail`, {});
    expect(noReason.status).toBe(422);
    expect(noReason.body.message).toMatch(/^reason:/);
    const failed = await sim(`/sim/peers/${a.id}/jobs/${j2.id}/fail`, { reason: "no space left" });
    expect(failed.body).toMatchObject({ status: "failed", failed_reason: "no space left" });
    const got = (await s.call("getPeerJob", { params: { peerId: a.id, jobId: j2.id } })).body;
    expect(got.status).toBe("failed");
    expect(auditCodes()).toEqual(expect.arrayContaining(["peer.job.succeed", "peer.job.fail"]));
  });

  test("without --simulate there are no /sim routes", async () => {
    const plain = await startTestServer();
    try {
      const res = await plain.raw("POST", "/sim/enroll", {
        body: "{}",
        headers: { "Content-Type": "application/json" },
      });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe("privnet-server sim (CLI)", () => {
  /** Runs the CLI in-process and captures its output. */
  async function cli(args: string[], env: Record<string, string> = {}) {
    let stdout = "";
    let stderr = "";
    const out = jest.spyOn(process.stdout, "write").mockImplementation((chunk: any) => {
      stdout += String(chunk);
      return true;
    });
    const err = jest.spyOn(process.stderr, "write").mockImplementation((chunk: any) => {
      stderr += String(chunk);
      return true;
    });
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const code = await simMain(args);
      return {
        code,
        stdout,
        stderr,
        lines: stdout.trim()
          ? stdout
              .trim()
              .split("\n")
              .map((l) => JSON.parse(l))
          : [],
      };
    } finally {
      process.env = saved;
      out.mockRestore();
      err.mockRestore();
    }
  }

  test("enroll --count prints one JSON line per peer and never the key", async () => {
    const k = await newKey();
    const r = await cli([
      "enroll",
      "--url",
      s.url,
      "--setup-key",
      k.key,
      "--hostname",
      "fleet",
      "--count",
      "3",
    ]);
    expect(r.code).toBe(0);
    expect(r.lines.map((p: any) => p.name)).toEqual(["fleet-1", "fleet-2", "fleet-3"]);
    expect(r.stdout + r.stderr).not.toContain(k.key);
    expect((await keyState(k.id)).used_times).toBe(3);
  });

  test("the key may come from PRIVNET_SETUP_KEY; a refusal exits 1 without printing the key", async () => {
    const k = await newKey({ type: "one-off" });
    const ok = await cli(["enroll", "--url", s.url, "--hostname", "envy"], { PRIVNET_SETUP_KEY: k.key });
    expect(ok.code).toBe(0);
    expect(ok.lines[0].name).toBe("envy");
    const refused = await cli(["enroll", "--url", s.url, "--setup-key", k.key]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/403 .*usage limit/);
    expect(refused.stdout + refused.stderr).not.toContain(k.key);
  });

  test("proxy register|connect|disconnect and dns: the token from PRIVNET_PROXY_TOKEN, never printed", async () => {
    const token = (await s.call("createProxyToken", { body: { name: "sim cli" } })).body
      .plain_token as string;
    const reg = await cli(["proxy", "register", "--url", s.url, "--address", "cli.proxy.example.test"], {
      PRIVNET_PROXY_TOKEN: token,
    });
    expect(reg.code).toBe(0);
    expect(reg.lines[0].cluster).toMatchObject({ address: "cli.proxy.example.test", online: true });
    expect(reg.stdout + reg.stderr).not.toContain(token);
    const off = await cli(["proxy", "disconnect", "--url", s.url, "--proxy", reg.lines[0].proxy.id]);
    expect(off.lines[0].cluster).toMatchObject({ online: false, connected_proxies: 0 });
    const dns = await cli([
      "dns",
      "--url",
      s.url,
      "--name",
      "validation.apps.example.com",
      "--cname",
      "x.test",
    ]);
    expect(dns.lines[0]).toEqual({ name: "validation.apps.example.com", cname: "x.test" });
    const refused = await cli([
      "proxy",
      "register",
      "--url",
      s.url,
      "--address",
      "a.test",
      "--proxy-token",
      "nope",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/401 token: unknown proxy token/);
    expect((await cli(["proxy", "register", "--url", s.url, "--address", "a.test"])).code).toBe(2);
  });

  test("connect, disconnect and job complete|fail", async () => {
    const k = await newKey();
    const peer = (await cli(["enroll", "--url", s.url, "--setup-key", k.key])).lines[0];
    expect(peer.name).toMatch(/^sim-[0-9a-f]{6}$/);
    const on = await cli(["connect", "--url", s.url, "--peer", peer.id]);
    expect(on.lines[0]).toMatchObject({ id: peer.id, connected: true });
    const off = await cli(["disconnect", "--url", s.url, "--peer", peer.id]);
    expect(off.lines[0]).toMatchObject({ deleted: false, peer: { connected: false } });
    const workload = {
      type: "bundle",
      parameters: { bundle_for: false, bundle_for_time: 1, log_file_count: 1, anonymize: false },
    };
    const j1 = (await s.call("createPeerJob", { params: { peerId: peer.id }, body: { workload } })).body;
    const j2 = (await s.call("createPeerJob", { params: { peerId: peer.id }, body: { workload } })).body;
    const done = await cli([
      "job",
      "complete",
      "--url",
      s.url,
      "--peer",
      peer.id,
      "--job",
      j1.id,
      "--upload-key",
      "k1",
    ]);
    expect(done.lines[0]).toMatchObject({ status: "succeeded", workload: { result: { upload_key: "k1" } } });
    const failed = await cli([
      "job",
      "fail",
      "--url",
      s.url,
      "--peer",
      peer.id,
      "--job",
      j2.id,
      "--reason",
      "boom",
    ]);
    expect(failed.lines[0]).toMatchObject({ status: "failed", failed_reason: "boom" });
    const missing = await cli(["connect", "--url", s.url, "--peer", "ghost"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/404 peer ghost not found/);
  });

  test("metadata options at enrollment and with meta; login renews the login", async () => {
    const k = await newKey();
    const peer = (
      await cli([
        "enroll",
        "--url",
        s.url,
        "--setup-key",
        k.key,
        "--os",
        "macOS 14.2",
        "--os-version",
        "14.2",
        "--version",
        "0.41.0",
        "--country",
        "FR",
        "--city",
        "Paris",
        "--address",
        "10.1.0.5/16",
        "--address",
        "192.168.3.4/24",
        "--process",
        "/Applications/edr",
      ])
    ).lines[0];
    expect(peer).toMatchObject({
      os: "macOS 14.2",
      version: "0.41.0",
      country_code: "FR",
      city_name: "Paris",
    });
    expect(s.server.state.store.get("peer", peer.id)?.meta).toEqual({
      goos: "darwin",
      os_version: "14.2",
      network_addresses: ["10.1.0.5/16", "192.168.3.4/24"],
      processes: ["/Applications/edr"],
    });
    const meta = await cli([
      "meta",
      "--url",
      s.url,
      "--peer",
      peer.id,
      "--kernel",
      "23.1.0",
      "--no-processes",
    ]);
    expect(meta.code).toBe(0);
    expect(meta.lines[0]).toMatchObject({
      peer: { kernel_version: "23.1.0" },
      meta: { goos: "darwin", processes: [], network_addresses: ["10.1.0.5/16", "192.168.3.4/24"] },
    });
    clock.advance(5000);
    const login = await cli(["login", "--url", s.url, "--peer", peer.id]);
    expect(login.lines[0]).toMatchObject({
      id: peer.id,
      last_login: new Date(clock.now()).toISOString().replace(/\.\d+Z$/, "Z"),
    });
    const bad = await cli(["meta", "--url", s.url, "--peer", peer.id, "--address", "not-an-address"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/422 .*network_addresses/);
  });

  test("usage errors exit 2; --help exits 0", async () => {
    expect((await cli(["enroll", "--url", s.url])).code).toBe(2);
    expect((await cli(["connect", "--url", s.url])).code).toBe(2);
    expect((await cli(["job", "restart", "--url", s.url, "--peer", "p", "--job", "j"])).code).toBe(2);
    expect((await cli(["teleport"])).code).toBe(2);
    expect((await cli(["enroll", "--count", "0"])).code).toBe(2);
    expect((await cli(["--bogus"])).code).toBe(2);
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stderr).toMatch(/usage: privnet-server sim/);
  });

  test("a server without --simulate gets a hint", async () => {
    const plain = await startTestServer();
    try {
      const r = await cli(["connect", "--url", plain.url, "--peer", "x"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/--simulate/);
    } finally {
      await plain.close();
    }
  });
});
