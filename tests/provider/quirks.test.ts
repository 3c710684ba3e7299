/**
 * The provider against a server that answers the way an independent implementation was seen to (a proxy in front
 * of the local server, tests/support/quirks-proxy.ts): null lists, the plain DNS-settings shape, string ids,
 * normal forms (/32 hosts, lower-case domains, a domain route's placeholder network), account settings with a
 * member the provider does not know, a policy whose second rule loses its sources, 400 for a group already
 * deleted. Every kind must go through its whole lifecycle without a crash or a phantom diff; where data is lost,
 * the apply warns.
 */
import { setWarningSink } from "../../provider/diagnostics";
import { PROVIDERS } from "../../provider/registry";
import type { Props } from "../../provider/spec";
import { runLifecycle } from "../support/lifecycle";
import { configureAll, fixtures, localTarget, providerFor, type KindFixture } from "../support/provider";
import { startQuirksProxy, type QuirksProxy } from "../support/quirks-proxy";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let proxy: QuirksProxy;
let fx: Record<string, () => Promise<KindFixture>>;
const warnings: string[] = [];

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  proxy = await startQuirksProxy(s.url);
  // The providers talk to the proxy; prerequisites are made on the server directly.
  await configureAll({ url: proxy.url, token: s.token });
  fx = await fixtures(localTarget(s));
  setWarningSink((m) => warnings.push(m));
});
beforeEach(() => {
  warnings.length = 0;
});
afterAll(async () => {
  setWarningSink(undefined);
  await proxy?.close();
  await s?.close();
});

describe.each(PROVIDERS.map((p) => [p.spec.name, p.spec.deprecatedBy] as const))(
  "%s through the quirks proxy",
  (kind, deprecatedBy) => {
    test("whole lifecycle, no crash, no phantom diff, no warning but those the kind documents", async () => {
      const fixture = await fx[kind]!();
      await runLifecycle(providerFor(kind), fixture);
      // A deprecated earlier name warns at each check that it is one, naming the kind to use; an object the API
      // cannot delete (survivesDelete) warns that the stack no longer manages it. Nothing else.
      const expected = (w: string) =>
        (deprecatedBy !== undefined && w.includes(`${kind} is deprecated: use ${deprecatedBy}`)) ||
        (fixture.survivesDelete === true && w.includes("no longer managed by this stack"));
      expect(warnings.filter((w) => !expected(w))).toEqual([]);
      if (deprecatedBy) expect(warnings.length).toBeGreaterThan(0);
    });
  },
);

async function group(name: string): Promise<string> {
  return (await s.call("createGroup", { body: { name } })).body.id as string;
}

test("AccountSettings naming two settings keeps a member the provider does not know", async () => {
  const before = (await s.call("listAccounts")).body[0];
  const p = providerFor("AccountSettings");
  const inputs = { peerLoginExpiration: 7200, lazyConnectionEnabled: true };
  const created = await p.create(inputs);
  expect(proxy.unknownSetting()).toBe("on-by-someone");
  const after = (await s.call("listAccounts")).body[0];
  expect(after.settings).toEqual({
    ...before.settings,
    peer_login_expiration: 7200,
    lazy_connection_enabled: true,
  });
  expect(created.outs.priorSettings).toEqual({
    peer_login_expiration: before.settings.peer_login_expiration,
    lazy_connection_enabled: before.settings.lazy_connection_enabled,
  });
  await p.delete(created.id, created.outs as Props);
  expect((await s.call("listAccounts")).body[0].settings).toEqual(before.settings);
  expect(proxy.unknownSetting()).toBe("on-by-someone");
});

test("a policy whose second rule is stored without its sources: the apply warns, naming the rule and field", async () => {
  const [a, b] = [await group("quirk-a"), await group("quirk-b")];
  const rule = { enabled: true, action: "accept", bidirectional: false, protocol: "tcp" };
  const inputs = {
    name: "quirk two rules",
    enabled: true,
    rules: [
      { ...rule, name: "ssh", ports: ["22"], sources: [a], destinations: [b] },
      { ...rule, name: "web", ports: ["443"], sources: [b], destinations: [a] },
    ],
  };
  const p = providerFor("Policy");
  const created = await p.create(inputs);
  expect(warnings).toEqual([
    expect.stringMatching(
      new RegExp(
        `^privnet: Policy "quirk two rules" \\(id ${created.id}\\): the server stored other values than the ` +
          `program sent \\(rules\\[1\\] \\("web"\\)\\.sources: sent \\["${b}"\\], stored nothing\\)`,
      ),
    ),
  ]);
  // The state holds what the server stores, so the next preview shows the difference instead of hiding it.
  expect((await p.diff(created.id, created.outs as Props, inputs)).changes).toBe(true);
  await p.delete(created.id, created.outs as Props);
});

test("the server's normal forms converge and the program's spelling stays in state", async () => {
  const g = await group("quirk-forms");
  const net = (await s.call("createNetwork", { body: { name: "quirk-net" } })).body.id as string;
  const res = { networkId: net, name: "db", address: "10.60.0.5", enabled: true, groups: [g] };
  const route = {
    description: "docs",
    networkId: "docs",
    enabled: true,
    peerGroups: [g],
    domains: ["Docs.Example.com"],
    metric: 100,
    masquerade: true,
    groups: [g],
    keepRoute: true,
  };
  for (const [kind, inputs, field, value] of [
    ["NetworkResource", res, "address", "10.60.0.5"],
    ["Route", route, "domains", ["Docs.Example.com"]],
  ] as const) {
    const p = providerFor(kind);
    const created = await p.create(inputs);
    expect(created.outs[field]).toEqual(value);
    const read = await p.read(created.id, created.outs as Props);
    expect(read.props).toEqual(created.outs);
    expect((await p.diff(created.id, read.inputs as Props, inputs)).changes).toBe(false);
    await p.delete(created.id, created.outs as Props);
  }
  expect(warnings).toEqual([]);
});
