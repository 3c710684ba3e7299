/**
 * The access guard (the policy pack in policy/) under the real CLI against the acceptance target: a YAML program
 * through the resource plugin, the pack reading the target's account as it reads any account.
 *
 * - Always: the stack holds a network, a host resource in it and a group. Where the target has an online proxy
 *   cluster, a change adding a public reverse-proxy service that publishes the resource, while the tests file says
 *   it is not published, stops `pulumi up` naming the test and the service, and the target gets no write (the
 *   account's services, groups, networks and policies read before and after: a live server keeps no request log
 *   for us). A harmless change (the service behind a password, which the tests file allows, a new group and,
 *   with the peers below, a second port on the reach rule) passes `pulumi preview` with the pack, and its published and access lines equal privnet-access diff's (the
 *   offline twin) for the same change.
 * - Where the target has two enrolled peers: one reaches the resource through the other (its routing peer) on
 *   tcp/5432, which a test expects; a change of the rule's port stops `up` naming the test, with no write.
 * What a case needs and the target lacks is recorded as not run, with the reason. The stack is destroyed at the
 * end: nothing of this run is left on the target.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { INVENTORY_KINDS, readInventory } from "../../scripts/inventory";
import { repoRoot } from "../e2e/engine";
import {
  accessLinesOf,
  publishedLinesOf,
  twinDiff,
  makeWork,
  packConfig,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
  yamlProject,
  type Project,
} from "../e2e/project";
import { removePrerequisites, type FixtureTarget } from "../support/provider";
import { acceptance, type KindResult } from "./target";

const acc = acceptance();
const CHECK = "access guard";
/** The pack of this checkout (its code is dist/policy); the e2e tier runs it installed as a user installs it. */
const PACK = path.join(repoRoot, "policy");
const prefix = `acc${randomBytes(3).toString("hex")}ag`;
const PASSWORD = `acc-guard-pw-${randomBytes(6).toString("hex")}`;

const KINDS = ["Group", "Policy", "Network", "NetworkResource", "NetworkRouter"];
const notServed = KINDS.filter((k) => !acc.probe.served.includes(k));
const hasProxyKind = acc.probe.served.includes("ReverseProxyService");
const enoughPeers = acc.peerBudget("back") >= 2;

const names = {
  network: `${prefix} net`,
  files: `${prefix}-files`,
  filesGroup: `${prefix}-files`,
  source: `${prefix}-source`,
  extra: `${prefix}-extra`,
  policy: `${prefix} reach`,
  publicService: `${prefix} public files`,
  guardedService: `${prefix} guarded files`,
};

/** The YAML program: the base stack plus what `parts` adds. */
function program(parts: {
  reach: boolean;
  /** The reach rule's ports (5432, which the reach test expects). */
  ports?: string[];
  publicService?: boolean;
  guardedService?: boolean;
  extraGroup?: boolean;
}) {
  const lines = [
    `name: ${prefix}-guard`,
    "runtime: yaml",
    "description: The access guard against the acceptance target",
    "config:",
    "  cluster: {type: string, default: ''}",
    "  sourcePeer: {type: string, default: ''}",
    "  routerPeer: {type: string, default: ''}",
    "  password: {type: string, default: ''}",
    "resources:",
    "  filesGroup:",
    "    type: privnet:Group",
    "    properties:",
    `      name: ${names.filesGroup}`,
    "  net:",
    "    type: privnet:Network",
    "    properties:",
    `      name: ${names.network}`,
    "  files:",
    "    type: privnet:NetworkResource",
    "    properties:",
    "      networkId: ${net.id}",
    `      name: ${names.files}`,
    "      address: 10.77.0.5",
    "      enabled: true",
    '      groups: ["${filesGroup.id}"]',
  ];
  if (parts.reach)
    lines.push(
      "  source:",
      "    type: privnet:Group",
      "    properties:",
      `      name: ${names.source}`,
      '      peers: ["${sourcePeer}"]',
      "  router:",
      "    type: privnet:NetworkRouter",
      "    properties:",
      "      networkId: ${net.id}",
      "      peer: ${routerPeer}",
      "      metric: 100",
      "      masquerade: true",
      "      enabled: true",
      "  reach:",
      "    type: privnet:Policy",
      "    properties:",
      `      name: ${names.policy}`,
      "      enabled: true",
      "      rules:",
      "        - name: postgres",
      "          enabled: true",
      "          action: accept",
      "          bidirectional: false",
      "          protocol: tcp",
      `          ports: ${JSON.stringify(parts.ports ?? ["5432"])}`,
      '          sources: ["${source.id}"]',
      '          destinations: ["${filesGroup.id}"]',
    );
  const service = (key: string, name: string, sub: string, guarded: boolean) => {
    lines.push(
      `  ${key}:`,
      "    type: privnet:ReverseProxyService",
      "    properties:",
      `      name: ${name}`,
      `      domain: ${sub}.\${cluster}`,
      "      enabled: true",
      "      targets:",
      "        - targetId: ${files.id}",
      "          targetType: host",
      "          protocol: http",
      "          port: 8080",
      "          enabled: true",
    );
    if (guarded)
      lines.push(
        "      auth:",
        "        passwordAuth:",
        "          enabled: true",
        "          password: ${password}",
      );
  };
  if (parts.publicService) service("publicFiles", names.publicService, `${prefix}-pub`, false);
  if (parts.guardedService) service("guardedFiles", names.guardedService, `${prefix}-auth`, true);
  if (parts.extraGroup)
    lines.push("  extra:", "    type: privnet:Group", "    properties:", `      name: ${names.extra}`);
  return `${lines.join("\n")}\n`;
}

/**
 * The account's objects of this run that a change of the stack could write, as the API lists them (the other
 * files of the tier write to the same account at the same time: only this run's names count).
 */
async function writable(): Promise<Record<string, unknown>> {
  const list = async (op: string) =>
    (((await acc.client.call<unknown[] | null>(op)) ?? []) as { id: unknown; name: unknown }[])
      .filter((x) => String(x.name).includes(prefix))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  return {
    groups: await list("listGroups"),
    networks: await list("listNetworks"),
    policies: await list("listPolicies"),
    services: hasProxyKind ? await list("listReverseProxyServices") : [],
  };
}

function record(result: Omit<KindResult, "check">): void {
  acc.record({ check: CHECK, ...result });
}

/** Runs `body`, recording it as passed with the detail it returns, or failed with its first line. */
function recorded(kind: string, body: () => Promise<string>): Promise<void> {
  return acc.recorded(CHECK, kind, body);
}

afterAll(() => acc.client.close());

if (notServed.length) {
  test(`the target does not serve every kind the guard's program makes (${notServed.join(", ")})`, () => {
    expect(notServed.length).toBeGreaterThan(0);
    record({ kind: "all", status: "not served", detail: notServed.join(", ") });
  });
} else {
  describe("the access guard (policy pack) against the target, a YAML program through the resource plugin", () => {
    let work = "";
    let project: Project;
    let stack: PulumiStack;
    let cluster: string | undefined;
    let noCluster = "";
    let peers: string[] = [];
    let up = false;
    let target: FixtureTarget | undefined;

    /** Rewrites the program (with the plugin's path, as {@link yamlProject} writes it). */
    const write = (parts: Parameters<typeof program>[0]) => yamlProject(work, "guard", program(parts));

    const NOT_PUBLISHED = `{name: ${prefix} files are not published, published: {resource: ${names.files}}, expect: not-published}`;
    const ONLY_WITH_AUTH = `{name: ${prefix} files only behind auth, published: {resource: ${names.files}}, expect: only-with-auth}`;
    const REACH = `{name: ${prefix} source reaches files, from: {group: ${names.source}}, to: {resource: ${names.files}}, port: 5432, expect: accept}`;

    /** `pulumi <command>` with the pack; the token and the password never printed. */
    async function guarded(command: string[], config: string, exit: number | "nonzero" = 0) {
      const r = await stack.cli([...command, "--policy-pack", PACK, "--policy-pack-config", config], {
        expect: exit,
      });
      expect(`${r.stdout}\n${r.stderr}`).not.toContain(acc.token);
      expect(`${r.stdout}\n${r.stderr}`).not.toContain(PASSWORD);
      return r;
    }

    beforeAll(async () => {
      work = makeWork("acceptance-access-guard");
      target = acc.fixtureTarget("back");
      if (enoughPeers) peers = [await target.peer(), await target.peer()];
      if (!hasProxyKind) noCluster = "the target does not serve reverse-proxy services";
      else if (acc.own) cluster = await target.proxyCluster();
      else if (acc.probe.proxyClusters[0]) cluster = acc.probe.proxyClusters[0];
      else noCluster = "no proxy is registered (GET /api/reverse-proxies/clusters lists no online cluster)";
      project = yamlProject(work, "guard", program({ reach: peers.length === 2 }));
      stack = await PulumiStack.init({ project, work, name: "acc", server: acc });
      if (cluster) await stack.config("cluster", cluster);
      await stack.config("password", PASSWORD, { secret: true });
      if (peers.length === 2) {
        await stack.config("sourcePeer", peers[0]!);
        await stack.config("routerPeer", peers[1]!);
      }
      write({ reach: peers.length === 2 });
      up = true;
      await stack.up();
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      try {
        if (stack && up) {
          write({ reach: peers.length === 2 });
          await stack.destroy();
          const now = await readInventory(acc.client);
          const left = INVENTORY_KINDS.flatMap((k) => now[k].filter((o) => o.name.includes(prefix)));
          if (left.length) process.stdout.write(`left behind: ${JSON.stringify(left)}\n`);
        }
      } finally {
        // What the fixture target made for this file (on a shared target nothing of this run stays).
        if (target)
          for (const left of await removePrerequisites(target))
            process.stdout.write(`left behind: ${left}\n`);
        if (stack) process.stdout.write(`access-guard acceptance timings: ${stack.timingLine()}\n`);
        removeWork(work);
      }
    }, SETUP_TIMEOUT_MS);

    const ifCluster = (name: string, fn: () => Promise<void>) =>
      test(
        name,
        async () => {
          if (!cluster) {
            expect(noCluster).not.toBe("");
            record({ kind: name.split(":")[0]!, status: "no proxy cluster", detail: noCluster });
            return;
          }
          await fn();
        },
        TEST_TIMEOUT_MS,
      );

    ifCluster(
      "a public service publishing what must not be: up stops before any write, naming the test and the service",
      () =>
        recorded("a public service publishing what must not be", async () => {
          write({ reach: peers.length === 2, publicService: true });
          const mark = await writable();
          const r = await guarded(
            ["up", "--yes"],
            packConfig(work, "not-published", [NOT_PUBLISHED]),
            "nonzero",
          );
          expect(r.stdout).toContain("[mandatory]  access-tests");
          expect(r.stdout).toContain(
            `FAIL ${prefix} files are not published (expect not-published, 1 pair) after this change`,
          );
          expect(r.stdout).toContain(`is published publicly by service "${names.publicService}"`);
          expect(r.stdout).toContain(`services responsible: "${names.publicService}"`);
          expect(await writable()).toEqual(mark);
          return `up exited ${r.code}, naming the test and "${names.publicService}"; no write`;
        }),
    );

    test(
      "a harmless change (a service behind a password, a group) passes preview; its lines equal privnet-access diff's",
      () =>
        recorded("a harmless change: the pack's lines equal the twin's", async () => {
          // ...and, where the reach rule is, a second port on it: access gained, which the twin lists too.
          write({
            reach: peers.length === 2,
            ports: ["5432", "8080"],
            guardedService: !!cluster,
            extraGroup: true,
          });
          const tests = [ONLY_WITH_AUTH, ...(peers.length === 2 ? [REACH] : [])];
          const mark = await writable();
          const r = await guarded(["preview"], packConfig(work, "harmless", tests));
          expect(r.stdout).not.toContain("FAIL ");
          const fromTwin = await twinDiff(project, stack);
          const published = publishedLinesOf(r.stdout);
          expect(published).toEqual(publishedLinesOf(fromTwin));
          expect(accessLinesOf(r.stdout)).toEqual(accessLinesOf(fromTwin));
          if (cluster) {
            expect(published).toHaveLength(1);
            expect(published[0]).toMatch(
              new RegExp(
                `^\\+ published: https://${prefix}-auth\\.${cluster.replace(/\./g, "\\.")} → resource ${names.files} ` +
                  `\\(10\\.77\\.0\\.5(/32)?:8080, network ${names.network}\\) http, .*guarded by password ` +
                  `\\(service "${names.guardedService}"\\)$`,
              ),
            );
          } else expect(published).toEqual([]);
          // The source peer reaches the resource through its routing peer: the rule's ports widen.
          const reach = (sign: string, ports: string) =>
            expect.stringMatching(
              new RegExp(
                `^\\${sign} \\S+ → resource ${names.files} \\(10\\.77\\.0\\.5(/32)? via \\S+\\) tcp/${ports} ` +
                  `\\(policy "${names.policy}", rule "postgres"\\)$`,
              ),
            );
          if (peers.length === 2)
            expect(accessLinesOf(r.stdout)).toEqual([reach("+", "5432,8080"), reach("-", "5432")]);
          else expect(accessLinesOf(r.stdout)).toEqual([]);
          expect(await writable()).toEqual(mark);
          const n = accessLinesOf(r.stdout).length;
          return `preview passed; ${published.length} published and ${n} access lines, equal to the twin's${published[0] ? `: ${published[0]}` : ""}`;
        }),
      TEST_TIMEOUT_MS,
    );

    test(
      "a policy change that breaks a reach test: up stops before any write, naming the test",
      async () => {
        if (peers.length < 2) {
          expect(acc.peerBudget("back")).toBeLessThan(2);
          record({
            kind: "a change breaking a reach test",
            status: "too few enrolled peers",
            detail: `needs 2, has ${acc.peerBudget("back")}`,
          });
          return;
        }
        await recorded("a change breaking a reach test", async () => {
          write({ reach: true, ports: ["5433"] });
          const mark = await writable();
          const r = await guarded(["up", "--yes"], packConfig(work, "reach", [REACH]), "nonzero");
          expect(r.stdout).toContain("[mandatory]  access-tests");
          expect(r.stdout).toContain(
            `FAIL ${prefix} source reaches files (expect accept, 1 pair) after this change`,
          );
          expect(r.stdout).toMatch(/→ .*tcp\/5432 is not allowed/);
          expect(await writable()).toEqual(mark);
          return `up exited ${r.code}, naming the test; no write`;
        });
      },
      TEST_TIMEOUT_MS,
    );

    test(
      "destroy leaves the account as it was",
      async () => {
        write({ reach: peers.length === 2 });
        await stack.destroy();
        up = false;
        const after = await readInventory(acc.client);
        expect(INVENTORY_KINDS.flatMap((k) => after[k].filter((o) => o.name.includes(prefix)))).toEqual([]);
        // Nothing of this run (the other files of the tier change the account's counts at the same time).
        expect(await writable()).toEqual({ groups: [], networks: [], policies: [], services: [] });
      },
      TEST_TIMEOUT_MS,
    );
  });
}
