/**
 * Every resource kind through the provider's whole lifecycle against the acceptance target, with prerequisites
 * made through the API only. Per kind: check; create; read equals what create returned; a second preview shows
 * no change (diff of the created outputs with the same inputs, id lists reordered too); refresh shows no drift
 * (diff of what read reports as inputs); update in place; replace where the kind needs it (the new object is
 * made and read back, the old one deleted); delete; read gone. No warning may be raised on the way: a warning
 * means the server stored something other than what was sent.
 *
 * Kinds the target does not serve are reported as such by name, with the 404 that shows it.
 */
import { setWarningSink } from "../../provider/diagnostics";
import { PROVIDERS } from "../../provider/registry";
import { configureAll, fixtures, PEERS_NEEDED, providerFor, type KindFixture } from "../support/provider";
import { runLifecycle } from "../support/lifecycle";
import { acceptance } from "./target";

jest.setTimeout(120_000);

const acc = acceptance();
const budget = acc.peerBudget("front");
let fx: Record<string, () => Promise<KindFixture>>;
const warnings: string[] = [];

beforeAll(async () => {
  await configureAll(acc);
  fx = await fixtures(acc.fixtureTarget("front"));
  setWarningSink((m) => warnings.push(m));
});
afterAll(async () => {
  setWarningSink(undefined);
  await acc.client.close();
});

async function lifecycle(kind: string): Promise<void> {
  warnings.length = 0;
  await runLifecycle(providerFor(kind), await fx[kind]!());
  // A warning means the server stored something other than what was sent.
  expect(warnings).toEqual([]);
}

describe.each(PROVIDERS.map((p) => p.spec.name))("%s", (kind) => {
  const notServed = acc.probe.notServed.find((n) => n.kind === kind);
  const needed = PEERS_NEEDED[kind] ?? 0;
  if (notServed) {
    test(`not served by the target (${notServed.evidence})`, async () => {
      const res = await fetch(`${acc.url}${notServed.path}`, {
        headers: { Authorization: `Token ${acc.token}` },
      });
      expect(res.status).toBe(404);
      acc.record({ check: "lifecycle", kind, status: "not served", detail: notServed.evidence });
    });
  } else if (needed > budget) {
    test(`needs ${needed} enrolled peers; the target has ${budget} for this test`, () => {
      expect(budget).toBeLessThan(needed);
      acc.record({
        check: "lifecycle",
        kind,
        status: "too few enrolled peers",
        detail: `needs ${needed}, has ${budget}`,
      });
    });
  } else {
    test("create, read, preview, refresh, update, replace, delete", async () => {
      try {
        await lifecycle(kind);
        acc.record({ check: "lifecycle", kind, status: "passed" });
      } catch (err) {
        acc.record({ check: "lifecycle", kind, status: "failed", detail: String(err).split("\n")[0] });
        throw err;
      }
    });
  }
});
