/**
 * A TypeScript stack moves from the dynamic providers to the resource plugin in place, against the acceptance
 * target: the same move and checks as the e2e tier (tests/e2e/dynamic-to-plugin.ts), on a shared account, every
 * name carrying a prefix of this run, and what the move made counted back to nothing at the end.
 */
import { randomBytes } from "node:crypto";
import { readInventory, type Inventory } from "../../scripts/inventory";
import { expectMove, moveLife, type MoveLife } from "../e2e/dynamic-to-plugin";
import { makeWork, removeWork, SETUP_TIMEOUT_MS, TEST_TIMEOUT_MS } from "../e2e/project";
import { CHILD_KINDS } from "../../components/build";
import { acceptance, countsWithoutPeers } from "./target";

const acc = acceptance();

afterAll(() => acc.client.close());

const missing = CHILD_KINDS.filter((k) => !acc.probe.served.includes(k));

if (missing.length) {
  test(`the target does not serve every kind the program makes (${missing.join(", ")})`, () => {
    expect(missing.length).toBeGreaterThan(0);
    acc.record({ check: "dynamic-to-plugin", kind: "all", status: "not served", detail: missing.join(", ") });
  });
} else {
  describe("a TypeScript stack moves from the dynamic providers to the resource plugin against the target", () => {
    let work = "";
    let before: Inventory;
    let life: MoveLife | undefined;
    let failure: unknown;
    const prefix = `acc${randomBytes(3).toString("hex")}mv`;

    beforeAll(async () => {
      work = makeWork("acceptance-dynamic-to-plugin");
      before = await readInventory(acc.client);
      try {
        life = await moveLife(work, { url: acc.url, token: acc.token }, prefix, () =>
          readInventory(acc.client),
        );
      } catch (err) {
        failure = err;
      }
    }, SETUP_TIMEOUT_MS);

    afterAll(() => removeWork(work));

    it(
      "the preview changes nothing, the up moves every resource with the same ids, then the plugin keeps the stack",
      () => {
        if (failure) throw failure;
        return acc.recorded("dynamic-to-plugin", "all", async () => {
          expectMove(life!);
          return "moved in place";
        });
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "destroy leaves nothing on the target",
      async () => {
        if (failure) throw failure;
        expect(countsWithoutPeers(await readInventory(acc.client))).toEqual(countsWithoutPeers(before));
      },
      TEST_TIMEOUT_MS,
    );
  });
}
