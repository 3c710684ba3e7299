/**
 * No kind can leave a dangling group id. For every resource kind, an object is created from the kind's fixture;
 * every group the fixture made that a stored document still names (any kind but group) must be one the server
 * refuses to delete. The server knows where documents hold group ids from the `groupUses` its handler modules
 * declare in their `kinds`; a kind that holds group ids without declaring it is named here.
 */
import type { Kind } from "../../server/store";
import { PROVIDERS } from "../../provider/registry";
import {
  configureAll,
  fixtures,
  localTarget,
  providerFor,
  type FixtureTarget,
  type KindFixture,
} from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let fx: Record<string, () => Promise<KindFixture>>;
/** Groups made by the fixture being built. */
let made: string[] = [];
/** Stored kinds seen holding a fixture's group. */
const holding = new Set<Kind>();

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  await configureAll(s);
  const local = localTarget(s);
  const target: FixtureTarget = {
    ...local,
    call: async (operationId, args) => {
      const body = await local.call(operationId, args);
      if (operationId === "createGroup") made.push(body.id as string);
      return body;
    },
  };
  fx = await fixtures(target);
});
afterAll(() => s?.close());

/** The stored documents (but groups) that name a group, as `kind id`. */
function holdersOf(groupId: string): { kind: Kind; id: string }[] {
  const { store, kinds } = s.server.state;
  return [...kinds.keys()]
    .filter((k) => k !== "group")
    .flatMap((kind) =>
      store
        .all(kind)
        .filter((d) => JSON.stringify(d).includes(JSON.stringify(groupId)))
        .map((d) => ({ kind, id: d.id })),
    );
}

describe.each(PROVIDERS.map((p) => p.spec.name))("%s", (name) => {
  test("a group its object names cannot be deleted", async () => {
    made = [];
    const f = await fx[name]!();
    await providerFor(name).create(f.create);
    const problems: string[] = [];
    for (const g of made) {
      const holders = holdersOf(g);
      if (holders.length === 0) continue;
      for (const h of holders) {
        holding.add(h.kind);
        if (!s.server.state.kinds.get(h.kind)?.groupUses)
          problems.push(
            `${h.kind} ${h.id} holds group ${g}, but kind ${h.kind} declares no groupUses ` +
              "(in the `kinds` of its server handler module)",
          );
      }
      const res = await s.call("deleteGroup", { params: { groupId: g } });
      if (res.status !== 400)
        problems.push(
          `group ${g}, held by ${holders.map((h) => `${h.kind} ${h.id}`).join(", ")}, was deleted (${res.status})`,
        );
    }
    expect(problems).toEqual([]);
  });
});

// Runs after the kinds above (jest keeps the order of the file).
test("every kind that declares groupUses was seen holding a group (the fixtures cover them all)", () => {
  const declared = [...s.server.state.kinds].filter(([, k]) => k.groupUses).map(([kind]) => kind);
  expect(declared.filter((k) => !holding.has(k))).toEqual([]);
});
