/**
 * The plugin's transport (@grpc/grpc-js over the SDK's service definition), as the engine uses it: connections,
 * Cancel, methods the plugin does not serve, and stopping. The compiled launcher is started as the engine starts
 * it, against a real privnet-server (or, to hold a call in flight, a server of the test's own).
 */
import * as grpc from "@grpc/grpc-js";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { RequestLogEntry } from "../../server/context";
import { connectProvider, type Host } from "../support/host";
import { repoRoot, startPlugin } from "../support/plugin";
import { startTestServer, type TestServer } from "../support/server";

jest.setTimeout(120_000);

let s: TestServer;
const requests: RequestLogEntry[] = [];
const started: Host[] = [];

beforeAll(async () => {
  s = await startTestServer({ onRequest: (e) => requests.push(e) });
});
afterAll(async () => {
  await Promise.all(started.map((h) => h.stop()));
  await s?.close();
});

async function plugin(): Promise<Host> {
  const h = await startPlugin();
  started.push(h);
  return h;
}

/** Established TCP connections the process listening on `port` has accepted (Linux: /proc/net/tcp). */
function acceptedConnections(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  return fs
    .readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[1]?.endsWith(`:${hex}`) && f[3] === "01").length;
}

const writes = (from: number) =>
  requests.slice(from).filter((r) => r.method !== "GET" && r.path.startsWith("/api/"));

test("a second connection is served beside the first; after Cancel only calls that change an object are refused", async () => {
  const h = await plugin();
  const other = connectProvider(
    h.port,
    { project: "privnet-plugin", typePrefix: "privnet:index:" },
    {
      separateConnection: true,
    },
  );
  try {
    await h.configure({ apiUrl: s.url, token: s.token });
    await other.configure({ apiUrl: s.url, token: s.token });
    const checked = await other.check("Group", { name: `second-${process.pid}` });
    const group = await other.create("Group", checked.inputs);
    expect((await h.read("Group", group.id, group.props, checked.inputs)).id).toBe(group.id);
    expect(acceptedConnections(h.port)).toBe(2);

    // The engine cancels on one connection; the plugin refuses new changes on every connection.
    await h.cancel();
    const from = requests.length;
    const renamed = { name: `second-${process.pid}-x` };
    for (const c of [h, other]) {
      expect((await c.check("Group", renamed, checked.inputs)).failures).toEqual([]);
      expect((await c.diff("Group", group.id, group.props, renamed)).changes).toBe("some");
      expect((await c.read("Group", group.id, group.props, checked.inputs)).id).toBe(group.id);
      expect((await c.create("Group", renamed, true)).props.name).toBe(renamed.name);
      expect((await c.update("Group", group.id, group.props, renamed, true)).props.name).toBe(renamed.name);
      expect(JSON.parse(await c.getSchema()).name).toBe("privnet");
      const cancelled = { code: grpc.status.CANCELLED, message: expect.stringMatching(/cancelled/) };
      await expect(c.create("Group", renamed)).rejects.toMatchObject(cancelled);
      await expect(c.update("Group", group.id, group.props, renamed)).rejects.toMatchObject(cancelled);
      await expect(c.delete("Group", group.id, group.props)).rejects.toMatchObject(cancelled);
    }
    expect(writes(from)).toEqual([]);
    expect((await s.call("getGroup", { params: { groupId: group.id } })).body.name).toBe(checked.inputs.name);
    await s.call("deleteGroup", { params: { groupId: group.id } });
  } finally {
    other.close();
  }
});

test("a member named __proto__ reaches the lifecycle as nothing: neither a member nor a prototype", async () => {
  const h = await plugin();
  await h.configure({ apiUrl: s.url, token: s.token });
  const news = JSON.parse('{"name": "proto-probe", "__proto__": {"peers": ["p1"], "name": "other"}}');
  expect(Object.keys(news)).toContain("__proto__"); // an own member, as the engine may send it
  const checked = await h.check("Group", news);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toEqual({ name: "proto-probe" });
  expect(Object.getPrototypeOf(checked.inputs)).toBe(Object.prototype);
});

test("a method the plugin does not serve is UNIMPLEMENTED, the streaming List included; the bundle holds grpc-js", async () => {
  const h = await plugin();
  const inputs: string[] = JSON.parse(
    fs.readFileSync(path.join(repoRoot, "dist", "plugin", "bundle-inputs.json"), "utf8"),
  );
  expect(inputs).toContain("node_modules/@grpc/grpc-js/build/src/server.js");
  expect(inputs).toContain("node_modules/@pulumi/pulumi/proto/provider_grpc_pb.js");

  const client = new ResourceProviderClient(`127.0.0.1:${h.port}`, grpc.credentials.createInsecure());
  try {
    const construct = await new Promise<grpc.ServiceError | null>((resolve) =>
      client.construct(new pb.ConstructRequest(), (err) => resolve(err)),
    );
    expect(construct).toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
      details: "Construct is not implemented",
    });
    const list = await new Promise<grpc.ServiceError>((resolve) => {
      const stream = client.list(new pb.ListRequest());
      stream.on("data", () => undefined);
      stream.on("error", resolve);
    });
    expect(list.code).toBe(grpc.status.UNIMPLEMENTED);
  } finally {
    client.close();
  }
  expect(await h.getPluginInfo()).toMatch(/^\d+\.\d+\.\d+/);
});

test("the gRPC and protobuf libraries are the SDK's own: one copy each, at the versions package.json pins", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  const sdkProto = path.dirname(require.resolve("@pulumi/pulumi/proto/provider_pb", { paths: [repoRoot] }));
  const inputs: string[] = JSON.parse(
    fs.readFileSync(path.join(repoRoot, "dist", "plugin", "bundle-inputs.json"), "utf8"),
  );
  for (const lib of ["@grpc/grpc-js", "google-protobuf"]) {
    const ours = require.resolve(`${lib}/package.json`, { paths: [repoRoot] });
    expect(require.resolve(`${lib}/package.json`, { paths: [sdkProto] })).toBe(ours);
    expect(JSON.parse(fs.readFileSync(ours, "utf8")).version).toBe(pkg.dependencies[lib]);
    // The bundle took its files from that one copy.
    const held = inputs.filter((f) => f.includes(`/${lib}/`));
    expect(held.length).toBeGreaterThan(0);
    expect(held.filter((f) => !f.startsWith(`node_modules/${lib}/`))).toEqual([]);
  }
});

/** An API server that holds each DELETE until released, then answers it. */
async function holdingServer(): Promise<{
  url: string;
  held: () => number;
  release: () => void;
  close: () => Promise<void>;
}> {
  const waiting: http.ServerResponse[] = [];
  let released = false;
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.method === "DELETE" && !released) waiting.push(res);
    else res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    release: () => {
      released = true;
      for (const res of waiting.splice(0))
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test.each([
  ["SIGTERM", (h: Host) => process.kill(h.pid, "SIGTERM")],
  ["SIGINT (the engine's)", (h: Host) => process.kill(h.pid, "SIGINT")],
  ["its stdin closed", (h: Host) => h.closeStdin()],
])("on %s the call in flight is answered, then the plugin ends with code 0", async (_, stop) => {
  const api = await holdingServer();
  const h = await plugin();
  try {
    await h.configure({ apiUrl: api.url, token: "nbp_test" });
    const deleting = h.delete("Group", "g-held", { name: "held" });
    await until("the DELETE to reach the server", () => api.held() === 1);
    stop(h);
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(h.pid)).toBe(true);
    api.release();
    await expect(deleting).resolves.toBeUndefined();
    expect(await h.exited).toBe(0);
  } finally {
    api.release();
    await api.close();
  }
});

test("stopped as soon as it printed its port, the plugin ends with code 0", async () => {
  for (let i = 0; i < 3; i++) {
    const h = await plugin();
    process.kill(h.pid, "SIGTERM");
    expect(await h.exited).toBe(0);
  }
});
