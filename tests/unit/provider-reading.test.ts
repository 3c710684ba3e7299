/**
 * The provider's rules for reading what servers answer and comparing it with what programs say: liberal reads,
 * normal forms, exact filter objects, open value sets, partial resources, create-only and value-dependent
 * replacements, and the warning for values stored otherwise than sent.
 */
import { setWarningSink } from "../../provider/diagnostics";
import { compareInputs, reportStoredDifferences } from "../../provider/lifecycle";
import { fromApi, tolerate } from "../../model/mapping";
import { addressForm, domainForm, prefixForm, recordContentForm } from "../../provider/normal-forms";
import { sameValue } from "../../provider/normalize";
import { overlay, pickLike } from "../../provider/settings";
import { providerFor } from "../support/provider";

describe("reading liberally", () => {
  const group = providerFor("Group").spec.output;
  test("null lists read as empty lists, integer ids as text, unknown members are kept", () => {
    const answer = {
      id: 7,
      name: "ops",
      peers: null,
      resources: null,
      peers_count: 0,
      new_member: { a_b: 1 },
    };
    expect(fromApi(answer, group)).toEqual({
      id: "7",
      name: "ops",
      peers: [],
      resources: [],
      peersCount: 0,
      newMember: { aB: 1 },
    });
    expect(tolerate(answer, group)).toEqual({ ...answer, id: "7", peers: [], resources: [] });
  });
});

describe("normal forms", () => {
  test.each([
    ["10.0.0.5", "10.0.0.5/32"],
    ["fd00::5", "FD00::5/128"],
    ["10.0.0.0/24", "10.0.0.0/24"],
    ["Web.Example.COM", "web.example.com"],
    ["*.Example.com", "*.example.com"],
  ])("address %s means the same as %s", (a, b) => {
    expect(addressForm(a)).toBe(addressForm(b));
  });
  test.each([
    ["10.0.0.1/8", "10.0.0.0/8"],
    ["10.20.30.40/16", "10.20.0.0/16"],
    ["fd00:1::5/64", "FD00:1:0:0::/64"],
    ["0.0.0.0/0", "0.0.0.0/0"],
  ])("prefix %s is stored as %s", (a, b) => {
    expect(prefixForm(a)).toBe(prefixForm(b));
    expect(addressForm(a)).toBe(addressForm(b));
  });
  test("different addresses stay different", () => {
    expect(addressForm("10.0.0.5")).not.toBe(addressForm("10.0.0.6/32"));
    expect(addressForm("10.0.0.0/24")).not.toBe(addressForm("10.0.0.0/25"));
  });
  test("domains ignore case and a trailing dot; record contents keep addresses", () => {
    expect(domainForm("Corp.Example.")).toBe("corp.example");
    expect(recordContentForm("DB.example.com")).toBe("db.example.com");
    expect(recordContentForm("10.0.0.1")).toBe("10.0.0.1");
  });
  test("lists compare in the normal form", () => {
    expect(sameValue(["A.example"], ["a.example"], undefined, true, domainForm)).toBe(true);
  });
});

test("in a filter object (EDR match attributes) false is a value, not the same as leaving it out", () => {
  const edr = providerFor("EdrVendorA").spec;
  const d = compareInputs(
    edr,
    { matchAttributes: { firewallEnabled: true } },
    { matchAttributes: { firewallEnabled: true, infected: false } },
  );
  expect(d.changed).toEqual(["matchAttributes"]);
  // Elsewhere false and absent agree (a server answers its zero value).
  const key = providerFor("SetupKey").spec;
  expect(compareInputs(key, { ephemeral: false }, {}).changed).not.toContain("ephemeral");
});

test("values outside an open set pass the provider's check; the server decides", async () => {
  const policy = providerFor("Policy");
  const inputs = {
    name: "p",
    enabled: true,
    rules: [
      {
        name: "r",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "netbird-ssh",
        sources: ["g"],
        destinations: ["g"],
      },
    ],
  };
  expect((await policy.check({}, inputs)).failures).toEqual([]);
  // A closed set still fails, naming the property.
  const bad = { ...inputs, rules: [{ ...inputs.rules[0], action: "maybe" }] };
  expect((await policy.check({}, bad)).failures).toEqual([
    { property: "rules[0].action", reason: 'rules[0].action: must be one of "accept", "drop"' },
  ]);
});

describe("settings laid over what the server holds", () => {
  test("overlay merges plain objects member by member and replaces the rest", () => {
    expect(overlay({ a: 1, extra: { x: 1, y: 2 }, list: [1] }, { extra: { y: 3 }, list: [2] })).toEqual({
      a: 1,
      extra: { x: 1, y: 3 },
      list: [2],
    });
  });
  test("pickLike keeps what the patch names, at any depth", () => {
    expect(pickLike({ a: 1, b: 2, extra: { x: 1, y: 2 } }, { a: 9, extra: { y: 0 } })).toEqual({
      a: 1,
      extra: { y: 2 },
    });
  });
  test("a partial resource diffs only what the program names", () => {
    const spec = providerFor("AccountSettings").spec;
    const olds = {
      peerLoginExpiration: 7200,
      dnsDomain: "x",
      extra: { peerApprovalEnabled: true, userApprovalRequired: false },
    };
    expect(compareInputs(spec, olds, { peerLoginExpiration: 7200 }).changed).toEqual([]);
    expect(compareInputs(spec, olds, { extra: { userApprovalRequired: false } }).changed).toEqual([]);
    expect(compareInputs(spec, olds, { extra: { userApprovalRequired: true } }).changed).toEqual(["extra"]);
  });
});

test("a create-only input is not a replacement: the change is ignored (preview warns)", () => {
  const user = providerFor("User").spec;
  const olds = { name: "ci", role: "user", autoGroups: [], isServiceUser: true, isBlocked: false };
  expect(compareInputs(user, olds, { ...olds, name: "ci-2" })).toEqual({
    changed: [],
    replaces: [],
    ignored: ["name"],
  });
  expect(
    compareInputs(user, olds, { ...olds, isServiceUser: false, email: "a@example.com" }).replaces,
  ).toEqual(["email", "isServiceUser"]);
});

test("a revoked key cannot be un-revoked: that change is a replacement, revoking is not", () => {
  const key = providerFor("SetupKey").spec;
  const base = { name: "k", type: "reusable", expiresIn: 86400, autoGroups: [], usageLimit: 0 };
  expect(compareInputs(key, { ...base, revoked: false }, { ...base, revoked: true }).replaces).toEqual([]);
  expect(compareInputs(key, { ...base, revoked: true }, { ...base, revoked: false }).replaces).toEqual([
    "revoked",
  ]);
});

test("values stored otherwise than sent are reported once, naming the object, the item and the field", async () => {
  const messages: string[] = [];
  setWarningSink((m) => messages.push(m));
  try {
    const policy = providerFor("Policy").spec;
    const rule = { enabled: true, action: "accept", bidirectional: false, protocol: "tcp" };
    const sent = {
      name: "two",
      enabled: true,
      rules: [
        { ...rule, name: "ssh", sources: ["a"], destinations: ["b"] },
        { ...rule, name: "web", sources: ["b", "c"], destinations: ["a"] },
      ],
    };
    const stored = {
      ...sent,
      rules: [
        { ...sent.rules[0], id: "r1" },
        { ...sent.rules[1], id: "r2", sources: [] },
      ],
    };
    await reportStoredDifferences(policy, "p1", sent, stored, "create");
    expect(messages).toEqual([
      'privnet: Policy "two" (id p1): the server stored other values than the program sent ' +
        '(rules[1] ("web").sources: sent ["b","c"], stored nothing). The next preview will show this as a ' +
        "change; check the server's documentation for what it accepts.",
    ]);
    // Server-assigned rule ids and reordered id lists are not differences.
    messages.length = 0;
    await reportStoredDifferences(
      policy,
      "p1",
      sent,
      { ...sent, rules: [stored.rules[0], { ...sent.rules[1], sources: ["c", "b"] }] },
      "update",
    );
    expect(messages).toEqual([]);
  } finally {
    setWarningSink(undefined);
  }
});
