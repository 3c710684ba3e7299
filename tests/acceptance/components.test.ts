/**
 * The components (NetworkBundle, DnsZoneBundle, Segment) under the real CLI against the acceptance target, in
 * YAML and TypeScript through the resource plugin's Construct, Python and Go with their generated SDKs (Automation
 * API inline programs), Java with its generated SDK (a Maven project under the real Java language host), and
 * TypeScript on the dynamic providers: the same life and the same checks as the e2e tier
 * (tests/e2e/components.ts), on a shared account, so every name carries a prefix of this run and what the life made
 * is counted back to nothing at the end.
 */
import { randomBytes } from "node:crypto";
import { INVENTORY_KINDS, readInventory, type Inventory } from "../../scripts/inventory";
import { expectLife, expectNoPlaintext, javaLife, nodeLife, yamlLife, type Life } from "../e2e/components";
import { runGoComponents, runPythonProgram } from "../e2e/inline";
import { makeWork, removeWork, SETUP_TIMEOUT_MS, TEST_TIMEOUT_MS } from "../e2e/project";
import { CHILD_KINDS } from "../../components/build";
import { acceptance, countsWithoutPeers } from "./target";

const acc = acceptance();
const server = { url: acc.url, token: acc.token };

type Run = (work: string, prefix: string) => Promise<Life>;

const hostings: [string, string, Run][] = [
  ["YAML through the plugin", "yaml", async (work, prefix) => (await yamlLife(work, server, prefix)).life],
  [
    "Python (Automation API inline) through the plugin",
    "py",
    (work, prefix) => runPythonProgram("components.py", work, server, { PRIVNET_TEST_PREFIX: prefix }),
  ],
  [
    "Go (Automation API inline) through the plugin",
    "go",
    (work, prefix) => runGoComponents(work, server, { PRIVNET_TEST_PREFIX: prefix }),
  ],
  ["Java through the plugin", "java", async (work, prefix) => (await javaLife(work, server, prefix)).life],
  [
    "TypeScript through the plugin (pulumi-privnet/plugin)",
    "tsp",
    async (work, prefix) => (await nodeLife(work, server, "plugin", prefix)).life,
  ],
  [
    "TypeScript on the dynamic providers (pulumi-privnet)",
    "tsd",
    async (work, prefix) => (await nodeLife(work, server, "dynamic", prefix)).life,
  ],
];

afterAll(() => acc.client.close());

const missing = CHILD_KINDS.filter((k) => !acc.probe.served.includes(k));

if (missing.length) {
  test(`the target does not serve every kind the components make (${missing.join(", ")})`, () => {
    expect(missing.length).toBeGreaterThan(0);
    acc.record({ check: "components", kind: "all", status: "not served", detail: missing.join(", ") });
  });
} else {
  describe.each(hostings)("the components' life against the target: %s", (name, short, runLife) => {
    let work = "";
    let life: Life = {};
    let before: Inventory;
    let failure: unknown;
    const prefix = `acc${randomBytes(3).toString("hex")}${short}`;
    let seconds = 0;

    beforeAll(async () => {
      work = makeWork(`acceptance-components-${short}`);
      before = await readInventory(acc.client);
      const started = Date.now();
      try {
        life = await runLife(work, prefix);
        seconds = (Date.now() - started) / 1000;
      } catch (err) {
        failure = err;
      }
    }, SETUP_TIMEOUT_MS);

    afterAll(() => removeWork(work));

    it(
      "converges: children under their components, in place, one child per entry, bad input named",
      () => {
        if (failure) throw failure;
        return acc.recorded("components", name, async () => {
          expectLife(life, prefix);
          return `life in ${seconds.toFixed(0)} s`;
        });
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "the setup key is never in plain text in the state; destroy leaves nothing on the target",
      async () => {
        if (failure) throw failure;
        expectNoPlaintext(work, String(life.up!.outputs!.setupKey!.value));
        const after = await readInventory(acc.client);
        const left = INVENTORY_KINDS.flatMap((k) => after[k].filter((o) => o.name.includes(prefix)));
        expect(left).toEqual([]);
        expect(countsWithoutPeers(after)).toEqual(countsWithoutPeers(before));
      },
      TEST_TIMEOUT_MS,
    );
  });
}
