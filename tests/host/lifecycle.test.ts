/**
 * Every resource kind through the REAL dynamic-provider host over gRPC: the program behind Pulumi's
 * `pulumi-resource-pulumi-nodejs` plugin, started from a project that has the built package installed as a copy,
 * fed the `__provider` text the SDK really produced. Credentials reach the provider only through Configure (the
 * host's environment has no PRIVNET_* variable), the way `pulumi config set [--secret] privnet:...` does.
 *
 * Per kind: Check (no failures) -> Create -> Read (same id, same props) -> Diff with the same inputs (none) ->
 * Update where the kind has one (Read again, Diff none) -> a replacing change shows in Diff -> Delete -> Read
 * reports the object gone (singletons: restored, still there).
 */
import type { RequestLogEntry } from "../../server/context";
import { PROVIDERS } from "../../provider/registry";
import {
  captureProviderTexts,
  envWithoutPrivnet,
  secretValue,
  startHost,
  UNKNOWN,
  type Host,
  type Props,
} from "../support/host";
import { installPackageCopy, type PackageCopy } from "../support/package-copy";
import { fixtures, localTarget, type KindFixture } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

jest.setTimeout(120_000);

const kinds = PROVIDERS.map((p) => p.spec.name);
const nonce = `${process.pid}${Date.now().toString(36)}`;

let copy: PackageCopy;
let s: TestServer;
let host: Host;
let fx: Record<string, () => Promise<KindFixture>>;
/** `__provider` per kind, as the SDK produced it. */
const texts: Record<string, string> = {};
const requests: RequestLogEntry[] = [];
const timings: Record<string, number> = {};
let configured: { acceptSecrets: boolean; supportsPreview: boolean };

async function timed<T>(label: string, f: () => Promise<T>): Promise<T> {
  const t = Date.now();
  try {
    return await f();
  } finally {
    timings[label] = Date.now() - t;
  }
}

beforeAll(async () => {
  copy = installPackageCopy({ projectName: "privnet-host" });
  timings["dist/ freshness check (+ build if stale)"] = copy.buildMs;
  timings["package copy"] = copy.durationMs;
  const captured = await timed("capture __provider texts", () =>
    captureProviderTexts(copy, kinds, {
      envToken: `nbp_ENV${nonce}`,
      envApiUrl: `http://env-${nonce}.invalid:9`,
      configToken: `nbp_CFG${nonce}`,
      configApiUrl: `http://cfg-${nonce}.invalid:9`,
    }),
  );
  for (const k of kinds) texts[k] = captured.providers[k]!.text;

  s = await startTestServer({
    cloud: true,
    embeddedIdp: true,
    simulate: true,
    onRequest: (e) => requests.push(e),
  });
  fx = await fixtures(localTarget(s));

  const env = envWithoutPrivnet();
  expect(Object.keys(env).filter((k) => k.startsWith("PRIVNET_"))).toEqual([]);
  host = await startHost(copy, { env });
  timings["host start (spawn to port line)"] = host.startMs;
  // As the engine sends stack config: namespaced keys, `--secret` values in the secret envelope.
  configured = await timed("Configure", () =>
    host.configure({ "privnet:apiUrl": s.url, "privnet:token": secretValue(s.token) }),
  );
  // The first call on a provider text loads it (require of the package) and runs its configure.
  await timed("first call (Check, loads the provider)", () =>
    host.check("Group", { name: "probe", __kind: "Group", __provider: texts.Group }),
  );
}, 120_000);

afterAll(async () => {
  const stderr = host?.stderr() ?? "";
  if (stderr) console.log(`dynamic-provider host stderr:\n${stderr}`);
  await host?.stop();
  await s?.close();
  copy?.cleanup();
  const rows = Object.entries(timings).map(([k, v]) => `  ${k.padEnd(48)} ${String(v).padStart(6)} ms`);
  console.log(`host tier timings:\n${rows.join("\n")}`);
}, 60_000);

test("the host does not accept secrets (so the engine sends every input in plain text)", () => {
  expect(configured.acceptSecrets).toBe(false);
});

describe.each(kinds)("%s", (kind) => {
  test("check, create, read, diff, update, read, delete, read gone: through the host", async () => {
    const started = Date.now();
    const f = await fx[kind]!();
    const text = texts[kind]!;
    const id0 = requests.length;

    const news = { ...f.create, __kind: kind, __provider: text };
    const checked = await host.check(kind, news);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.__provider).toBe(text);

    const created = await host.create(kind, checked.inputs);
    const id = created.id;
    expect(id).toBeTruthy();
    expect(created.props.__provider).toBe(text);

    // Read: the same object, the same properties; the reported inputs diff clean against the program's.
    const read = await host.read(kind, id, created.props, checked.inputs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(created.props);
    expect(read.inputs?.__provider).toBe(text);
    expect(await host.diff(kind, id, read.props, news)).toEqual({
      changes: "none",
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect((await host.diff(kind, id, read.inputs!, news)).changes).toBe("none");

    let current = read.props;
    let currentInputs = checked.inputs;
    if (f.update) {
      const newsU = { ...f.update, __kind: kind, __provider: text };
      const checkedU = await host.check(kind, newsU, currentInputs);
      expect(checkedU.failures).toEqual([]);
      const d = await host.diff(kind, id, current, checkedU.inputs);
      expect(d.changes).toBe("some");
      expect(d.replaces).toEqual([]);
      const updated = await host.update(kind, id, current, checkedU.inputs);
      expect(updated.props.__provider).toBe(text);
      const reread = await host.read(kind, id, updated.props, checkedU.inputs);
      expect(reread.id).toBe(id);
      expect(reread.props).toEqual(updated.props);
      expect((await host.diff(kind, id, reread.props, newsU)).changes).toBe("none");
      current = reread.props;
      currentInputs = checkedU.inputs;
    }
    if (f.replace) {
      const d = await host.diff(kind, id, current, { ...f.replace.inputs, __kind: kind, __provider: text });
      expect(d.changes).toBe("some");
      expect(d.replaces).toContain(f.replace.property);
    }

    await host.delete(kind, id, current);
    const gone = await host.read(kind, id, current, currentInputs);
    if (f.survivesDelete) {
      expect(gone.id).toBe(id);
    } else {
      // Gone: the provider returns {}; over the wire that is an empty id (the engine drops the resource).
      expect(gone.id).toBe("");
      expect(gone.props).toEqual({ __provider: text });
    }
    // Every request the provider made used the Configure credentials (no 401/403 anywhere).
    expect(requests.slice(id0).filter((r) => r.status === 401 || r.status === 403)).toEqual([]);
    timings[`kind ${kind}`] = Date.now() - started;
  });
});

describe("check without the server", () => {
  const route = (over: Props): Props => ({
    description: "office",
    networkId: "office",
    enabled: true,
    masquerade: true,
    keepRoute: false,
    peerGroups: ["d0gp0000000000000001"],
    network: "10.10.0.0/16",
    metric: 100,
    groups: ["d0gp0000000000000002"],
    ...over,
    __kind: "Route",
    __provider: texts.Route,
  });

  test("an invalid input fails Check, names the property, and sends no request", async () => {
    const before = requests.length;
    const r = await host.check("Route", route({ metric: 0 }));
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]!.property).toBe("metric");
    expect(r.failures[0]!.reason).toMatch(/\bmetric\b/);
    expect(requests.length).toBe(before);
  });

  test("a number where a string is expected (a digits-only YAML config value) is checked and answered as its text", async () => {
    const r = await host.check("Route", route({ description: 2024, networkId: 42 }));
    expect(r.failures).toEqual([]);
    expect([r.inputs.description, r.inputs.networkId]).toEqual(["2024", "42"]);
  });

  test("the unknown marker in required fields passes Check (preview), with no request", async () => {
    const before = requests.length;
    const r = await host.check("Route", route({ metric: UNKNOWN, groups: UNKNOWN, networkId: UNKNOWN }));
    expect(r.failures).toEqual([]);
    expect(r.inputs.metric).toBe(UNKNOWN);
    expect(requests.length).toBe(before);
  });
});

/**
 * The host answers Configure with acceptSecrets=false, so the real engine never sends the envelope in
 * Check/Create/Update (it strips secrets before marshalling). This pins down what the host itself does when it
 * gets one anyway: it passes the envelope through to the provider unchanged (only Configure args are
 * unwrapped), i.e. the provider would see an object where it expects the string.
 */
describe("a secret input in the secret envelope", () => {
  test("IdentityProvider clientSecret: the host does not unwrap it; Check fails on clientSecret; nothing is created", async () => {
    const f = await fx.IdentityProvider!();
    const wrapped = {
      ...f.create,
      clientSecret: secretValue(f.create.clientSecret),
      __kind: "IdentityProvider",
      __provider: texts.IdentityProvider,
    };
    const before = (await s.call("listIdentityProviders")).body.length as number;

    const checked = await host.check("IdentityProvider", wrapped);
    expect(checked.inputs.clientSecret).toEqual(secretValue(f.create.clientSecret));
    expect(checked.failures).toEqual([
      { property: "clientSecret", reason: "clientSecret: must be a string" },
    ]);

    const created = await host.create("IdentityProvider", wrapped).then(
      (r) => ({ ok: true as const, r }),
      (e: Error) => ({ ok: false as const, message: e.message }),
    );
    expect(created.ok).toBe(false);
    // Create does not re-run check (the engine always checks first): the envelope goes to the API as the value.
    if (!created.ok)
      expect(created.message).toMatch(
        /^Create: privnet: POST \/api\/identity-providers 422: clientSecret: must be a string/,
      );
    expect((await s.call("listIdentityProviders")).body.length).toBe(before);
  });

  test("the same input as the engine really sends it (plain) is created, and the secret is kept in the outputs", async () => {
    const f = await fx.IdentityProvider!();
    const props = { ...f.create, __kind: "IdentityProvider", __provider: texts.IdentityProvider };
    const created = await host.create("IdentityProvider", props);
    expect(created.props.clientSecret).toBe(f.create.clientSecret);
    await host.delete("IdentityProvider", created.id, created.props);
  });
});

/** Credentials come from Configure and nowhere else: a plain token works too, no token fails before any request. */
describe("credentials through Configure only", () => {
  const extra: Host[] = [];
  afterAll(async () => {
    await Promise.all(extra.map((h) => h.stop()));
  });

  test("a plain (non-secret) token in Configure works; a host configured without one cannot create", async () => {
    const [plain, none] = await Promise.all([startHost(copy), startHost(copy)]);
    extra.push(plain, none);
    await plain.configure({ "privnet:apiUrl": s.url, "privnet:token": s.token });
    await none.configure({ "privnet:apiUrl": s.url });

    const props = {
      name: `host-plain-${nonce}`,
      description: "plain token",
      __kind: "Network",
      __provider: texts.Network,
    };
    const created = await plain.create("Network", props);
    expect(created.id).toBeTruthy();
    await plain.delete("Network", created.id, created.props);
    expect((await plain.read("Network", created.id, created.props)).id).toBe("");

    const before = requests.length;
    await expect(none.create("Network", { ...props, name: `host-none-${nonce}` })).rejects.toThrow(
      /no API token/,
    );
    expect(requests.length).toBe(before);
  });
});
