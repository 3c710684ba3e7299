/**
 * Creates an interrupted run left behind (provider/recovery.ts), against the real server: the stack's state is
 * given as the text `pulumi stack export` prints (the e2e test kills the real CLI instead). A create takes over
 * the object the state records as this resource's interrupted create, or the one object that matches it by
 * kind, values and creator and that nothing else holds; anything else with the name is not taken over, and the
 * error or warning names its id and adoptId.
 */
import { setWarningSink } from "../../provider/diagnostics";
import { OWNER_INPUT, TYPE_PREFIX } from "../../model/hidden-inputs";
import { setStateReader } from "../../provider/recovery";
import type { Props } from "../../provider/spec";
import { addUserWithToken } from "../support/fixtures";
import { configureAll, providerFor } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let other: { id: string; token: string };
const states = new Map<string, string>();
let warnings: string[] = [];
let stacks = 0;

beforeAll(async () => {
  s = await startTestServer();
  await configureAll(s);
  other = addUserWithToken(s, "admin");
  setStateReader(async ({ stack }) => {
    const text = states.get(stack);
    if (text === undefined) throw new Error(`error: no stack named '${stack}' found`);
    return text;
  });
});
afterAll(async () => {
  setStateReader(undefined);
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

/** A new stack whose state holds `resources` (kind, name, id) and the interrupted creates `pending`. */
function stack(opts: { resources?: { kind: string; name: string; id: string }[]; pending?: Note[] }) {
  const name = `org/proj/s${++stacks}`;
  const urn = (kind: string, resource: string) =>
    `urn:pulumi:s${stacks}::proj::${TYPE_PREFIX}${kind}::${resource}`;
  states.set(
    name,
    JSON.stringify({
      version: 3,
      deployment: {
        resources: (opts.resources ?? []).map((r) => ({
          urn: urn(r.kind, r.name),
          type: `${TYPE_PREFIX}${r.kind}`,
          id: r.id,
          custom: true,
        })),
        pending_operations: (opts.pending ?? []).map((p) => ({
          type: "creating",
          resource: {
            urn: urn(p.kind, p.name),
            custom: true,
            type: `${TYPE_PREFIX}${p.kind}`,
            ...(p.id ? { id: p.id } : {}),
            inputs: { __provider: "exports.handler = ...", ...p.inputs },
          },
        })),
      },
    }),
  );
  /** The inputs the sdk sends for resource `resource` of `kind` in this stack. */
  return (kind: string, resource: string, inputs: Props): Props => ({
    ...inputs,
    [OWNER_INPUT]: { stack: name, urn: urn(kind, resource) },
  });
}

const ok = async (p: Promise<{ status: number; body: any }>) => {
  const r = await p;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const names = async (op: string, name: string) =>
  ((await s.call(op)).body as { id: string | number; name: string }[])
    .filter((o) => o.name === name)
    .map((o) => String(o.id));

function policyBody(name: string, groupId: string, ports = ["22"]) {
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
        ports,
        sources: [groupId],
        destinations: [groupId],
      },
    ],
  };
}

test("the object whose id the engine recorded is taken over: no second object, a warning names it", async () => {
  const orphan = await ok(s.call("createGroup", { body: { name: "rec-a" } }));
  const inputsOf = stack({
    pending: [{ kind: "Group", name: "a", id: orphan.id, inputs: { name: "rec-a" } }],
  });
  const created = await providerFor("Group").create(inputsOf("Group", "a", { name: "rec-a" }));
  expect(created.id).toBe(orphan.id);
  expect(await names("listGroups", "rec-a")).toEqual([orphan.id]);
  expect(warnings.join("\n")).toMatch(
    new RegExp(`Group "rec-a" \\(id ${orphan.id}\\): an interrupted run of this stack created this object`),
  );
  expect(warnings.join("\n")).toMatch(/pulumi refresh --clear-pending-creates/);
});

test("without a recorded id, the one object of the same values made by this user is taken over", async () => {
  const g = await ok(s.call("createGroup", { body: { name: "rec-b-src" } }));
  const body = policyBody("rec-b", g.id);
  const orphan = await ok(s.call("createPolicy", { body }));
  const inputs = policyBody("rec-b", g.id);
  const inputsOf = stack({
    resources: [{ kind: "Group", name: "src", id: g.id }],
    pending: [{ kind: "Policy", name: "p", inputs }],
  });
  const p = providerFor("Policy");
  const created = await p.create(inputsOf("Policy", "p", inputs));
  expect(created.id).toBe(orphan.id);
  expect(await names("listPolicies", "rec-b")).toEqual([orphan.id]);
  expect((await p.diff(created.id, created.outs, inputs)).changes).toBe(false);
});

test("a program changed since the interrupted run: the object is taken over and updated in place", async () => {
  const orphan = await ok(s.call("createNetwork", { body: { name: "rec-c", description: "old" } }));
  const inputsOf = stack({
    pending: [{ kind: "Network", name: "n", id: orphan.id, inputs: { name: "rec-c", description: "old" } }],
  });
  const created = await providerFor("Network").create(
    inputsOf("Network", "n", { name: "rec-c", description: "new" }),
  );
  expect(created.id).toBe(orphan.id);
  expect((await ok(s.call("getNetwork", { params: { networkId: orphan.id } }))).description).toBe("new");
  expect(await names("listNetworks", "rec-c")).toEqual([orphan.id]);
});

test("a same-named group made by another user is not taken over: the error names its id and adoptId", async () => {
  const foreign = await ok(s.call("createGroup", { body: { name: "rec-d" }, token: other.token }));
  const inputsOf = stack({ pending: [{ kind: "Group", name: "d", inputs: { name: "rec-d" } }] });
  const err = await providerFor("Group")
    .create(inputsOf("Group", "d", { name: "rec-d" }))
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(err?.message).toContain(`Group "rec-d": the server already has a Group with this name`);
  expect(err?.message).toContain(`id ${foreign.id}: another user (id ${other.id}) created it`);
  expect(err?.message).toContain(`set adoptId: "${foreign.id}"`);
  expect(await names("listGroups", "rec-d")).toEqual([foreign.id]);
  expect(warnings.join("\n")).not.toMatch(/takes it over/);
});

test("a same-named policy with other values is not taken over: a new one is made, a warning names the other", async () => {
  const g = await ok(s.call("createGroup", { body: { name: "rec-e-src" } }));
  const foreign = await ok(s.call("createPolicy", { body: policyBody("rec-e", g.id, ["443"]) }));
  const inputs = policyBody("rec-e", g.id);
  const inputsOf = stack({
    resources: [{ kind: "Group", name: "src", id: g.id }],
    pending: [{ kind: "Policy", name: "p", inputs }],
  });
  const created = await providerFor("Policy").create(inputsOf("Policy", "p", inputs));
  expect(created.id).not.toBe(foreign.id);
  expect((await names("listPolicies", "rec-e")).sort()).toEqual([created.id, foreign.id].sort());
  const rules = (await ok(s.call("getPolicy", { params: { policyId: foreign.id } }))).rules;
  expect(rules[0].ports).toEqual(["443"]);
  expect(warnings.join("\n")).toContain(
    `id ${foreign.id}: its values differ from what the interrupted create sent (rules)`,
  );
  expect(warnings.join("\n")).toMatch(/set adoptId to its id/);
});

test("with no interrupted create recorded, a name conflict names the existing id and adoptId", async () => {
  const existing = await ok(s.call("createGroup", { body: { name: "rec-f" } }));
  const inputsOf = stack({});
  await expect(providerFor("Group").create(inputsOf("Group", "f", { name: "rec-f" }))).rejects.toThrow(
    `id ${existing.id}: the stack's state records no interrupted create of this resource`,
  );
  expect(await names("listGroups", "rec-f")).toEqual([existing.id]);
});

test("an object a resource of the stack manages is never taken over, even with the same values", async () => {
  const g = await ok(s.call("createGroup", { body: { name: "rec-g-src" } }));
  const managed = await ok(s.call("createPolicy", { body: policyBody("rec-g", g.id) }));
  const inputs = policyBody("rec-g", g.id);
  const inputsOf = stack({
    resources: [
      { kind: "Group", name: "src", id: g.id },
      { kind: "Policy", name: "twin", id: managed.id },
    ],
    pending: [{ kind: "Policy", name: "p", inputs }],
  });
  const created = await providerFor("Policy").create(inputsOf("Policy", "p", inputs));
  expect(created.id).not.toBe(managed.id);
  expect(warnings.join("\n")).toContain(`id ${managed.id}: a resource of this stack manages it`);
});

test("two fitting objects for one interrupted create: neither is taken over, the error lists both", async () => {
  const g = await ok(s.call("createGroup", { body: { name: "rec-h-src" } }));
  const a = await ok(s.call("createPolicy", { body: policyBody("rec-h", g.id) }));
  const b = await ok(s.call("createPolicy", { body: policyBody("rec-h", g.id) }));
  const inputs = policyBody("rec-h", g.id);
  const inputsOf = stack({
    resources: [{ kind: "Group", name: "src", id: g.id }],
    pending: [{ kind: "Policy", name: "p", inputs }],
  });
  const err = await providerFor("Policy")
    .create(inputsOf("Policy", "p", inputs))
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(err?.message).toMatch(/2 objects fit/);
  expect(err?.message).toContain(a.id);
  expect(err?.message).toContain(b.id);
  expect(err?.message).toMatch(/Set adoptId/);
  expect((await names("listPolicies", "rec-h")).sort()).toEqual([a.id, b.id].sort());
});

test("two identical resources interrupted, two objects: each takes one, nothing is made", async () => {
  const g = await ok(s.call("createGroup", { body: { name: "rec-i-src" } }));
  const a = await ok(s.call("createPolicy", { body: policyBody("rec-i", g.id) }));
  const b = await ok(s.call("createPolicy", { body: policyBody("rec-i", g.id) }));
  const inputs = policyBody("rec-i", g.id);
  const inputsOf = stack({
    resources: [{ kind: "Group", name: "src", id: g.id }],
    pending: [
      { kind: "Policy", name: "one", inputs },
      { kind: "Policy", name: "two", inputs },
    ],
  });
  const p = providerFor("Policy");
  const [one, two] = await Promise.all([
    p.create(inputsOf("Policy", "one", inputs)),
    p.create(inputsOf("Policy", "two", inputs)),
  ]);
  expect([one.id, two.id].sort()).toEqual([a.id, b.id].sort());
  expect((await names("listPolicies", "rec-i")).sort()).toEqual([a.id, b.id].sort());
});

test("a setup key is made anew (its key exists only in a create answer); the orphan is deleted", async () => {
  const inputs = { name: "rec-j", type: "reusable", expiresIn: 86400, autoGroups: [], usageLimit: 0 };
  const orphan = await ok(
    s.call("createSetupKey", {
      body: { name: "rec-j", type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 },
    }),
  );
  const inputsOf = stack({ pending: [{ kind: "SetupKey", name: "k", inputs }] });
  const created = await providerFor("SetupKey").create(inputsOf("SetupKey", "k", inputs));
  expect(created.id).not.toBe(orphan.id);
  expect(created.outs.key).toMatch(/^[A-Za-z0-9-]{20,}$/);
  expect(await names("listSetupKeys", "rec-j")).toEqual([created.id]);
  expect(warnings.join("\n")).toMatch(/its key was answered only to that run: it is deleted and made anew/);
});

test("objects made after the state was read (by this run) are never candidates", async () => {
  const inputsOf = stack({ pending: [{ kind: "Network", name: "n", inputs: { name: "rec-k" } }] });
  const p = providerFor("Network");
  // Check reads the state (and the server) before any create of the run starts.
  await p.check({}, inputsOf("Network", "n", { name: "rec-k" }));
  const later = await ok(s.call("createNetwork", { body: { name: "rec-k" } }));
  const created = await p.create(inputsOf("Network", "n", { name: "rec-k" }));
  expect(created.id).not.toBe(later.id);
  expect((await names("listNetworks", "rec-k")).sort()).toEqual([created.id, later.id].sort());
});

test("a state that cannot be read: one warning, then ordinary creates", async () => {
  const p = providerFor("Network");
  const owner = { stack: "org/proj/missing", urn: `urn:pulumi:missing::proj::${TYPE_PREFIX}Network::n` };
  const a = await p.create({ name: "rec-l", [OWNER_INPUT]: owner });
  const b = await p.create({ name: "rec-l2", [OWNER_INPUT]: owner });
  expect(a.id).not.toBe(b.id);
  const text = warnings.join("\n");
  expect(text).toContain("could not read the state of stack org/proj/missing");
  expect(text).toContain("no stack named 'org/proj/missing' found");
  expect(text.match(/could not read the state/g)).toHaveLength(1);
});

test("outputs and what a read reports as inputs keep the owner input (refresh shows no change in inputs)", async () => {
  const inputsOf = stack({});
  const p = providerFor("Group");
  const inputs = inputsOf("Group", "m", { name: "rec-m" });
  const created = await p.create(inputs);
  expect(created.outs[OWNER_INPUT]).toEqual(inputs[OWNER_INPUT]);
  const read = await p.read(created.id, created.outs);
  expect(read.inputs?.[OWNER_INPUT]).toEqual(inputs[OWNER_INPUT]);
  expect(read.props?.[OWNER_INPUT]).toEqual(inputs[OWNER_INPUT]);
  // Never sent to the API, never a change.
  expect((await p.diff(created.id, created.outs, { name: "rec-m" })).changes).toBe(false);
});

test("a user invited by another user with the same email is not taken over: the error names it by email", async () => {
  const body = { email: "rec-n@example.test", role: "user", auto_groups: [], is_service_user: false };
  const foreign = await ok(s.call("createUser", { body, token: other.token }));
  const inputs = { email: "rec-n@example.test", role: "user", autoGroups: [], isServiceUser: false };
  const inputsOf = stack({ pending: [{ kind: "User", name: "u", inputs }] });
  const err = await providerFor("User")
    .create(inputsOf("User", "u", inputs))
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(err?.message).toContain('User "rec-n@example.test": the server already has a User with this email');
  expect(err?.message).toContain(`id ${foreign.id}: another user (id ${other.id}) created it`);
  expect(err?.message).toContain(`set adoptId: "${foreign.id}"`);
});
