/**
 * A validation error fails `pulumi preview` in the provider's check, naming the property, before any request:
 * the server, fresh for this file, must not see a single request (not even a GET).
 *
 * A value the service accepts although a document or good sense says otherwise (docs/validation.md) is a
 * warning: `pulumi preview` prints it, naming the resource and the property, and succeeds; `pulumi up` creates
 * the objects and the next preview shows no change.
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

describe("values the service accepts are warnings at preview, not errors", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("lenient");
    server = await startE2EServer();
    const project = await copyProject(
      ["tests/e2e/programs/lenient-values"],
      work,
      "tests/e2e/programs/lenient-values",
    );
    stack = await PulumiStack.init({ project, work, name: "dev", server });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "preview warns of each, naming the property; up creates them; the next preview shows no change",
    async () => {
      const preview = await stack.preview();
      const warnings = (preview.diagnostics ?? [])
        .filter((d) => d.severity === "warning")
        .map((d) => d.message ?? "");
      const expected = [
        /SetupKey "one job": expiresIn: is 600, outside the documented range 86400 to 31536000 seconds/,
        /Group " All": name: starts or ends with white space/,
        /Route: network: has host bits set after \/16: the range 10\.40\.7\.1\/16 is 10\.40\.0\.0\/16/,
      ];
      for (const e of expected) expect(warnings.filter((w) => e.test(w))).toHaveLength(1);
      expect((preview.diagnostics ?? []).filter((d) => d.severity === "error")).toEqual([]);
      expect(changesOf(preview)).toEqual([
        "create Group::padded",
        "create Group::runners",
        "create Route::host-bits",
        "create SetupKey::one-job",
        "create pulumi:pulumi:Stack::privnet-lenient-values-dev",
      ]);

      await stack.up();
      expect(changesOf(await stack.preview())).toEqual([]);
      const created = server.requests.filter((r) => r.method === "POST" && r.route === "/api/routes");
      expect(created.map((r) => r.status)).toEqual([200]);
    },
    TEST_TIMEOUT_MS,
  );
});
