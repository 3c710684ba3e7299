/**
 * An interrupted run through the resource plugin against the acceptance target: the YAML program of
 * tests/e2e/interrupted-plugin.ts killed with SIGKILL mid-`pulumi up`, then `pulumi cancel` + `pulumi up` take over
 * what it made (every object once, no 409) and `pulumi destroy` leaves nothing.
 */
import { figuresLine, interruptedRun, newPrefix, yamlRunner, type Sizes } from "../e2e/interrupted-plugin";
import { makeWork, removeWork, TEST_TIMEOUT_MS } from "../e2e/project";
import { acceptance } from "./target";

const acc = acceptance();
const SIZES: Sizes = { groups: 24, policies: 24 };

afterAll(() => acc.client.close());

describe("a YAML program through the plugin, killed mid-up, recovered", () => {
  let work = "";

  afterAll(() => removeWork(work));

  it(
    "pulumi cancel + pulumi up: every object once, no 409; destroy leaves nothing",
    async () => {
      const kinds = ["Group", "Policy"];
      if (!kinds.every((k) => acc.probe.served.includes(k))) {
        for (const kind of kinds.filter((k) => !acc.probe.served.includes(k)))
          acc.record({ check: "interrupted run", kind, status: "not served" });
        return;
      }
      work = makeWork("acceptance-interrupted");
      const prefix = newPrefix("a");
      const figures = await interruptedRun(acc, prefix, SIZES, (s) => yamlRunner(work, prefix, SIZES, s));
      const line = figuresLine(`interrupted YAML (${acc.probe.label})`, figures);
      process.stdout.write(`${line}\n`);
      expect(figures.duplicates).toBe(0);
      expect(figures.conflicts).toBe(0);
      expect(figures.orphansAfterDestroy).toBe(0);
      acc.record({ check: "interrupted run", kind: "Group+Policy (YAML)", status: "passed", detail: line });
    },
    TEST_TIMEOUT_MS,
  );
});
