/**
 * A validation error fails `pulumi preview` in the provider's check, naming the property, before any request:
 * the server, fresh for this file, must not see a single request (not even a GET).
 */
import type { E2EServer } from "./project";
import {
  copyProject,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
} from "./project";

describe("validation errors stop pulumi preview before the API", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("validation");
    server = await startE2EServer();
    const project = await copyProject(
      ["tests/e2e/programs/invalid-route"],
      work,
      "tests/e2e/programs/invalid-route",
    );
    stack = await PulumiStack.init({ project, work, name: "dev", server });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "a route with metric 0 fails preview, names `metric`, and makes no API call",
    async () => {
      const r = await stack.previewFailing();
      const output = `${r.stdout}\n${r.stderr}`;
      // The check failure names the resource, the property and the rule:
      // "Route resource 'bad-metric': property metric value {0} has a problem: metric: must be between 1 and 9999"
      expect(output).toContain(
        "Route resource 'bad-metric': property metric value {0} has a problem: metric: must be between 1 and 9999",
      );
      // Nothing else of the program is faulted.
      const faulted = new Set(
        [...output.matchAll(/resource '([^']+)': property (\w+) value/g)].map((m) => m.slice(1).join(".")),
      );
      expect([...faulted]).toEqual(["bad-metric.metric"]);
      expect(server.requests).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
