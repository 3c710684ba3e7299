/**
 * The plugin's own gRPC transport (plugin/grpc.ts), at its edges: what a gRPC client (grpc-js here, Go gRPC in
 * the engine) and a raw HTTP/2 client see.
 *
 * In this process: a server over the real `ResourceProviderService` definition with handlers of the test's own.
 * A large message in many DATA chunks both ways, and the receive limit; unknown, unimplemented and streaming
 * methods; a compressed message; a request that is no gRPC call (GET, another content-type); error codes and
 * messages that need percent-encoding, through grpc-js; streams reset before and during a call; graceful
 * shutdown. Then the compiled plugin (dist/plugin/main.js): a reset stream does not hurt it, it never loads
 * grpc-js, and SIGTERM ends it with code 0.
 */
import * as grpc from "@grpc/grpc-js";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http2 from "node:http2";
import * as os from "node:os";
import * as path from "node:path";
import { ResourceProviderClient, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { PluginAttach, PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import {
  encodeGrpcMessage,
  GrpcError,
  serveGrpc,
  Status,
  type GrpcServer,
  type MethodDefinition,
  type UnaryHandler,
} from "../../plugin/grpc";
import { repoRoot, startPlugin } from "../support/plugin";

jest.setTimeout(60_000);

const service = ResourceProviderService as unknown as Record<string, MethodDefinition>;
const PATH = (m: string) => `/pulumirpc.ResourceProvider/${m}`;

/** A length-prefixed gRPC message. */
function frame(message: Uint8Array, compressed = 0): Buffer {
  const head = Buffer.alloc(5);
  head[0] = compressed;
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

interface RawAnswer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  /** grpc-status and grpc-message: from the trailers, or the headers of a trailers-only answer. */
  grpcStatus?: string;
  grpcMessage?: string;
  body: Buffer;
}

/** One request by a raw HTTP/2 client: the body written as the given chunks, each after a tick. */
async function raw(
  port: number,
  opts: { path: string; method?: string; contentType?: string; chunks?: Buffer[] },
): Promise<RawAnswer> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", () => undefined);
  try {
    const req = session.request({
      ":method": opts.method ?? "POST",
      ":path": opts.path,
      "content-type": opts.contentType ?? "application/grpc",
      te: "trailers",
    });
    const answer = new Promise<RawAnswer>((resolve, reject) => {
      const data: Buffer[] = [];
      let headers: http2.IncomingHttpHeaders = {};
      let trailers: http2.IncomingHttpHeaders = {};
      req.on("response", (h) => (headers = h));
      req.on("trailers", (t) => (trailers = t));
      req.on("data", (d: Buffer) => data.push(d));
      req.on("error", reject);
      req.on("close", () => {
        const all = { ...headers, ...trailers };
        resolve({
          status: Number(headers[":status"]),
          headers,
          grpcStatus: all["grpc-status"] as string | undefined,
          grpcMessage: all["grpc-message"] as string | undefined,
          body: Buffer.concat(data),
        });
      });
    });
    for (const c of opts.chunks ?? []) {
      req.write(c);
      await new Promise((r) => setImmediate(r));
    }
    req.end();
    return await answer;
  } finally {
    session.close();
  }
}

/** Sends part of a request, then resets the stream (CANCEL), as a client that gives up does. */
async function resetMidway(port: number, methodPath: string, sent: Buffer): Promise<void> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", () => undefined);
  const req = session.request({ ":method": "POST", ":path": methodPath, "content-type": "application/grpc" });
  req.on("error", () => undefined);
  req.write(sent);
  await new Promise((r) => setTimeout(r, 20));
  req.close(http2.constants.NGHTTP2_CANCEL);
  await new Promise((r) => req.once("close", r));
  session.close();
}

function client(port: number): ResourceProviderClient {
  return new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_send_message_length": -1,
    "grpc.max_receive_message_length": -1,
  });
}

/** A unary call through grpc-js: the response, or the error's code and details. */
function call<Req, Res>(
  c: ResourceProviderClient,
  method: (req: Req, cb: (e: grpc.ServiceError | null, r: Res) => void) => unknown,
  req: Req,
): Promise<{ res?: Res; code?: number; details?: string }> {
  return new Promise((resolve) => {
    method.call(c, req, (e, r) => resolve(e ? { code: e.code, details: e.details } : { res: r }));
  });
}

describe("in this process, over the ResourceProvider service definition", () => {
  let server: GrpcServer;
  let c: ResourceProviderClient;
  let thrown: unknown;
  let release: (() => void) | undefined;
  const seen: string[] = [];

  const handlers: Record<string, UnaryHandler | undefined> = {
    // Echo: the news come back as the inputs (a large request is a large response).
    check: async (req: pb.CheckRequest) => {
      seen.push("check");
      return new pb.CheckResponse().setInputs(req.getNews());
    },
    getPluginInfo: async () => {
      if (thrown) throw thrown;
      return new PluginInfo().setVersion("1.2.3");
    },
    // Waits until the test releases it (a call in flight).
    cancel: async () => {
      seen.push("cancel started");
      await new Promise<void>((r) => (release = r));
      seen.push("cancel done");
      return new Empty();
    },
    // A wrong response type: the serializer refuses it.
    attach: async () => new PluginInfo(),
  };

  beforeAll(async () => {
    server = await serveGrpc(service, handlers, { maxReceiveBytes: 64 * 1024 * 1024 });
    c = client(server.port);
  });
  afterAll(async () => {
    c?.close();
    await server?.shutdown();
  });
  beforeEach(() => {
    thrown = undefined;
    seen.length = 0;
  });

  test("listens on a loopback port of its own", () => {
    expect(server.port).toBeGreaterThan(0);
  });

  test("a 20 MB request and response, in many DATA chunks each way", async () => {
    const big = "x".repeat(20 * 1024 * 1024);
    const req = new pb.CheckRequest().setNews(Struct.fromJavaScript({ big, n: 1 }));
    const { res, code } = await call<pb.CheckRequest, pb.CheckResponse>(c, c.check, req);
    expect(code).toBeUndefined();
    const back = res!.getInputs()!.toJavaScript();
    expect((back.big as string).length).toBe(big.length);
    expect(back.big === big).toBe(true);
    expect(back.n).toBe(1);
  });

  test("a message split at every byte of its prefix and in pieces after it is one request", async () => {
    const msg = new pb.CheckRequest()
      .setNews(Struct.fromJavaScript({ name: "chunked", k: 7 }))
      .serializeBinary();
    const whole = frame(msg);
    const chunks = [
      ...[0, 1, 2, 3, 4].map((i) => whole.subarray(i, i + 1)),
      whole.subarray(5, 9),
      whole.subarray(9),
    ];
    const a = await raw(server.port, { path: PATH("Check"), chunks });
    expect(a.status).toBe(200);
    expect(a.headers["content-type"]).toBe("application/grpc");
    expect(a.grpcStatus).toBe("0");
    expect(a.body.readUInt32BE(1)).toBe(a.body.length - 5);
    const res = pb.CheckResponse.deserializeBinary(a.body.subarray(5));
    expect(res.getInputs()!.toJavaScript()).toEqual({ name: "chunked", k: 7 });
  });

  test("a request over the receive limit is RESOURCE_EXHAUSTED, and the server goes on", async () => {
    const small = await serveGrpc(service, handlers, { maxReceiveBytes: 1000 });
    const sc = client(small.port);
    try {
      const req = new pb.CheckRequest().setNews(Struct.fromJavaScript({ big: "y".repeat(5000) }));
      const r = await call(sc, sc.check, req);
      expect(r.code).toBe(Status.RESOURCE_EXHAUSTED);
      expect(r.details).toMatch(/larger than 1000 bytes/);
      // Announced by the prefix: refused on the prefix alone, before any of the message.
      const announced = Buffer.alloc(5);
      announced.writeUInt32BE(1001, 1);
      const early = await raw(small.port, { path: PATH("Check"), chunks: [announced] });
      expect(early.grpcStatus).toBe(String(Status.RESOURCE_EXHAUSTED));
      const ok = await call(sc, sc.check, new pb.CheckRequest().setNews(Struct.fromJavaScript({ a: 1 })));
      expect(ok.code).toBeUndefined();
    } finally {
      sc.close();
      await small.shutdown();
    }
  });

  test("an unknown method, a method without a handler and a streaming one are UNIMPLEMENTED", async () => {
    const unknown = await raw(server.port, { path: PATH("NoSuchMethod"), chunks: [frame(new Uint8Array())] });
    expect(unknown.status).toBe(200);
    expect(unknown.grpcStatus).toBe(String(Status.UNIMPLEMENTED));
    expect(unknown.grpcMessage).toMatch(/NoSuchMethod: unknown method/);

    const missing = await call(c, c.getSchema, new pb.GetSchemaRequest());
    expect(missing.code).toBe(Status.UNIMPLEMENTED);

    // List is server streaming: grpc-js's client reads a stream and gets the status as its error.
    const stream = c.list(new pb.ListRequest());
    const code = await new Promise<number>((resolve) => {
      stream.on("error", (e: grpc.ServiceError) => resolve(e.code));
      stream.on("data", () => undefined);
    });
    expect(code).toBe(Status.UNIMPLEMENTED);
  });

  test("a compressed message is UNIMPLEMENTED, saying so", async () => {
    const a = await raw(server.port, { path: PATH("Check"), chunks: [frame(new Uint8Array([1, 2, 3]), 1)] });
    expect(a.grpcStatus).toBe(String(Status.UNIMPLEMENTED));
    expect(decodeURIComponent(a.grpcMessage!)).toMatch(/compressed messages are not supported/);
    expect(seen).toEqual([]);
  });

  test("no message, or two, is INTERNAL", async () => {
    expect((await raw(server.port, { path: PATH("Check") })).grpcStatus).toBe(String(Status.INTERNAL));
    const one = frame(new pb.CheckRequest().serializeBinary());
    const two = await raw(server.port, { path: PATH("Check"), chunks: [one, one] });
    expect(two.grpcStatus).toBe(String(Status.INTERNAL));
    expect(seen).toEqual([]);
  });

  test("GET and another content-type are refused as HTTP errors, without a call", async () => {
    const get = await raw(server.port, { path: PATH("Check"), method: "GET" });
    expect(get.status).toBe(405);
    for (const contentType of ["application/json", "application/grpc-web", "text/plain"]) {
      const a = await raw(server.port, {
        path: PATH("Check"),
        contentType,
        chunks: [frame(new Uint8Array())],
      });
      expect(a.status).toBe(415);
    }
    // grpc+proto and parameters are gRPC still.
    for (const contentType of ["application/grpc+proto", "application/grpc; charset=utf-8"]) {
      const a = await raw(server.port, {
        path: PATH("Check"),
        contentType,
        chunks: [frame(new Uint8Array())],
      });
      expect(a.grpcStatus).toBe("0");
    }
    expect(seen).toEqual(["check", "check"]);
  });

  test("an error keeps its code and message, percent-encoded on the wire and decoded by grpc-js", async () => {
    const message = 'privnet: name "über 100%" is taken\n\tsecond line ✓ 名前';
    thrown = new GrpcError(Status.INVALID_ARGUMENT, message);
    expect(await call(c, c.getPluginInfo, new Empty())).toEqual({
      code: Status.INVALID_ARGUMENT,
      details: message,
    });

    const a = await raw(server.port, { path: PATH("GetPluginInfo"), chunks: [frame(new Uint8Array())] });
    expect(a.grpcMessage).toBe(encodeGrpcMessage(message));
    expect(a.grpcMessage).toMatch(/^[\x20-\x7e]*$/);
    expect(a.grpcMessage).toContain("100%25");
    expect(Buffer.from(decodeURIComponent(a.grpcMessage!))).toEqual(Buffer.from(message));

    thrown = new Error("privnet: plain failure");
    expect(await call(c, c.getPluginInfo, new Empty())).toEqual({
      code: Status.UNKNOWN,
      details: "privnet: plain failure",
    });
    thrown = "not even an Error";
    expect((await call(c, c.getPluginInfo, new Empty())).code).toBe(Status.UNKNOWN);
    // A response the definition cannot serialize is INTERNAL.
    expect((await call(c, c.attach, new PluginAttach())).code).toBe(Status.INTERNAL);
    thrown = undefined;
    expect((await call<Empty, PluginInfo>(c, c.getPluginInfo, new Empty())).res?.getVersion()).toBe("1.2.3");
  });

  test("a stream reset mid-request, or mid-call, is dropped; the server goes on", async () => {
    const partial = frame(new pb.CheckRequest().serializeBinary()).subarray(0, 3);
    await resetMidway(server.port, PATH("Check"), partial);
    expect(seen).toEqual([]);

    // Reset while the handler runs: its answer later has nowhere to go.
    const session = http2.connect(`http://127.0.0.1:${server.port}`);
    session.on("error", () => undefined);
    const req = session.request({
      ":method": "POST",
      ":path": PATH("Cancel"),
      "content-type": "application/grpc",
    });
    req.on("error", () => undefined);
    req.end(frame(new Uint8Array()));
    while (!release) await new Promise((r) => setTimeout(r, 5));
    req.close(http2.constants.NGHTTP2_CANCEL);
    await new Promise((r) => req.once("close", r));
    release();
    release = undefined;
    await new Promise((r) => setTimeout(r, 20));
    session.close();
    expect(seen).toEqual(["cancel started", "cancel done"]);

    expect((await call<Empty, PluginInfo>(c, c.getPluginInfo, new Empty())).res?.getVersion()).toBe("1.2.3");
  });

  test("shutdown lets a call in flight answer, then closes; no new connection is served", async () => {
    const s = await serveGrpc(service, handlers);
    const sc = client(s.port);
    const inFlight = call(sc, sc.cancel, new Empty());
    while (!release) await new Promise((r) => setTimeout(r, 5));
    let closed = false;
    const stopped = s.shutdown().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    release = undefined;
    expect((await inFlight).code).toBeUndefined();
    await stopped;
    sc.close();
    await expect(
      raw(s.port, { path: PATH("GetPluginInfo"), chunks: [frame(new Uint8Array())] }),
    ).rejects.toThrow();
  });
});

describe("the compiled plugin", () => {
  test("a reset stream does not hurt it; it still answers, with nothing on stderr", async () => {
    const plugin = await startPlugin();
    try {
      const partial = frame(new pb.CheckRequest().serializeBinary()).subarray(0, 3);
      await resetMidway(plugin.port, PATH("Check"), partial);
      await resetMidway(plugin.port, PATH("GetPluginInfo"), frame(new Uint8Array()));
      expect(await plugin.getPluginInfo()).toMatch(/^\d+\.\d+\.\d+/);
      expect(plugin.stderr()).toBe("");
    } finally {
      await plugin.stop();
    }
  });

  test("never loads grpc-js, serves calls that load the provider, and ends with code 0 on SIGTERM", async () => {
    // The bundle the launcher runs holds no file of the gRPC library (the service stubs get a client-less stub).
    const inputs: string[] = JSON.parse(
      fs.readFileSync(path.join(repoRoot, "dist", "plugin", "bundle-inputs.json"), "utf8"),
    );
    expect(inputs.some((f) => f.endsWith("provider/registry.js"))).toBe(true);
    expect(inputs.some((f) => /_grpc_pb\.js$/.test(f))).toBe(true);
    expect(inputs.filter((f) => /[\\/]@grpc[\\/]/.test(f))).toEqual([]);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "privnet-grpc-"));
    const report = path.join(dir, "modules.json");
    const preload = path.join(dir, "preload.js");
    // At exit, the module files the process loaded.
    fs.writeFileSync(
      preload,
      `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(report)}, ` +
        `JSON.stringify(Object.keys(require.cache))));\n`,
    );
    const child = spawn(path.join(repoRoot, "bin", "pulumi-resource-privnet"), [], {
      cwd: repoRoot,
      env: { ...process.env, PRIVNET_NODE: process.execPath, NODE_OPTIONS: `--require ${preload}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once("data", (b: Buffer) => resolve(Number(b.toString().trim())));
      child.once("exit", () => reject(new Error(`plugin exited: ${stderr}`)));
    });
    try {
      const info = await raw(port, { path: PATH("GetPluginInfo"), chunks: [frame(new Uint8Array())] });
      expect(info.grpcStatus).toBe("0");
      // CheckConfig loads the provider's core (kinds, client, credentials): its failure names the property.
      const check = new pb.CheckRequest().setNews(Struct.fromJavaScript({ apiUrl: "not a url" }));
      const a = await raw(port, { path: PATH("CheckConfig"), chunks: [frame(check.serializeBinary())] });
      expect(a.grpcStatus).toBe("0");
      const failures = pb.CheckResponse.deserializeBinary(a.body.subarray(5)).getFailuresList();
      expect(failures.map((f) => f.getProperty())).toEqual(["apiUrl"]);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    const modules: string[] = JSON.parse(fs.readFileSync(report, "utf8"));
    expect(modules.filter((m) => /[\\/]node_modules[\\/]/.test(m))).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
