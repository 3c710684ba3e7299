/**
 * A Python program with the generated SDK (sdk/python, pip-installed into a venv with `pulumi` at the engine's
 * version) through the resource plugin, under the real CLI as an Automation API inline program (it needs no Python
 * language host). The program (tests/e2e/programs/python-inline/network.py) goes through a whole life on one
 * stack: up, no changes, no drift, a rename that is one update, destroy that leaves nothing; no secret in plain
 * text in the state. The plugin is found on PATH.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { countInventory } from "../../scripts/inventory";
import { engineEnv, ensureEngine, repoRoot } from "./engine";
import { pythonWithSdk, run } from "./python";
import {
  makeWork,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  type E2EServer,
} from "./project";

interface Step {
  step: string;
  changes?: Record<string, number>;
  outputs?: Record<string, { secret: boolean; value: unknown }>;
  teamGroupId?: string;
}

describe("Python inline program with the generated SDK, through the resource plugin", () => {
  let work = "";
  let server: E2EServer;
  let steps: Record<string, Step> = {};
  let before: Record<string, number>;

  beforeAll(async () => {
    work = makeWork("python");
    server = await startE2EServer();
    before = countInventory(await server.inventory());
    const python = await pythonWithSdk(work);
    const project = path.join(work, "project");
    fs.mkdirSync(project);
    const env = engineEnv({
      binDir: await ensureEngine(),
      backendDir: path.join(work, "state"),
      pulumiHome: path.join(work, "pulumi-home"),
      passphrase: "python-passphrase",
      extra: {
        // The plugin from this checkout, found on PATH as `pulumi-resource-privnet`.
        PATH: `${path.join(repoRoot, "bin")}:${engineEnv({ binDir: await ensureEngine() }).PATH}`,
        PRIVNET_API_URL: undefined,
        PRIVNET_TOKEN: undefined,
        PRIVNET_TEST_URL: server.url,
        PRIVNET_TEST_TOKEN: server.token,
        PRIVNET_TEST_WORK: project,
      },
    });
    const out = await run(python, [path.join(__dirname, "programs", "python-inline", "network.py")], env);
    steps = Object.fromEntries(
      out
        .split("\n")
        .filter((l) => l.startsWith("STEP "))
        .map((l) => JSON.parse(l.slice(5)) as Step)
        .map((s) => [s.step, s]),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "up creates the objects; the setup key is a secret output with a real value; a lookup answers",
    () => {
      const up = steps.up!;
      expect(up.changes).toEqual({ create: 7 }); // 6 resources and the stack
      expect(up.outputs!.setupKey!.secret).toBe(true);
      expect(String(up.outputs!.setupKey!.value)).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-/);
      expect(typeof up.outputs!.everyoneGroupId!.value).toBe("string");
      expect(up.outputs!.teamGroupId!.secret).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the next preview shows no changes, and refresh shows no drift",
    () => {
      expect(steps.preview!.changes).toEqual({ same: 7 });
      expect(steps.refresh!.changes).toEqual({ same: 7 });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a rename is one in-place update, then nothing changes",
    async () => {
      expect(steps["rename-preview"]!.changes).toEqual({ same: 6, update: 1 });
      expect(steps.rename!.changes).toEqual({ same: 6, update: 1 });
      expect(steps["after-rename"]!.changes).toEqual({ same: 7 });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no secret is in plain text in the backend (every checkpoint it kept)",
    () => {
      const files = readAllFiles(path.join(work, "state"));
      // The backend keeps the checkpoints of every update: the setup key was in state between up and destroy.
      expect(files.some(([, text]) => text.includes("privnet:index:SetupKey"))).toBe(true);
      const key = String(steps.up!.outputs!.setupKey!.value);
      for (const [file, text] of files) {
        expect({ file, key: text.includes(key), token: text.includes(server.token) }).toEqual({
          file,
          key: false,
          token: false,
        });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy removes every object the program made",
    async () => {
      expect(steps.destroy!.changes).toEqual({ delete: 7 });
      expect(countInventory(await server.inventory())).toEqual(before);
    },
    TEST_TIMEOUT_MS,
  );
});
