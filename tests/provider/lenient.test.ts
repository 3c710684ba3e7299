/**
 * Values the service accepts (docs/validation.md) through the provider's whole lifecycle against the local
 * server: the check passes them, with exactly the warnings the case names (a property and what it says); create,
 * read, a second preview, refresh, update and delete then run as for any object, with no other warning (no
 * "stored something else") and no phantom diff. The same cases run against a live server in the acceptance tier
 * (tests/acceptance/lenient.test.ts).
 */
import { setWarningSink } from "../../provider/diagnostics";
import { runLifecycle } from "../support/lifecycle";
import { expectWarnings, lenientCases, type LenientCase } from "../support/lenient-cases";
import { configureAll, localTarget, providerFor } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let cases: Record<string, () => Promise<LenientCase>>;
const warnings: string[] = [];

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  await configureAll(s);
  cases = await lenientCases(localTarget(s));
  setWarningSink((m) => warnings.push(m));
});
beforeEach(() => {
  warnings.length = 0;
});
afterAll(async () => {
  setWarningSink(undefined);
  await s?.close();
});

const names = [
  "a network resource in the built-in All group",
  "JWT groups on without a claim name",
  "a setup key for 1 second",
  "a setup key for 60 seconds",
  "a setup key for 1800 seconds",
  "a route range with host bits set",
  "a group name with a leading space",
  "a DNS zone of one label",
  "a policy rule without destinations",
  "a network without a name",
];

test("the list above is every case", async () => {
  expect(Object.keys(cases).sort()).toEqual([...names].sort());
});

test.each(names)("%s: warned of at check, then a lifecycle like any other", async (name) => {
  const c = await cases[name]!();
  const p = providerFor(c.kind);
  expect((await p.check({}, c.fixture.create)).failures).toEqual([]);
  expectWarnings(c, [...warnings]);
  warnings.length = 0;
  await runLifecycle(p, c.fixture);
  // runLifecycle checks the create and update inputs again: only those warnings, nothing stored differently.
  const fromChecks = warnings.filter((m) => c.warns.some((w) => m.includes(`: ${w.property}: `)));
  expect(warnings).toEqual(fromChecks);
});

test("the network resource is among All's resources on the server, and leaves them with the resource", async () => {
  const c = await cases["a network resource in the built-in All group"]!();
  const p = providerFor("NetworkResource");
  const created = await p.create(c.fixture.create);
  const all = (await s.call("listGroups", { query: { name: "All" } })).body[0];
  expect(all.resources).toContainEqual({ id: created.id, type: "host" });
  await p.delete(created.id, created.outs);
  const after = (await s.call("getGroup", { params: { groupId: all.id } })).body;
  expect(after.resources).not.toContainEqual(expect.objectContaining({ id: created.id }));
});

test("a setup key for 60 seconds expires after 60 seconds", async () => {
  const c = await cases["a setup key for 60 seconds"]!();
  const created = await providerFor("SetupKey").create(c.fixture.create);
  const key = (await s.call("getSetupKey", { params: { keyId: created.id } })).body;
  expect(Date.parse(key.expires) - Date.parse(key.updated_at)).toBe(60_000);
  expect(created.outs.key).toMatch(/^[0-9A-F-]{36}$/);
});
