/**
 * The default provider's credentials and an Output lookup, with the real CLI (tests/e2e/programs/output-lookup):
 * - stack config wins over the environment: a wrong `PRIVNET_TOKEN` / `PRIVNET_API_URL` in the environment of
 *   the CLI (and so of the program and the provider) does not redirect the stack;
 * - `getGroupOutput({ name: <output> })`: in the first preview the name is unknown and so is the result (no
 *   error); after `up` it resolves to the group.
 */
import type { E2EServer } from "./project";
import {
  changesOf,
  copyProject,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
} from "./project";

describe("default provider credentials and Output lookups", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("provider-config");
    server = await startE2EServer();
    const project = await copyProject(
      ["tests/e2e/programs/output-lookup"],
      work,
      "tests/e2e/programs/output-lookup",
    );
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    stack.env.PRIVNET_TOKEN = "pnp_strayStrayStrayStrayStrayStrayStray000000";
    stack.env.PRIVNET_API_URL = "http://127.0.0.1:9";
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "preview: the lookup's argument is unknown, so is its result, and nothing fails",
    async () => {
      const preview = await stack.preview();
      expect(changesOf(preview)).toEqual([
        "create Group::team",
        "create pulumi:pulumi:Stack::privnet-output-lookup-dev",
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "up with a wrong token in the environment: the stack's config is used, and the lookup finds the group",
    async () => {
      await stack.up();
      const out = await stack.outputs();
      expect(out.foundId).toBe(out.teamId);
      expect(out.foundName).toBe("team");
      // Every request carried the stack's token: none was refused.
      expect(server.requests.filter((r) => r.status === 401)).toEqual([]);
      expect(changesOf(await stack.preview())).toEqual([]);
      await stack.destroy();
    },
    TEST_TIMEOUT_MS,
  );
});
