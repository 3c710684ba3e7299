/**
 * Host-tier support: the REAL serialized provider text and the REAL dynamic-provider host, without the CLI.
 *
 * - {@link captureProviderTexts}: in a child Node process (cwd = a project with the package installed as a copy,
 *   see package-copy.ts), constructs every resource class of `require("pulumi-privnet")` under
 *   `pulumi.runtime.setMocks` and returns the `__provider` input the SDK registered for each: the text Pulumi
 *   stores in state and the host `require`s.
 * - {@link startHost}: `node <project>/node_modules/@pulumi/pulumi/cmd/dynamic-provider` (the program behind
 *   the `pulumi-resource-pulumi-nodejs` plugin), with a promise-based gRPC client for it.
 */
import * as grpc from "@grpc/grpc-js";
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { PackageCopy } from "./package-copy";

/** The wire encoding of a secret value (what the engine sends for a secret when the provider accepts secrets). */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The value the engine sends for an input not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function secretValue(value: unknown): Record<string, unknown> {
  return { [SECRET_SIG_KEY]: SECRET_SIG, value };
}

/** The environment without any PRIVNET_* variable (so only what a test passes reaches a child). */
export function envWithoutPrivnet(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !k.startsWith("PRIVNET_")) env[k] = v;
  return env;
}

// ---------------------------------------------------------------------------------------------------------------
// The serialized provider, as the SDK produces it

/** What the SDK registered for one resource kind. */
export interface CapturedProvider {
  /** The registered type token, e.g. `pulumi-nodejs:dynamic/privnet:Route`. */
  type: string;
  /** The `__provider` text. */
  text: string;
  /** Whether `__provider` reached the monitor as a secret. */
  secret: boolean;
  /** The hidden `__kind` input the resource registered (the provider entry dispatches on it). */
  kindInput?: unknown;
}

export interface CaptureResult {
  providers: Record<string, CapturedProvider>;
  /** Kinds asked for that `require("pulumi-privnet")` does not export. */
  missing: string[];
  /** What the child saw as `privnet:token` through pulumi.Config (proves the config was set). */
  configToken: string | undefined;
  /** Kinds whose provider object held credentials (from configure) when the resource was constructed. */
  configuredProviders: number;
  /** The SDK's closure serializer's text of the configured provider entry (what `pulumi.dynamic.Resource` sends). */
  sdkText?: string;
  /** Why the SDK's serializer failed on the entry, when it did. */
  sdkError?: string;
  durationMs: number;
}

/** Recognizable credentials put into the capturing process, which must appear in no `__provider` text. */
export interface CaptureMarkers {
  envToken: string;
  envApiUrl: string;
  configToken: string;
  configApiUrl: string;
}

/**
 * The child program. It runs in the project directory, so `pulumi-privnet` and `@pulumi/pulumi` resolve the way
 * a user's program resolves them. Before constructing the resources it configures every provider object of the
 * package with the marker credentials, so the objects being serialized really hold a token in memory.
 */
const CAPTURE_SCRIPT = String.raw`"use strict";
const kinds = JSON.parse(process.env.CAPTURE_KINDS);
const pulumi = require("@pulumi/pulumi");
const captured = {};
pulumi.runtime.setMocks(
  {
    newResource(args) {
      let p = args.inputs.__provider;
      let secret = false;
      if (p && typeof p === "object" && p["${SECRET_SIG_KEY}"] === "${SECRET_SIG}") {
        secret = true;
        p = p.value;
      }
      const kind = args.type.slice(args.type.lastIndexOf(":") + 1);
      captured[kind] = { type: args.type, text: p, secret, kindInput: args.inputs.__kind };
      return { id: args.name + "-id", state: args.inputs };
    },
    call() {
      return {};
    },
  },
  "capture",
  "test",
  false,
);

(async () => {
  // Hold credentials in the provider objects first, as a host's provider entry does: configured, then a call per
  // kind, which loads the kind and gives it the settings.
  const cfg = new Map(Object.entries(JSON.parse(process.env.PULUMI_CONFIG)));
  const entry = require("pulumi-privnet/provider");
  await entry.configure({ config: { get: (k) => cfg.get(k), require: (k) => cfg.get(k) } });
  for (const kind of kinds) await entry.check({}, { __kind: kind });
  const { PROVIDERS } = require("pulumi-privnet/dist/provider/registry.js");
  const configuredProviders = PROVIDERS.filter((p) => p.creds && p.creds.token).length;
  const privnet = require("pulumi-privnet");
  const missing = [];
  const resources = [];
  for (const kind of kinds) {
    const Cls = privnet[kind];
    if (typeof Cls !== "function") {
      missing.push(kind);
      continue;
    }
    // Inputs do not matter to the serialization; a secret input shows __provider stays a plain string.
    resources.push(new Cls("r-" + kind, kind === "IdentityProvider" ? { clientSecret: "program-secret" } : {}));
  }
  await Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
  const configToken = new pulumi.Config("privnet").get("token");
  // What the SDK's own serializer (pulumi.dynamic.Resource's) makes of the entry, configured as it is here.
  let sdkText;
  let sdkError;
  try {
    sdkText = (await pulumi.runtime.serializeFunction(() => entry, { allowSecrets: true })).text;
  } catch (err) {
    sdkError = String((err && err.message) || err);
  }
  process.stdout.write(
    "\nCAPTURED " +
      JSON.stringify({ providers: captured, missing, configToken, configuredProviders, sdkText, sdkError }) +
      "\n",
  );
})().catch((err) => {
  process.stderr.write(String((err && err.stack) || err) + "\n");
  process.exit(1);
});
`;

/** Runs the capture program in the project (Node = this process's Node) and returns every kind's text. */
export function captureProviderTexts(
  copy: PackageCopy,
  kinds: string[],
  markers: CaptureMarkers,
): Promise<CaptureResult> {
  const script = path.join(copy.dir, "capture-providers.js");
  fs.writeFileSync(script, CAPTURE_SCRIPT);
  const env = {
    ...envWithoutPrivnet(),
    PRIVNET_TOKEN: markers.envToken,
    PRIVNET_API_URL: markers.envApiUrl,
    PULUMI_CONFIG: JSON.stringify({
      "privnet:token": markers.configToken,
      "privnet:apiUrl": markers.configApiUrl,
    }),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(["privnet:token"]),
    CAPTURE_KINDS: JSON.stringify(kinds),
  };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script],
      { cwd: copy.dir, env, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const line = stdout.split("\n").find((l) => l.startsWith("CAPTURED "));
        if (err || !line) {
          reject(new Error(`capture program failed: ${err?.message ?? "no result"}\n${stdout}\n${stderr}`));
          return;
        }
        resolve({
          ...(JSON.parse(line.slice("CAPTURED ".length)) as Omit<CaptureResult, "durationMs">),
          durationMs: Date.now() - started,
        });
      },
    );
  });
}

/** The arguments of every `require(...)` call in a text. */
export function requiredModules(text: string): string[] {
  return [...text.matchAll(/\brequire\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^)]*)\s*\)/g)].map((m) => {
    const arg = m[1]!;
    return /^["']/.test(arg) ? (JSON.parse(arg.replace(/^'|'$/g, '"')) as string) : arg;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The real dynamic-provider host over gRPC

export type Props = Record<string, unknown>;

export interface CheckResult {
  inputs: Props;
  failures: { property: string; reason: string }[];
}

export interface DiffResult {
  changes: "none" | "some" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** A diff with the provider's detail (the resource plugin reports it; the dynamic host does not). */
export interface DetailedDiff extends DiffResult {
  /** Changed properties (`diffs`). */
  diffs: string[];
  /** Property path -> kind (`UPDATE`, `UPDATE_REPLACE`, `ADD`, ...); undefined without `hasDetailedDiff`. */
  detailedDiff?: Record<string, string>;
}

/** A gRPC client of a provider process. Every method is one gRPC call. */
export interface ProviderClient {
  configure(
    args: Props,
    variables?: Record<string, string>,
  ): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }>;
  check(kind: string, news: Props, olds?: Props): Promise<CheckResult>;
  diff(kind: string, id: string, olds: Props, news: Props): Promise<DiffResult>;
  /** Diff with the detail the provider reports. */
  detailedDiff(
    kind: string,
    id: string,
    olds: Props,
    news: Props,
    ignoreChanges?: string[],
  ): Promise<DetailedDiff>;
  create(kind: string, props: Props, preview?: boolean): Promise<{ id: string; props: Props }>;
  read(
    kind: string,
    id: string,
    props: Props,
    inputs?: Props,
  ): Promise<{ id: string; props: Props; inputs?: Props }>;
  update(kind: string, id: string, olds: Props, news: Props, preview?: boolean): Promise<{ props: Props }>;
  delete(kind: string, id: string, props: Props): Promise<void>;
  checkConfig(news: Props, olds?: Props): Promise<CheckResult>;
  diffConfig(olds: Props, news: Props): Promise<DetailedDiff>;
  invoke(
    token: string,
    args: Props,
  ): Promise<{ result: Props; failures: { property: string; reason: string }[] }>;
  getSchema(): Promise<string>;
  getPluginInfo(): Promise<string>;
  cancel(): Promise<void>;
  /** Closes the client's connection. */
  close(): void;
}

/** A running host and a client for it. */
export interface Host extends ProviderClient {
  port: number;
  pid: number;
  /** Spawn to port line, ms. */
  startMs: number;
  /** What the host wrote to stderr so far. */
  stderr(): string;
  /** Resolves when the process has exited: its exit code, or null when a signal ended it. */
  exited: Promise<number | null>;
  /** Closes the process's stdin (the engine's end of it goes when the engine goes). */
  closeStdin(): void;
  /** Closes the client and kills the host (SIGTERM, then SIGKILL); resolves when it has exited. */
  stop(): Promise<void>;
}

const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic/privnet:";

/** Protobuf Struct from plain JSON data (undefined members dropped, as the engine would never send them). */
function toStruct(props: Props): Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(props)) as Record<string, never>);
}

function fromStruct(s: Struct | undefined): Props {
  return (s?.toJavaScript() ?? {}) as Props;
}

const DIFF_KINDS = Object.fromEntries(Object.entries(pb.PropertyDiff.Kind).map(([k, v]) => [v, k]));

function detailOf(map: ReturnType<pb.DiffResponse["getDetaileddiffMap"]>): Record<string, string> {
  const out: Record<string, string> = {};
  map.forEach((d, k) => (out[k] = String(DIFF_KINDS[d.getKind()] ?? "")));
  return out;
}

function diffOf(res: pb.DiffResponse): DetailedDiff {
  const c = res.getChanges();
  const D = pb.DiffResponse.DiffChanges;
  return {
    changes: c === D.DIFF_NONE ? "none" : c === D.DIFF_SOME ? "some" : "unknown",
    replaces: res.getReplacesList(),
    deleteBeforeReplace: res.getDeletebeforereplace(),
    diffs: res.getDiffsList(),
    ...(res.getHasdetaileddiff()
      ? {
          detailedDiff: detailOf(res.getDetaileddiffMap()),
        }
      : {}),
  };
}

export interface StartHostOptions {
  /** Environment for the host (default: this process's without PRIVNET_*), PULUMI_NODEJS_PROJECT is added. */
  env?: Record<string, string>;
  /** Deadline of each call, ms (default 60 s). */
  callTimeoutMs?: number;
}

/** Starts the real dynamic-provider host in the project directory and connects a client to it. */
export function startHost(copy: PackageCopy, opts: StartHostOptions = {}): Promise<Host> {
  const entry = path.join(copy.pulumiSdkDir, "cmd", "dynamic-provider");
  // The one argument is the engine's address; the host only checks that it is there.
  return startProviderProcess({
    label: "dynamic-provider host",
    command: process.execPath,
    args: [entry, "127.0.0.1:1"],
    cwd: copy.dir,
    env: { ...(opts.env ?? envWithoutPrivnet()), PULUMI_NODEJS_PROJECT: copy.projectName },
    project: copy.projectName,
    typePrefix: DYNAMIC_TYPE_PREFIX,
    ...(opts.callTimeoutMs ? { callTimeoutMs: opts.callTimeoutMs } : {}),
  });
}

/** A provider process to start: the dynamic-provider host, or the resource plugin's launcher. */
export interface ProviderProcess {
  label: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Project name in the URNs of the requests. */
  project: string;
  /** Type token of a kind: this prefix + the kind (`privnet:index:`, `pulumi-nodejs:dynamic/privnet:`). */
  typePrefix: string;
  callTimeoutMs?: number;
}

/** Starts a provider process that prints its port on the first line of stdout, and connects a client to it. */
export async function startProviderProcess(p: ProviderProcess): Promise<Host> {
  const started = Date.now();
  const child: ChildProcessWithoutNullStreams = spawn(p.command, p.args, {
    cwd: p.cwd,
    env: p.env,
    stdio: "pipe",
  });
  let err = "";
  child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error("no port line within 30 s")), 30_000);
    function fail(e: Error): void {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${p.label} did not start: ${e.message}\n--- stdout\n${out}\n--- stderr\n${err}`));
    }
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString("utf8");
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      const first = out.slice(0, nl).trim();
      if (!/^\d+$/.test(first))
        return fail(new Error(`first stdout line is not a port: ${JSON.stringify(first)}`));
      clearTimeout(timer);
      resolve(Number(first));
    });
    child.once("error", (e) => fail(e));
    child.once("exit", (code, signal) => fail(new Error(`exited (${code ?? signal})`)));
  });
  const startMs = Date.now() - started;
  // Drain stdout from here on (the provider's console.log would otherwise fill the pipe).
  child.stdout.on("data", () => undefined);

  const client = connectProvider(port, p);
  return {
    ...client,
    port,
    pid: child.pid!,
    startMs,
    stderr: () => err,
    exited,
    closeStdin: () => child.stdin.end(),
    async stop() {
      client.close();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}

/**
 * A client of a provider process serving on `port`. With `separateConnection` it opens a connection of its own
 * (grpc-js clients of the same address share one otherwise), as a second engine process would.
 */
export function connectProvider(
  port: number,
  p: Pick<ProviderProcess, "project" | "typePrefix" | "callTimeoutMs">,
  opts: { separateConnection?: boolean } = {},
): ProviderClient {
  const client = new ResourceProviderClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    opts.separateConnection ? { "grpc.use_local_subchannel_pool": 1 } : {},
  );
  const timeout = p.callTimeoutMs ?? 60_000;

  type Method<Req, Res> = (
    req: Req,
    md: grpc.Metadata,
    o: Partial<grpc.CallOptions>,
    cb: (e: grpc.ServiceError | null, r: Res) => void,
  ) => grpc.ClientUnaryCall;
  function call<Req, Res>(name: string, method: Method<Req, Res>, req: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      method.call(client, req, new grpc.Metadata(), { deadline: Date.now() + timeout }, (e, res) => {
        if (e) {
          const wrapped = new Error(`${name}: ${e.details || e.message}`) as Error & { code?: number };
          wrapped.code = e.code;
          reject(wrapped);
        } else resolve(res);
      });
    });
  }
  const urn = (kind: string) => `urn:pulumi:test::${p.project}::${p.typePrefix}${kind}::r-${kind}`;
  /** Every resource request names the same test resource of the kind: its URN, name and type. */
  const about = <R extends { setUrn(v: string): R; setName(v: string): R; setType(v: string): R }>(
    req: R,
    kind: string,
  ): R => req.setUrn(urn(kind)).setName(`r-${kind}`).setType(`${p.typePrefix}${kind}`);

  async function detailedDiff(
    kind: string,
    id: string,
    olds: Props,
    news: Props,
    ignoreChanges: string[] = [],
  ): Promise<DetailedDiff> {
    const req = about(new pb.DiffRequest(), kind)
      .setId(id)
      .setOlds(toStruct(olds))
      .setNews(toStruct(news))
      .setIgnorechangesList(ignoreChanges);
    return diffOf(await call("Diff", client.diff, req));
  }

  return {
    async configure(args, variables = {}) {
      const req = new pb.ConfigureRequest()
        .setArgs(toStruct(args))
        .setAcceptsecrets(true)
        .setAcceptresources(true);
      for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
      const res = await call("Configure", client.configure, req);
      return { acceptSecrets: res.getAcceptsecrets(), supportsPreview: res.getSupportspreview() };
    },
    async check(kind, news, olds = {}) {
      const req = about(new pb.CheckRequest(), kind).setOlds(toStruct(olds)).setNews(toStruct(news));
      const res = await call("Check", client.check, req);
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(kind, id, olds, news) {
      const { changes, replaces, deleteBeforeReplace } = await detailedDiff(kind, id, olds, news);
      return { changes, replaces, deleteBeforeReplace };
    },
    detailedDiff,
    async create(kind, props, preview = false) {
      const req = about(new pb.CreateRequest(), kind).setProperties(toStruct(props)).setPreview(preview);
      const res = await call("Create", client.create, req);
      return { id: res.getId(), props: fromStruct(res.getProperties()) };
    },
    async read(kind, id, props, inputs) {
      const req = about(new pb.ReadRequest(), kind).setId(id).setProperties(toStruct(props));
      if (inputs) req.setInputs(toStruct(inputs));
      const res = await call("Read", client.read, req);
      return {
        id: res.getId(),
        props: fromStruct(res.getProperties()),
        ...(res.hasInputs() ? { inputs: fromStruct(res.getInputs()) } : {}),
      };
    },
    async update(kind, id, olds, news, preview = false) {
      const req = about(new pb.UpdateRequest(), kind)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news))
        .setPreview(preview);
      const res = await call("Update", client.update, req);
      return { props: fromStruct(res.getProperties()) };
    },
    async delete(kind, id, props) {
      const req = about(new pb.DeleteRequest(), kind).setId(id).setProperties(toStruct(props));
      await call("Delete", client.delete, req);
    },
    async checkConfig(news, olds = {}) {
      const req = new pb.CheckRequest()
        .setUrn(`urn:pulumi:test::${p.project}::pulumi:providers:privnet::default`)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news));
      const res = await call("CheckConfig", client.checkConfig, req);
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diffConfig(olds, news) {
      const req = new pb.DiffRequest()
        .setUrn(`urn:pulumi:test::${p.project}::pulumi:providers:privnet::default`)
        .setOlds(toStruct(olds))
        .setOldInputs(toStruct(olds))
        .setNews(toStruct(news));
      return diffOf(await call("DiffConfig", client.diffConfig, req));
    },
    async invoke(token, args) {
      const req = new pb.InvokeRequest().setTok(token).setArgs(toStruct(args));
      const res = await call("Invoke", client.invoke, req);
      return {
        result: fromStruct(res.getReturn()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async getSchema() {
      const res = await call("GetSchema", client.getSchema, new pb.GetSchemaRequest().setVersion(0));
      return res.getSchema();
    },
    async getPluginInfo() {
      const res = await call("GetPluginInfo", client.getPluginInfo, new Empty());
      return res.getVersion();
    },
    async cancel() {
      await call("Cancel", client.cancel, new Empty());
    },
    close: () => client.close(),
  };
}
