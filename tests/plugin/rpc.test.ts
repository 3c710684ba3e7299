/**
 * The resource plugin over gRPC: the real launcher (`bin/pulumi-resource-privnet`, compiled JavaScript) started as
 * the engine starts it, called with the engine's requests against a real privnet-server.
 *
 * Per kind: Check -> Create -> Read (refresh) -> Diff none -> Update with a detailed diff naming exactly the
 * changed inputs -> a replacing change reported as *_REPLACE -> Read with only the id (import) answers inputs and
 * outputs that diff clean -> Delete -> Read gone. Then what the dynamic host cannot do: secrets in and out,
 * previews with unknowns, config precedence, CheckConfig/DiffConfig, Invoke of lookups, the schema.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RequestLogEntry } from "../../server/context";
import { PROVIDERS } from "../../provider/registry";
import { envWithoutPrivnet, secretValue, UNKNOWN, type Host, type Props } from "../support/host";
import { repoRoot as root, startPlugin as launch } from "../support/plugin";
import { fixtures, localTarget, type KindFixture } from "../support/provider";
import { startTestServer, tempDir, type TestServer } from "../support/server";

jest.setTimeout(120_000);

const kinds = PROVIDERS.map((p) => p.spec.name);
const specOf = (kind: string) => PROVIDERS.find((p) => p.spec.name === kind)!.spec;
const SECRET_KEY = "4dabf18193072939515e22adb298388d";
const isSecret = (v: unknown): v is { value: unknown } =>
  typeof v === "object" && v !== null && SECRET_KEY in v;

let s: TestServer;
let plugin: Host;
let fx: Record<string, () => Promise<KindFixture>>;
const requests: RequestLogEntry[] = [];
const started: Host[] = [];

function startPlugin(env?: Record<string, string>): Promise<Host> {
  return launch(env).then((h) => {
    started.push(h);
    return h;
  });
}

/** Props without their secret envelopes (what the lifecycle saw). */
function plain(props: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) out[k] = isSecret(v) ? v.value : v;
  return out;
}

beforeAll(async () => {
  s = await startTestServer({
    cloud: true,
    embeddedIdp: true,
    simulate: true,
    onRequest: (e) => requests.push(e),
  });
  fx = await fixtures(localTarget(s));
  plugin = await startPlugin();
  // As the engine sends stack config to the default provider: variables, the secret in plain text there.
  await plugin.configure({}, { "privnet:apiUrl": s.url, "privnet:token": s.token });
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((h) => h.stop()));
  await s?.close();
});

test("the launcher starts compiled JavaScript and reports the package's version", async () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  expect(await plugin.getPluginInfo()).toBe(pkg.version);
  expect(plugin.startMs).toBeLessThan(30_000);
});

test("the launcher runs the one-file bundle: a whole lifecycle reads no module from node_modules or dist", async () => {
  // A preload that records every module file the process resolves (builtins are not files).
  const dir = tempDir("privnet-bundle-");
  const seen = path.join(dir, "modules.txt");
  const hook = path.join(dir, "hook.js");
  fs.writeFileSync(
    hook,
    `const fs = require("node:fs"); const M = require("node:module"); const orig = M._resolveFilename;
M._resolveFilename = function (...a) { const f = orig.apply(this, a); if (!M.isBuiltin(f)) fs.appendFileSync(${JSON.stringify(seen)}, f + "\\n"); return f; };`,
  );
  const h = await startPlugin({ ...envWithoutPrivnet(), NODE_OPTIONS: `--require ${hook}` });
  await h.configure({ apiUrl: s.url, token: s.token });
  const checked = await h.check("Group", { name: "bundle-probe" });
  const created = await h.create("Group", checked.inputs);
  expect((await h.read("Group", created.id, created.props, checked.inputs)).id).toBe(created.id);
  await h.delete("Group", created.id, created.props);
  expect(
    requests.some((e) => e.method === "DELETE" && e.path.endsWith(`/${created.id}`) && e.status < 300),
  ).toBe(true);
  const files = fs.existsSync(seen) ? fs.readFileSync(seen, "utf8").split("\n").filter(Boolean) : [];
  // Only the launcher's entry (dist/plugin/start.js, which turns on the compile cache) and the bundle it loads.
  expect(files.filter((f) => f !== hook)).toEqual(
    ["start.js", "bundle.js"].map((f) => path.join(root, "dist", "plugin", f)),
  );
});

test("GetSchema answers the package schema with every kind and lookup", async () => {
  const text = await plugin.getSchema();
  // The answer is encoded once from the file's bytes: the client decodes exactly the file's text, twice over.
  expect(text).toBe(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8"));
  expect(await plugin.getSchema()).toBe(text);
  const schema = JSON.parse(text);
  expect(schema.name).toBe("privnet");
  for (const k of kinds) expect(Object.keys(schema.resources)).toContain(`privnet:index:${k}`);
  expect(Object.keys(schema.functions)).toContain("privnet:index:getGroup");
});

describe.each(kinds)("%s", (kind) => {
  test("check, create, read, diff, update (detailed), replace, import read, delete: through the plugin", async () => {
    const f = await fx[kind]!();
    const spec = specOf(kind);
    const id0 = requests.length;

    const checked = await plugin.check(kind, f.create);
    expect(checked.failures).toEqual([]);
    const created = await plugin.create(kind, checked.inputs);
    const id = created.id;
    expect(id).toBeTruthy();
    for (const name of spec.secretOutputs ?? []) {
      if (created.props[name] !== undefined) expect(isSecret(created.props[name])).toBe(true);
    }

    const read = await plugin.read(kind, id, created.props, checked.inputs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(created.props);
    expect(await plugin.detailedDiff(kind, id, read.props, checked.inputs)).toMatchObject({
      changes: "none",
      diffs: [],
      detailedDiff: {},
    });

    let current = read.props;
    let currentInputs = checked.inputs;
    if (f.update) {
      const checkedU = await plugin.check(kind, f.update, currentInputs);
      expect(checkedU.failures).toEqual([]);
      const d = await plugin.detailedDiff(kind, id, current, checkedU.inputs);
      expect(d.changes).toBe("some");
      expect(d.replaces).toEqual([]);
      expect(d.diffs.length).toBeGreaterThan(0);
      // Exactly the inputs the update changes, each an in-place update (or an add/delete of the field).
      expect(Object.keys(d.detailedDiff ?? {}).sort()).toEqual([...d.diffs].sort());
      for (const v of Object.values(d.detailedDiff ?? {})) expect(v).toMatch(/^(UPDATE|ADD|DELETE)$/);
      const updated = await plugin.update(kind, id, current, checkedU.inputs);
      const reread = await plugin.read(kind, id, updated.props, checkedU.inputs);
      expect(reread.props).toEqual(updated.props);
      expect((await plugin.detailedDiff(kind, id, reread.props, checkedU.inputs)).changes).toBe("none");
      current = reread.props;
      currentInputs = checkedU.inputs;
    }
    if (f.replace) {
      const d = await plugin.detailedDiff(kind, id, current, f.replace.inputs);
      expect(d.replaces).toContain(f.replace.property);
      expect(d.detailedDiff?.[f.replace.property]).toMatch(/_REPLACE$/);
    }

    // `pulumi import`: only the id (composite for a child kind); inputs and outputs come back and agree.
    const parents = spec.parents ?? [];
    const importId = parents.length ? [...parents.map((p) => String(current[p.input])), id].join("/") : id;
    const imported = await plugin.read(kind, importId, {});
    expect(imported.id).toBe(importId);
    expect(Object.keys(imported.props).length).toBeGreaterThan(0);
    expect(imported.inputs).toBeDefined();
    // Only what the API never shows may be missing (write-only inputs): the program adds it, which is no change.
    const unseen = (spec.writeOnly ?? []).filter(
      (n) => f.create[n] !== undefined && imported.inputs![n] === undefined,
    );
    const reChecked = await plugin.check(kind, plain(imported.inputs!));
    expect(reChecked.failures.map((x) => x.property).filter((n) => !unseen.includes(n))).toEqual([]);
    const program = {
      ...plain(imported.inputs!),
      ...Object.fromEntries(unseen.map((n) => [n, f.create[n]])),
    };
    expect((await plugin.diff(kind, importId, imported.props, program)).changes).toBe("none");

    await plugin.delete(kind, id, current);
    const gone = await plugin.read(kind, id, current, currentInputs);
    if (f.survivesDelete) expect(gone.id).toBe(id);
    else expect(gone.id).toBe("");
    expect(requests.slice(id0).filter((r) => r.status === 401 || r.status === 403)).toEqual([]);
  });
});

test("a refresh answers the inputs the state names, with the server's values; the drift shows", async () => {
  const name = `named-${process.pid}`;
  const checked = await plugin.check("Group", { name });
  const created = await plugin.create("Group", checked.inputs);
  const first = await plugin.read("Group", created.id, created.props, checked.inputs);
  // The members the program leaves to others (peers, resources) do not enter the state's inputs.
  expect(first.inputs).toEqual({ name });
  expect(first.props).toMatchObject({ name, peers: [], resources: [] });
  // Renamed elsewhere: the new name comes back as the input, and the program's name shows as a change.
  await s.call("updateGroup", { params: { groupId: created.id }, body: { name: `${name}-x`, peers: [] } });
  const drifted = await plugin.read("Group", created.id, first.props, first.inputs);
  expect(drifted.inputs).toEqual({ name: `${name}-x` });
  expect(drifted.props.name).toBe(`${name}-x`);
  expect((await plugin.detailedDiff("Group", created.id, drifted.props, checked.inputs)).diffs).toEqual([
    "name",
  ]);
  // With only the id (`pulumi import`), every input the server shows.
  const imported = await plugin.read("Group", created.id, {});
  expect(imported.inputs).toMatchObject({ name: `${name}-x` });
  await plugin.delete("Group", created.id, drifted.props);
});

describe("secrets", () => {
  test("a setup key's value comes back secret from Create and Read; nothing secret on stderr", async () => {
    const group = (await s.call("createGroup", { body: { name: `sk-${process.pid}` } })).body.id;
    const inputs = {
      name: "plugin-key",
      type: "reusable",
      expiresIn: 86400,
      autoGroups: [group],
      usageLimit: 0,
    };
    const created = await plugin.create("SetupKey", (await plugin.check("SetupKey", inputs)).inputs);
    expect(isSecret(created.props.key)).toBe(true);
    const fullKey = (created.props.key as { value: string }).value;
    expect(fullKey.length).toBeGreaterThan(10);
    const read = await plugin.read("SetupKey", created.id, created.props);
    expect(isSecret(read.props.key)).toBe(true);
    const imported = await plugin.read("SetupKey", created.id, {});
    // The API shows a masked key after create (or none); what there is stays secret.
    if (imported.props.key !== undefined) expect(isSecret(imported.props.key)).toBe(true);
    expect(plugin.stderr()).not.toContain(fullKey);
    await plugin.delete("SetupKey", created.id, created.props);
  });

  test("a secret input is accepted, unwrapped for the API, and its output stays secret", async () => {
    const f = await fx.IdentityProvider!();
    const wrapped = { ...f.create, clientSecret: secretValue(f.create.clientSecret) };
    const checked = await plugin.check("IdentityProvider", wrapped);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.clientSecret).toEqual(secretValue(f.create.clientSecret));
    const created = await plugin.create("IdentityProvider", checked.inputs);
    expect(created.props.clientSecret).toEqual(secretValue(f.create.clientSecret));
    // A non-secret field that arrived secret stays secret too.
    const named = await plugin.check("Group", { name: secretValue(`hidden-${process.pid}`) });
    const g = await plugin.create("Group", named.inputs);
    expect(isSecret(g.props.name)).toBe(true);
    expect((await s.call("getGroup", { params: { groupId: g.id } })).body.name).toBe(`hidden-${process.pid}`);
    await plugin.delete("Group", g.id, plain(g.props));
    await plugin.delete("IdentityProvider", created.id, plain(created.props));
  });
});

describe("previews", () => {
  test("Check passes unknowns; a preview Create answers inputs and unknown outputs, with no request", async () => {
    const before = requests.length;
    const checked = await plugin.check("Group", { name: UNKNOWN });
    expect(checked.failures).toEqual([]);
    const preview = await plugin.create("Group", { name: "planned" }, true);
    expect(preview.id).toBe("");
    expect(preview.props.name).toBe("planned");
    expect(preview.props.peersCount).toBe(UNKNOWN);
    const key = await plugin.create(
      "SetupKey",
      { name: "k", type: "reusable", expiresIn: 86400, autoGroups: [], usageLimit: 0 },
      true,
    );
    expect(key.props.key).toEqual(secretValue(UNKNOWN));
    const upd = await plugin.update("Group", "g1", { name: "a", peersCount: 2 }, { name: "b" }, true);
    expect(upd.props).toMatchObject({ name: "b", peersCount: 2 });
    expect(requests.length).toBe(before);
  });

  test("an invalid input fails Check naming the property, with no request", async () => {
    const before = requests.length;
    const r = await plugin.check("Route", {
      description: "office",
      networkId: "office",
      enabled: true,
      masquerade: true,
      keepRoute: false,
      peerGroups: ["d0gp0000000000000001"],
      network: "10.10.0.0/16",
      metric: 0,
      groups: ["d0gp0000000000000002"],
    });
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]!.property).toBe("metric");
    expect(requests.length).toBe(before);
  });

  test("ignoreChanges leaves a property out of the diff", async () => {
    const d = await plugin.detailedDiff("Group", "g1", { name: "a", peers: [] }, { name: "b", peers: [] }, [
      "name",
    ]);
    expect(d.changes).toBe("none");
  });
});

describe("provider config", () => {
  test("CheckConfig names the property that is wrong", async () => {
    const bad = await plugin.checkConfig({ apiUrl: "ftp://x", rateLimit: "lots", batchReads: "maybe" });
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["apiUrl", "batchReads", "rateLimit"]);
    expect((await plugin.checkConfig({ apiUrl: s.url, token: secretValue("t") })).failures).toEqual([]);
  });

  test("DiffConfig: a new token is no change; a new URL is an update, never a replacement", async () => {
    const rotated = await plugin.diffConfig(
      { apiUrl: s.url, token: secretValue("old") },
      { apiUrl: s.url, token: secretValue("new"), rateLimit: "60:10" },
    );
    expect(rotated).toMatchObject({ changes: "none", replaces: [], diffs: [] });
    const moved = await plugin.diffConfig(
      { apiUrl: s.url, token: "t" },
      { apiUrl: "http://other:1", token: "t" },
    );
    expect(moved).toMatchObject({ changes: "some", replaces: [], diffs: ["apiUrl"] });
    expect(moved.detailedDiff).toEqual({ apiUrl: "UPDATE" });
  });

  test("arguments over stack config over the environment; no token fails before any request", async () => {
    const env = { ...envWithoutPrivnet(), PRIVNET_API_URL: "http://127.0.0.1:9", PRIVNET_TOKEN: "nbp_wrong" };
    const [fromArgs, fromVars, fromEnv, none] = await Promise.all([
      startPlugin(env),
      startPlugin(env),
      startPlugin({ ...envWithoutPrivnet(), PRIVNET_API_URL: s.url, PRIVNET_TOKEN: s.token }),
      startPlugin(),
    ]);
    // Explicit provider arguments win over the (wrong) variables and environment.
    await fromArgs.configure(
      { apiUrl: s.url, token: secretValue(s.token) },
      { "privnet:apiUrl": "http://127.0.0.1:9", "privnet:token": "nbp_wrong" },
    );
    await fromVars.configure({}, { "privnet:apiUrl": s.url, "privnet:token": s.token });
    await fromEnv.configure({}, {});
    await none.configure({}, {});
    for (const h of [fromArgs, fromVars, fromEnv]) {
      const r = await h.invoke("privnet:index:getGroup", { name: "All" });
      expect(r.result.name).toBe("All");
    }
    const before = requests.length;
    await expect(none.create("Group", { name: "x" })).rejects.toThrow(/no API token/);
    expect(requests.length).toBe(before);
  });

  test("Configure refuses a broken setting, naming it", async () => {
    const h = await startPlugin();
    await expect(h.configure({ rateLimit: "fast" })).rejects.toThrow(/rateLimit/);
  });
});

describe("Invoke", () => {
  test("a lookup answers in camelCase; a list comes as items; bad arguments are failures naming the field", async () => {
    const g = await plugin.invoke("privnet:index:getGroup", { name: "All" });
    expect(g.failures).toEqual([]);
    expect(g.result).toMatchObject({ name: "All" });
    expect(typeof g.result.peersCount).toBe("number");
    const many = await plugin.invoke("privnet:index:getGroups", {});
    expect(Array.isArray(many.result.items)).toBe(true);
    const bad = await plugin.invoke("privnet:index:getPeerByName", { name: "" });
    expect(bad.failures).toEqual([{ property: "name", reason: "must not be empty" }]);
    await expect(plugin.invoke("privnet:index:getNothing", {})).rejects.toThrow(/unknown function/);
  });
});

test("after Cancel no change starts", async () => {
  const h = await startPlugin();
  await h.configure({ apiUrl: s.url, token: s.token });
  await h.cancel();
  const before = requests.length;
  await expect(h.create("Group", { name: "late" })).rejects.toThrow(/cancelled/);
  expect(requests.length).toBe(before);
});
