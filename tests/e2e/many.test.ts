/**
 * A stack of 200 resources over three kinds (tests/e2e/programs/many) under the real CLI, against a server that
 * records every request: a refresh reads them with one list per kind and pass instead of a GET each, shows no
 * drift, and still sees changes made out of band; with `privnet:batchReads false` it reads by id again. A small
 * stack under a tight client-side rate limit shows the note that the provider is pacing its requests.
 */
import type { RequestLogEntry } from "../../server/context";
import type { E2EServer } from "./project";
import {
  changesOf,
  copyProject,
  driftOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  type Project,
} from "./project";

const COUNT = 200;
const LISTS = ["GET /api/groups", "GET /api/networks", "GET /api/setup-keys"];

const lines = (entries: RequestLogEntry[]) => entries.map((e) => `${e.method} ${e.route}`);
/** How many times each line occurs. */
function tally(items: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[i] = (out[i] ?? 0) + 1;
  return out;
}

describe(`a stack of ${COUNT} resources`, () => {
  let work = "";
  let server: E2EServer;
  let project: Project;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("many");
    server = await startE2EServer();
    project = await copyProject(["tests/e2e/programs/many"], work, "tests/e2e/programs/many");
    stack = await PulumiStack.init({ project, work, name: "many", server });
    await stack.config("count", String(COUNT));
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`many e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "up creates them with one request each",
    async () => {
      const mark = server.requests.length;
      const r = await stack.up();
      expect(r.resourceChanges.create).toBe(COUNT + 1); // and the stack
      expect(server.since(mark)).toHaveLength(COUNT);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a plain refresh (its preview and the refresh) makes at most 20 requests, lists only; no drift after it",
    async () => {
      const mark = server.requests.length;
      await stack.cli(["refresh"], { yes: true });
      const seen = lines(server.since(mark));
      expect(seen.length).toBeLessThanOrEqual(20);
      // One list per kind per pass (two passes), at most two each by design.
      for (const [line, n] of Object.entries(tally(seen))) {
        expect(LISTS).toContain(line);
        expect(n).toBeGreaterThanOrEqual(2);
        expect(n).toBeLessThanOrEqual(4);
      }
      expect(Object.keys(tally(seen)).sort()).toEqual([...LISTS].sort());

      const previewMark = server.requests.length;
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      expect(lines(server.since(previewMark)).sort()).toEqual([...LISTS].sort());
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "changes made out of band still show: a renamed group, a deleted network",
    async () => {
      const state = await stack.stateResources();
      const idOf = (short: string) => state.find((r) => r.urn.endsWith(`::${short}`))?.id as string;
      await server.client.call("updateGroup", {
        params: { groupId: idOf("g3") },
        body: { name: "renamed-elsewhere" },
      });
      await server.client.call("deleteNetwork", { params: { networkId: idOf("n1") } });
      const mark = server.requests.length;
      const preview = await stack.refreshPreview();
      // The stack and the 198 others are the same; the renamed group is an update, the network is gone.
      expect(preview.changeSummary).toEqual({ same: COUNT - 1, update: 1, delete: 1 });
      expect(driftOf(preview)).toEqual(["(1 more in the change summary: delete 1, update 1)", "Network::n1"]);
      // The deleted network is missing from the list: it was read by id (404) before counting as gone.
      expect(tally(lines(server.since(mark)))).toEqual({
        "GET /api/groups": 1,
        "GET /api/networks": 1,
        "GET /api/setup-keys": 1,
        "GET /api/networks/{networkId}": 1,
      });
      // Put things back: the refresh takes the server's view, the update makes them as the program says.
      await stack.refresh();
      await stack.up();
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "with privnet:batchReads false a refresh reads every resource by id",
    async () => {
      await stack.config("privnet:batchReads", "false");
      // A refresh runs with the provider settings the last update stored (the program does not run): an update
      // with nothing to change stores the new one.
      expect((await stack.up()).resourceChanges).toEqual({ same: COUNT + 1 });
      const mark = server.requests.length;
      await stack.refresh();
      expect(tally(lines(server.since(mark)))).toEqual({
        "GET /api/groups/{groupId}": COUNT / 2,
        "GET /api/networks/{networkId}": COUNT / 4,
        "GET /api/setup-keys/{keyId}": COUNT / 4,
      });
      await stack.configRemove("privnet:batchReads");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy deletes them with one request each",
    async () => {
      const mark = server.requests.length;
      await stack.destroy();
      expect(server.since(mark)).toHaveLength(COUNT);
      expect(server.since(mark).every((e) => e.method === "DELETE" && e.status === 200)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "under a tight rate limit the provider says it is pacing its requests",
    async () => {
      const small = await PulumiStack.init({ project, work, name: "paced", server });
      await small.config("count", "16");
      await small.config("prefix", "paced");
      // 2 per second, no burst: the engine's parallel steps wait for tokens for several seconds.
      await small.config("privnet:rateLimit", "120:1");
      const r = await small.cli(["up", "--skip-preview"], { yes: true });
      const out = `${r.stdout}\n${r.stderr}`;
      expect(out).toMatch(
        /privnet: pacing requests to the API rate limit \(120 requests per minute, burst 1\): waiting for \d+ s so far/,
      );
      await small.configRemove("privnet:rateLimit");
      await small.destroy();
    },
    TEST_TIMEOUT_MS,
  );
});
