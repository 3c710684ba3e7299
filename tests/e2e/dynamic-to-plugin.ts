/**
 * A TypeScript stack made with `pulumi-privnet`'s classes (the dynamic providers) moved to `pulumi-privnet/plugin`'s
 * classes (the resource plugin), with the real CLI, and one set of checks: the e2e tier runs it against
 * privnet-server (tests/e2e/dynamic-to-plugin.test.ts), the acceptance tier against its target
 * (tests/acceptance/dynamic-to-plugin.test.ts).
 *
 * The move changes only the program's classes (the stack's config `hosting`) and names the plugin in Pulumi.yaml. The plugin's classes
 * carry the dynamic types as aliases, so the engine takes each resource as the same one under the new provider.
 * The program is the components' one (tests/e2e/programs/components): two groups, a Segment (a group, a setup key
 * whose key is secret, policies), a NetworkBundle and a DnsZoneBundle, so the children components make move too.
 */
import { INVENTORY_KINDS, type Inventory } from "../../scripts/inventory";
import { expectNoPlaintext, nodeComponentsStack, scenario } from "./components";
import { changesOf, driftOf, type PulumiStack } from "./project";

/** What a move showed, step by step. */
export interface MoveLife {
  /** The resource types after the first `up`, on the dynamic providers. */
  typesBefore: string[];
  /** The setup key's value (secret output) after the first `up`, and after the move. */
  setupKey: string;
  setupKeyAfter: string;
  setupKeyShownAfter: unknown;
  /** The changes of the preview with the plugin's classes, and the kinds of its summary with a count. */
  preview: string[];
  previewSummary: string[];
  /** The changes of the `up` that moved the stack. */
  upChanges: string[];
  /** The ids of the run's objects on the server, by kind, before and after the move. */
  idsBefore: Record<string, string[]>;
  idsAfter: Record<string, string[]>;
  /** The resource types after the move. */
  typesAfter: string[];
  /** Then: a preview, the drift of a refresh, a preview after the refresh. */
  afterPreview: string[];
  drift: string[];
  afterRefresh: string[];
  /** Each later stage of the scenario: the up's replaces, and the preview after it. */
  stages: { stage: string; replaced: string[]; after: string[] }[];
  /** The run's objects left on the server after destroy. */
  left: string[];
}

/** The types of the stack's resources, from its exported state. */
async function typesOf(stack: PulumiStack): Promise<string[]> {
  const state = JSON.parse(await stack.exportText()) as {
    deployment: { resources?: { type: string }[] };
  };
  return (state.deployment.resources ?? []).map((r) => r.type);
}

/** The ids of the objects whose name carries `prefix`, by kind (an id tells a moved object from one made again). */
function idsOf(inv: Inventory, prefix: string): Record<string, string[]> {
  return Object.fromEntries(
    INVENTORY_KINDS.map((k) => [
      k,
      inv[k]
        .filter((o) => o.name.includes(prefix))
        .map((o) => o.id)
        .sort(),
    ]),
  );
}

/**
 * The move, on a new stack in `work` against `server`, every name carrying `prefix`; `inventory` reads the server.
 * `during` wraps the moving `up` (the e2e tier counts the requests it makes). The stack is destroyed at the end,
 * and on a failure.
 */
export async function moveLife(
  work: string,
  server: { url: string; token: string },
  prefix: string,
  inventory: () => Promise<Inventory>,
  during: <T>(up: () => Promise<T>) => Promise<T> = (up) => up(),
): Promise<MoveLife> {
  const stages = scenario();
  // The plugin is named from the start: a project naming a plugin it does not use yet is unchanged by it.
  const stack = await nodeComponentsStack(work, server, "move", true);
  try {
    await stack.config("hosting", "dynamic");
    await stack.config("prefix", prefix);
    await stack.config("components", JSON.stringify(stages[0]!.components));
    await stack.up();
    const typesBefore = await typesOf(stack);
    const setupKey = (await stack.outputs(true)).setupKey as string;
    const idsBefore = idsOf(await inventory(), prefix);

    await stack.config("hosting", "plugin");
    const p = await stack.preview();
    const preview = changesOf(p);
    const previewSummary = Object.entries(p.changeSummary ?? {})
      .filter(([, n]) => n > 0)
      .map(([k]) => k);
    const up = await during(() => stack.up());
    const idsAfter = idsOf(await inventory(), prefix);
    const typesAfter = await typesOf(stack);
    const setupKeyShownAfter = (await stack.outputs()).setupKey;
    const setupKeyAfter = (await stack.outputs(true)).setupKey as string;

    const afterPreview = changesOf(await stack.preview());
    const drift = driftOf(await stack.refreshPreview());
    await stack.refresh();
    const afterRefresh = changesOf(await stack.preview());
    const later: MoveLife["stages"] = [];
    for (const s of stages.slice(1)) {
      await stack.config("components", JSON.stringify(s.components));
      const u = await stack.up();
      later.push({
        stage: s.stage,
        replaced: u.changes.filter((c) => c.startsWith("replace") || c.includes("pulumi-nodejs")),
        after: changesOf(await stack.preview()),
      });
    }
    expectNoPlaintext(work, setupKey);
    await stack.destroy();
    const inv = await inventory();
    const left = INVENTORY_KINDS.flatMap((k) =>
      inv[k].filter((o) => o.name.includes(prefix)).map((o) => o.name),
    );
    return {
      typesBefore,
      setupKey,
      setupKeyAfter,
      setupKeyShownAfter,
      preview,
      previewSummary,
      upChanges: up.changes,
      idsBefore,
      idsAfter,
      typesAfter,
      afterPreview,
      drift,
      afterRefresh,
      stages: later,
      left,
    };
  } catch (err) {
    // Leave nothing behind on a shared server (the acceptance target): destroy reads the state, not the program.
    await stack.destroy().catch(() => undefined);
    throw err;
  }
}

/** The checks of a move: nothing changed by it, the same objects, then the plugin keeps the stack. */
export function expectMove(life: MoveLife): void {
  // Made on the dynamic providers.
  expect(life.typesBefore).toContain("pulumi-nodejs:dynamic/privnet:Group");
  expect(life.typesBefore).toContain("pulumi-nodejs:dynamic/privnet:SetupKey");
  expect(life.typesBefore).toContain("pulumi-nodejs:dynamic/privnet:DnsRecord");
  expect(life.setupKey).toMatch(/^[0-9A-F]{8}-/i);
  // The preview with the plugin's classes: every resource the same one.
  expect(life.preview).toEqual([]);
  expect(life.previewSummary).toEqual(["same"]);
  // The up: no step, the same objects with the same ids, every resource on the plugin's provider.
  expect(life.upChanges).toEqual([]);
  expect(Object.values(life.idsBefore).flat().length).toBeGreaterThan(10);
  expect(life.idsAfter).toEqual(life.idsBefore);
  expect(
    life.typesAfter.filter((t) => t.startsWith("pulumi-nodejs:") || t === "pulumi:providers:pulumi-nodejs"),
  ).toEqual([]);
  for (const t of [
    "privnet:index:Group",
    "privnet:index:SetupKey",
    "privnet:index:DnsRecord",
    "pulumi:providers:privnet",
  ])
    expect(life.typesAfter).toContain(t);
  expect(life.setupKeyShownAfter).toBe("[secret]");
  expect(life.setupKeyAfter).toBe(life.setupKey);
  // Then the plugin keeps the stack.
  expect(life.afterPreview).toEqual([]);
  expect(life.drift).toEqual([]);
  expect(life.afterRefresh).toEqual([]);
  expect(life.stages.length).toBeGreaterThan(0);
  for (const s of life.stages)
    expect({ stage: s.stage, replaced: s.replaced, after: s.after }).toEqual({
      stage: s.stage,
      replaced: [],
      after: [],
    });
  expect(life.left).toEqual([]);
}
