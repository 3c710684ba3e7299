/**
 * Interrupted creates through the resource plugin (YAML, Python, Go, TypeScript via `pulumi-privnet/plugin`): the
 * plugin's own service (plugin/server.ts, in this process, without the HTTP/2 framing) against the real server,
 * with the stack's state given as the text `pulumi stack export` prints. Check and Create carry only the inputs
 * the program set and the URN the engine sends (`urn:pulumi:<stack>::<project>::privnet:index:<Kind>::<name>`): no
 * hidden owner input. The URN names the stack, so a create takes over what that stack's interrupted create made,
 * exactly as on the dynamic path (tests/provider/interrupted.test.ts); tests/e2e/interrupted-plugin.test.ts kills
 * the real CLI.
 */
import { token } from "../../model/hidden-inputs";
import { setWarningSink } from "../../provider/diagnostics";
import { setStateReader } from "../../provider/recovery";
import type { Props } from "../../provider/spec";
import * as grpc from "@grpc/grpc-js";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { PluginState, serve, type PluginServer } from "../../plugin/server";
import { addUserWithToken } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let other: { id: string; token: string };
let plugin: PluginServer;
let client: ResourceProviderClient;
const states = new Map<string, string>();
const reads: string[] = [];
let warnings: string[] = [];
let stacks = 0;

beforeAll(async () => {
  s = await startTestServer();
  other = addUserWithToken(s, "admin");
  const state = new PluginState();
  state.configure({ apiUrl: s.url, token: s.token });
  plugin = await serve(state);
  client = new ResourceProviderClient(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
  setStateReader(async ({ stack }) => {
    reads.push(stack);
    const text = states.get(stack);
    if (text === undefined) throw new Error(`error: no stack named '${stack}' found`);
    return text;
  });
});
afterAll(async () => {
  setStateReader(undefined);
  client?.close();
  await plugin?.stop();
  await s?.close();
});
beforeEach(() => {
  warnings = [];
  setWarningSink((m) => warnings.push(m));
});
afterEach(() => setWarningSink(undefined));

interface Note {
  kind: string;
  name: string;
  id?: string;
  inputs: Props;
}

/**
 * A new stack (`dev<n>` of project `proj`, as the engine names it in URNs) whose state holds `resources` and the
 * interrupted creates `pending`, recorded as the engine records a plugin resource's. Returns the URN of a
 * resource of that stack.
 */
function stack(opts: { resources?: { kind: string; name: string; id: string }[]; pending?: Note[] }) {
  const name = `dev${++stacks}`;
  const urn = (kind: string, resource: string) => `urn:pulumi:${name}::proj::${token(kind)}::${resource}`;
  states.set(
    name,
    JSON.stringify({
      version: 3,
      deployment: {
        resources: (opts.resources ?? []).map((r) => ({
          urn: urn(r.kind, r.name),
          type: token(r.kind),
          id: r.id,
          custom: true,
        })),
        pending_operations: (opts.pending ?? []).map((p) => ({
          type: "creating",
          resource: {
            urn: urn(p.kind, p.name),
            custom: true,
            type: token(p.kind),
            ...(p.id ? { id: p.id } : {}),
            inputs: p.inputs,
          },
        })),
      },
    }),
  );
  return { name, urn };
}

const struct = (props: Props) => Struct.fromJavaScript(props as never);
const plain = (st: Struct | undefined) => (st?.toJavaScript() ?? {}) as Props;

/** One unary call over gRPC; a failure rejects with the status's message. */
function rpc<Req, Res>(
  method: (req: Req, cb: (e: grpc.ServiceError | null, r: Res) => void) => unknown,
  req: Req,
) {
  return new Promise<Res>((resolve, reject) =>
    method.call(client, req, (e, r) => (e ? reject(new Error(e.details || e.message)) : resolve(r))),
  );
}

interface Req {
  urn: string;
  type: string;
  id?: string;
  olds?: Props;
  news?: Props;
  properties?: Props;
  preview?: boolean;
  ignoreChanges?: string[];
}

/** Check, Diff and Create as the engine sends them, with plain values in and out. */
async function call(method: "check" | "create" | "diff", r: Req): Promise<any> {
  if (method === "check") {
    const req = new pb.CheckRequest().setUrn(r.urn).setType(r.type);
    req.setOlds(struct(r.olds ?? {})).setNews(struct(r.news ?? {}));
    const res = await rpc<pb.CheckRequest, pb.CheckResponse>(client.check, req);
    return { inputs: plain(res.getInputs()), failures: res.getFailuresList().map((f) => f.toObject()) };
  }
  if (method === "diff") {
    const req = new pb.DiffRequest()
      .setUrn(r.urn)
      .setType(r.type)
      .setId(r.id ?? "");
    req
      .setOlds(struct(r.olds ?? {}))
      .setNews(struct(r.news ?? {}))
      .setIgnorechangesList(r.ignoreChanges ?? []);
    const res = await rpc<pb.DiffRequest, pb.DiffResponse>(client.diff, req);
    return { diffs: res.getDiffsList(), replaces: res.getReplacesList() };
  }
  const req = new pb.CreateRequest().setUrn(r.urn).setType(r.type);
  req.setProperties(struct(r.properties ?? {})).setPreview(r.preview ?? false);
  const res = await rpc<pb.CreateRequest, pb.CreateResponse>(client.create, req);
  return { id: res.getId(), properties: plain(res.getProperties()) };
}

/** Check then Create, as the engine calls the plugin for a new resource. */
async function checkAndCreate(
  urn: string,
  kind: string,
  news: Props,
): Promise<{ id: string; properties: Props }> {
  const checked = await call("check", { urn, type: token(kind), olds: {}, news });
  expect(checked.failures).toEqual([]);
  return call("create", { urn, type: token(kind), properties: checked.inputs, preview: false });
}

const ok = async (p: Promise<{ status: number; body: any }>) => {
  const r = await p;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const named = async (op: string, name: string) =>
  ((await s.call(op)).body as { id: string | number; name: string }[])
    .filter((o) => o.name === name)
    .map((o) => String(o.id));

function policyBody(name: string, groupId: string) {
  return {
    name,
    enabled: true,
    rules: [
      {
        name: "ssh",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["22"],
        sources: [groupId],
        destinations: [groupId],
      },
    ],
  };
}

test("a group whose interrupted create the engine recorded with its id is taken over: no 409, no second group", async () => {
  const orphan = await ok(s.call("createGroup", { body: { name: "plug-a" } }));
  const { name, urn } = stack({
    pending: [{ kind: "Group", name: "a", id: orphan.id, inputs: { name: "plug-a" } }],
  });
  const created = await checkAndCreate(urn("Group", "a"), "Group", { name: "plug-a" });
  expect(created.id).toBe(orphan.id);
  expect(await named("listGroups", "plug-a")).toEqual([orphan.id]);
  // The stack the URN names, read once, before Check answered.
  expect(reads.filter((r) => r === name)).toEqual([name]);
  expect(warnings.join("\n")).toMatch(
    new RegExp(`Group "plug-a" \\(id ${orphan.id}\\): an interrupted run of this stack created this object`),
  );
});

test("a policy (names may repeat) without a recorded id: the one object with the values sent, made by this token's user, is taken over", async () => {
  const g = await ok(s.call("createGroup", { body: { name: "plug-b-src" } }));
  const orphan = await ok(s.call("createPolicy", { body: policyBody("plug-b", g.id) }));
  const inputs = policyBody("plug-b", g.id);
  const { urn } = stack({
    resources: [{ kind: "Group", name: "src", id: g.id }],
    pending: [{ kind: "Policy", name: "p", inputs }],
  });
  const created = await checkAndCreate(urn("Policy", "p"), "Policy", inputs);
  expect(created.id).toBe(orphan.id);
  expect(await named("listPolicies", "plug-b")).toEqual([orphan.id]);
});

test("a same-named group another user made is not taken over: the error names its creator, not a mismatch", async () => {
  const foreign = await ok(s.call("createGroup", { body: { name: "plug-c" }, token: other.token }));
  const { urn } = stack({ pending: [{ kind: "Group", name: "c", inputs: { name: "plug-c" } }] });
  const err = await checkAndCreate(urn("Group", "c"), "Group", { name: "plug-c" }).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err?.message).toContain(`id ${foreign.id}: another user (id ${other.id}) created it`);
  expect(err?.message).toContain(`set adoptId: "${foreign.id}"`);
  expect(await named("listGroups", "plug-c")).toEqual([foreign.id]);
});

test("with no interrupted create noted for the URN, a name conflict says so", async () => {
  const existing = await ok(s.call("createGroup", { body: { name: "plug-d" } }));
  const { urn } = stack({});
  await expect(checkAndCreate(urn("Group", "d"), "Group", { name: "plug-d" })).rejects.toThrow(
    `id ${existing.id}: the stack's state records no interrupted create of this resource`,
  );
});

test("two fitting policies for one interrupted create: neither is taken over, the error lists both ids", async () => {
  const g = await ok(s.call("createGroup", { body: { name: "plug-e-src" } }));
  const a = await ok(s.call("createPolicy", { body: policyBody("plug-e", g.id) }));
  const b = await ok(s.call("createPolicy", { body: policyBody("plug-e", g.id) }));
  const inputs = policyBody("plug-e", g.id);
  const { urn } = stack({
    resources: [{ kind: "Group", name: "src", id: g.id }],
    pending: [{ kind: "Policy", name: "p", inputs }],
  });
  const err = await checkAndCreate(urn("Policy", "p"), "Policy", inputs).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err?.message).toMatch(/2 objects fit/);
  expect(err?.message).toContain(a.id);
  expect(err?.message).toContain(b.id);
  expect((await named("listPolicies", "plug-e")).sort()).toEqual([a.id, b.id].sort());
});

describe("the state is read only when a create may follow", () => {
  test("checks of resources the state holds, and a diff that updates in place, read nothing", async () => {
    const { name, urn } = stack({});
    const olds = { name: "plug-f" };
    const checked = await call("check", { urn: urn("Group", "f"), type: token("Group"), olds, news: olds });
    expect(checked.failures).toEqual([]);
    const diff = await call("diff", {
      urn: urn("Group", "f"),
      type: token("Group"),
      id: "f-id",
      olds,
      news: { name: "plug-f2" },
      ignoreChanges: [],
    });
    expect(diff.diffs).toEqual(["name"]);
    expect(reads).not.toContain(name);
  });

  test("a diff that answers a replacement reads it before answering", async () => {
    const { name, urn } = stack({});
    const olds = { name: "plug-g", type: "reusable", expiresIn: 86400, autoGroups: [], usageLimit: 0 };
    await call("check", { urn: urn("SetupKey", "k"), type: token("SetupKey"), olds, news: olds });
    expect(reads).not.toContain(name);
    const diff = await call("diff", {
      urn: urn("SetupKey", "k"),
      type: token("SetupKey"),
      id: "k-id",
      olds,
      news: { ...olds, name: "plug-g2" },
      ignoreChanges: [],
    });
    expect(diff.replaces).toEqual(["name"]);
    expect(reads.filter((r) => r === name)).toEqual([name]);
  });

  test("a pending create of a resource checked before the read began is not taken as an earlier run's", async () => {
    // The engine replaces `old` without asking the diff (`--replace`): its create may be noted before the state is
    // read (here: the note names an object with this resource's values), so nothing is taken over for it.
    const g = await ok(s.call("createGroup", { body: { name: "plug-h-src" } }));
    const inputs = policyBody("plug-h", g.id);
    const noted = await ok(s.call("createPolicy", { body: inputs }));
    const { name, urn } = stack({
      resources: [
        { kind: "Group", name: "src", id: g.id },
        { kind: "Policy", name: "old", id: "old-id" },
      ],
      pending: [{ kind: "Policy", name: "old", id: noted.id, inputs }],
    });
    await call("check", { urn: urn("Policy", "old"), type: token("Policy"), olds: inputs, news: inputs });
    expect(reads).not.toContain(name);
    // A new resource's check reads the state.
    await call("check", {
      urn: urn("Group", "new"),
      type: token("Group"),
      olds: {},
      news: { name: "plug-h-new" },
    });
    expect(reads).toContain(name);
    const created = await call("create", {
      urn: urn("Policy", "old"),
      type: token("Policy"),
      properties: inputs,
      preview: false,
    });
    expect(created.id).not.toBe(noted.id);
    expect(warnings.join("\n")).not.toMatch(/takes it over/);
  });
});
