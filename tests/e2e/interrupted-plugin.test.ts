/**
 * Interrupted runs through the resource plugin, under the real CLI on privnet-server: a YAML program, a Java
 * program (a Maven project under the real Java language host) and a Python Automation API inline program, each
 * killed with SIGKILL mid-`pulumi up` (the CLI or the program, the language host, the plugin), then `pulumi cancel` + `pulumi up` and `pulumi destroy` (tests/e2e/interrupted-plugin.ts).
 * The plugin knows no hidden input: the URN of each request names the stack whose state it reads.
 */
import {
  figuresLine,
  interruptedRun,
  javaRunner,
  newPrefix,
  pythonRunner,
  yamlRunner,
  type Runner,
  type Sizes,
} from "./interrupted-plugin";
import {
  makeWork,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  type E2EServer,
} from "./project";

/** Large enough that the kill lands mid-run, small enough to keep the tier's time. */
const SIZES: Sizes = { groups: 24, policies: 24 };

type MakeRunner = (
  work: string,
  prefix: string,
  sizes: Sizes,
  server: { url: string; token: string },
) => Promise<Runner>;

describe.each([
  ["YAML", "y", yamlRunner],
  ["Java", "j", javaRunner],
  ["Python", "p", pythonRunner],
] as [string, string, MakeRunner][])(
  "a %s program through the plugin, killed mid-up",
  (label, short, makeRunner) => {
    let work = "";
    let server: E2EServer;

    beforeAll(async () => {
      work = makeWork(`interrupted-${short}`);
      server = await startE2EServer();
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      await server?.close();
      removeWork(work);
    });

    it(
      "pulumi cancel + pulumi up take over what the killed run made: every object once, no 409, destroy leaves nothing",
      async () => {
        const prefix = newPrefix(short);
        const figures = await interruptedRun(server, prefix, SIZES, (s) =>
          makeRunner(work, prefix, SIZES, s),
        );
        process.stdout.write(`${figuresLine(`interrupted ${label} (privnet-server)`, figures)}\n`);
        expect(figures.takenOver).toBeGreaterThanOrEqual(5);
        expect(figures.duplicates).toBe(0);
        expect(figures.conflicts).toBe(0);
        expect(figures.orphansAfterDestroy).toBe(0);
        // Not a single 409 reached the recovery, on the server's own log either.
        expect(server.requests.filter((e) => e.status === 409)).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  },
);
