/**
 * Every resource kind through the provider's whole lifecycle against the acceptance target, with prerequisites
 * made through the API only. Per kind: check; create; read equals what create returned; a second preview shows
 * no change (diff of the created outputs with the same inputs, id lists reordered too); refresh shows no drift
 * (diff of what read reports as inputs); update in place; replace where the kind needs it (the new object is
 * made and read back, the old one deleted); delete; read gone. No warning may be raised on the way: a warning
 * means the server stored something other than what was sent.
 *
 * Kinds the target does not serve are reported as such by name, with the 404 that shows it.
 *
 * Each kind runs twice: through the provider as the dynamic-provider host calls it (in this process), and through
 * the resource plugin (the real launcher over gRPC, configured as stack config configures it).
 */
import { setWarningSink } from "../../provider/diagnostics";
import { PROVIDERS } from "../../provider/registry";
import {
  configureAll,
  fixtures,
  NEEDS_PROXY_CLUSTER,
  PEERS_NEEDED,
  providerFor,
  removePrerequisites,
  type FixtureTarget,
  type KindFixture,
} from "../support/provider";
import type { Host } from "../support/host";
import { runLifecycle, type LifecycleDriver } from "../support/lifecycle";
import { pluginDriver, startPlugin } from "../support/plugin";
import { acceptance, mspOwner } from "./target";

jest.setTimeout(120_000);

const acc = acceptance();
const budget = acc.peerBudget("front");
let fx: Record<string, () => Promise<KindFixture>>;
const warnings: string[] = [];
let plugin: Host;
let target: FixtureTarget | undefined;

beforeAll(async () => {
  await configureAll(acc);
  plugin = await startPlugin();
  await plugin.configure({}, { "privnet:apiUrl": acc.url, "privnet:token": acc.token });
  target = acc.fixtureTarget("front");
  fx = await fixtures(target);
  setWarningSink((m) => warnings.push(m));
});
afterAll(async () => {
  await plugin?.stop();
  setWarningSink(undefined);
  // The groups, networks and users the fixtures needed: a shared target keeps nothing of this run.
  if (target)
    for (const left of await removePrerequisites(target)) process.stdout.write(`left behind: ${left}\n`);
  await acc.client.close();
});

/** The warning a deprecated kind's check gives (it names the kind to use): expected, the only one. */
const deprecation = (kind: string) =>
  new RegExp(`^(warning: )?privnet: ${kind}: ${kind} is deprecated: use `);

/** Warnings but the expected deprecation of `kind`. */
const unexpected = (kind: string, lines: string[]) => lines.filter((w) => !deprecation(kind).test(w));

async function lifecycle(driver: LifecycleDriver, kind: string): Promise<void> {
  warnings.length = 0;
  await runLifecycle(driver, await fx[kind]!());
  // A warning means the server stored something other than what was sent (the plugin's go to its stderr).
  expect(unexpected(kind, warnings)).toEqual([]);
}

const drivers: [string, string, (kind: string) => LifecycleDriver][] = [
  ["lifecycle", "provider", providerFor],
  ["plugin lifecycle", "resource plugin", (kind) => pluginDriver(plugin, kind)],
];

describe.each(PROVIDERS.map((p) => p.spec.name))("%s", (kind) => {
  const notServed = acc.probe.notServed.find((n) => n.kind === kind);
  const needed = PEERS_NEEDED[kind] ?? 0;
  if (notServed) {
    test(`not served by the target (${notServed.evidence})`, async () => {
      const res = await fetch(`${acc.url}${notServed.path}`, {
        headers: { Authorization: `Token ${acc.token}` },
      });
      expect(res.status).toBe(404);
      acc.record({ check: "lifecycle", kind, status: "not served", detail: notServed.evidence });
    });
  } else if (!acc.own && NEEDS_PROXY_CLUSTER.includes(kind) && acc.probe.proxyClusters.length === 0) {
    test("needs an online reverse-proxy cluster; the target has none", () => {
      expect(acc.probe.proxyClusters).toEqual([]);
      acc.record({
        check: "lifecycle",
        kind,
        status: "no proxy cluster",
        detail: "no proxy is registered (GET /api/reverse-proxies/clusters lists no online cluster)",
      });
    });
  } else if (kind === "MspTenant" && !mspOwner(acc.own)) {
    test("not run: no PRIVNET_ACCEPTANCE_MSP_OWNER to hand the tenant to (the API cannot delete a tenant)", () => {
      acc.record({ check: "lifecycle", kind, status: "not run", detail: "no PRIVNET_ACCEPTANCE_MSP_OWNER" });
    });
  } else if (needed > budget) {
    test(`needs ${needed} enrolled peers; the target has ${budget} for this test`, () => {
      expect(budget).toBeLessThan(needed);
      acc.record({
        check: "lifecycle",
        kind,
        status: "too few enrolled peers",
        detail: `needs ${needed}, has ${budget}`,
      });
    });
  } else {
    test.each(drivers)(
      "%s: create, read, preview, refresh, update, replace, delete (%s)",
      (check, _, driver) =>
        acc.recorded(check, kind, async () => {
          const mark = plugin.stderr().length;
          await lifecycle(driver(kind), kind);
          if (check !== "lifecycle") {
            const lines = plugin.stderr().slice(mark).split("\n");
            expect(
              unexpected(
                kind,
                lines.filter((l) => l.startsWith("warning: ")),
              ),
            ).toEqual([]);
          }
        }),
    );
  }
});
