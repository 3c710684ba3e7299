/**
 * A TypeScript stack moves from the dynamic providers (`pulumi-privnet`'s classes) to the resource plugin
 * (`pulumi-privnet/plugin`'s) in place, with the real CLI against privnet-server (./dynamic-to-plugin.ts): the
 * preview with the plugin's classes changes nothing, the `up` that moves the stack sends no request that writes,
 * the objects keep their ids, then no change, no drift, later changes in place, destroy leaves the account as it was.
 */
import { countInventory } from "../../scripts/inventory";
import { expectMove, moveLife, type MoveLife } from "./dynamic-to-plugin";
import {
  makeWork,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  type E2EServer,
} from "./project";

describe("a TypeScript stack moves from the dynamic providers to the resource plugin in place", () => {
  let work = "";
  let server: E2EServer;
  let before: Record<string, number>;
  let life: MoveLife;
  let writes: string[] = [];

  beforeAll(async () => {
    work = makeWork("dynamic-to-plugin");
    server = await startE2EServer();
    before = countInventory(await server.inventory());
    life = await moveLife(
      work,
      server,
      "move",
      () => server.inventory(),
      async (up) => {
        const mark = server.requests.length;
        const result = await up();
        writes = server
          .since(mark)
          .filter((r) => r.method !== "GET")
          .map((r) => `${r.method} ${r.path}`);
        return result;
      },
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "the preview changes nothing, the up moves every resource with the same ids, then the plugin keeps the stack",
    () => expectMove(life),
    TEST_TIMEOUT_MS,
  );

  it(
    "the up that moves the stack sends no request that writes; destroy leaves the account as it was",
    async () => {
      expect(writes).toEqual([]);
      expect(countInventory(await server.inventory())).toEqual(before);
    },
    TEST_TIMEOUT_MS,
  );
});
