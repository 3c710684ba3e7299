/**
 * privnet-import and the lookups against the acceptance target.
 *
 * The account is populated through the API with an object of every kind the target serves (the fixtures of the
 * provider tier, made with the providers' own create). Then the installed `privnet-import` writes a project of the
 * whole account, the project is installed as its README says, its listed secrets are set, and the real CLI runs
 * it: `pulumi up` adopts everything and creates or deletes no object on the server (objects per kind before and
 * after), the next preview shows no change and a refresh finds no drift. Every lookup is then called against the
 * target with ids and names of the objects made; a lookup whose operation the target does not serve (404) is
 * reported by name, as is every kind it does not serve.
 *
 * The adopted stack is never destroyed (it holds the whole account); the objects this file made are deleted
 * through the providers at the end, and settings put back as they were.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { routeById } from "../../api/routes";
import { isNotFound, isPrivnetApiError } from "../../client";
import { PROVIDERS } from "../../provider/registry";
import type { Props } from "../../provider/spec";
import * as privnet from "../../sdk";
import { isPrivnetLookupError } from "../../sdk";
import { LOOKUP_SPECS } from "../../sdk/lookups/table";
import {
  changesOf,
  driftOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
} from "../e2e/project";
import { countObjects, importProject, secretsOf } from "../support/import-project";
import { ensureBuilt } from "../support/package-copy";
import {
  configureAll,
  fixtures,
  NEEDS_PROXY_CLUSTER,
  madeOn,
  PEERS_NEEDED,
  providerFor,
  removePrerequisites,
  type FixtureTarget,
} from "../support/provider";
import { acceptance, mspOwner } from "./target";

const acc = acceptance();
const notServed = new Map(acc.probe.notServed.map((n) => [n.kind, n.evidence]));
const served = PROVIDERS.map((p) => p.spec.name).filter((k) => !notServed.has(k));

/** An object this file made: its kind, id, outputs and the inputs it was made with. */
interface Made {
  kind: string;
  id: string;
  outs: Props;
  inputs: Props;
}

const made: Made[] = [];
const byKind = (kind: string): Made | undefined => made.find((m) => m.kind === kind);

/** The value at a property path (`config.api_key`, `auth.headerAuths[0].value`) of the inputs an object was made with. */
function valueAt(inputs: Props, field: string): unknown {
  return field
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Props)[k] : undefined), inputs);
}

describe("privnet-import against the target: adopt the whole account", () => {
  let work = "";
  let dir = "";
  let stack: PulumiStack;
  let before: Record<string, number>;
  let target: FixtureTarget | undefined;

  beforeAll(async () => {
    work = makeWork("acceptance-import");
    ensureBuilt();
    await configureAll(acc);
    target = acc.fixtureTarget("back");
    const fx = await fixtures(target);
    const budget = acc.peerBudget("back");
    for (const kind of PROVIDERS.map((p) => p.spec.name)) {
      const evidence = notServed.get(kind);
      if (evidence) {
        acc.record({ check: "import", kind, status: "not served", detail: evidence });
        continue;
      }
      if (!acc.own && NEEDS_PROXY_CLUSTER.includes(kind) && acc.probe.proxyClusters.length === 0) {
        acc.record({ check: "import", kind, status: "no proxy cluster", detail: "none made by this test" });
        continue;
      }
      if (kind === "MspTenant" && !mspOwner(acc.own)) {
        acc.record({ check: "import", kind, status: "not run", detail: "no PRIVNET_ACCEPTANCE_MSP_OWNER" });
        continue;
      }
      const needed = PEERS_NEEDED[kind] ?? 0;
      const create = needed > budget ? await peerless(kind, target) : (await fx[kind]!()).create;
      if (!create) {
        acc.record({
          check: "import",
          kind,
          status: "too few enrolled peers",
          detail: `none made by this test (needs ${needed}, has ${budget}); the account's own are imported`,
        });
        continue;
      }
      const { id, outs } = await providerFor(kind).create(create);
      made.push({ kind, id, outs, inputs: create });
    }
    before = await countObjects(acc.client, served);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    // The stack adopted the account: it is left as it is (removed with the work directory), never destroyed.
    const again: Made[] = [];
    for (const m of [...made].reverse())
      await providerFor(m.kind)
        .delete(m.id, m.outs)
        .catch(() => again.push(m));
    if (target)
      for (const left of await removePrerequisites(target)) process.stdout.write(`left behind: ${left}\n`);
    // What a prerequisite still used (the Agent Network settings, while providers made for a policy existed).
    for (const m of again)
      await providerFor(m.kind)
        .delete(m.id, m.outs)
        .catch((err: unknown) => process.stdout.write(`left behind: ${m.kind} ${m.id}: ${String(err)}\n`));
    removeWork(work);
  }, SETUP_TIMEOUT_MS);

  it(
    "writes the project, and its pulumi up creates and deletes no object",
    async () => {
      const tokenFile = path.join(work, "owner-token");
      fs.writeFileSync(tokenFile, acc.token, { mode: 0o600 });
      dir = path.join(work, "account");
      const run = await importProject({ apiUrl: acc.url, tokenFile, dir, args: ["--peers"], cwd: work });
      process.stdout.write(`privnet-import against ${acc.probe.label}:\n${run.stdout}`);
      expect(`${run.stdout}${run.stderr}`).not.toContain(acc.token);
      // Every kind the target does not serve is named as skipped (a deprecated earlier name is not read: its
      // objects are its new kind's).
      const deprecated = new Set(PROVIDERS.filter((p) => p.spec.deprecatedBy).map((p) => p.spec.name));
      for (const kind of notServed.keys())
        if (!deprecated.has(kind)) expect(run.stderr).toContain(`privnet-import: ${kind}: skipped`);

      stack = await PulumiStack.init({
        project: { dir, programDir: dir },
        work,
        name: "import",
        server: acc,
      });
      // The secrets the README lists: those of the objects made here (the fixtures' values).
      for (const s of secretsOf(fs.readFileSync(path.join(dir, "README.md"), "utf8"))) {
        const kind = s.what.split(" ")[0] as string;
        // A write-only value that is no secret (an Okta connection name) is marked so, and set without --secret.
        const plain = s.what.endsWith(" (not secret)");
        const field = s.what.slice(s.what.lastIndexOf(": ") + 2).replace(/ \(not secret\)$/, "");
        const value = byKind(kind) && valueAt(byKind(kind)!.inputs, field);
        if (typeof value !== "string")
          throw new Error(`the account holds a secret this test did not set and cannot know: ${s.what}`);
        await stack.config(s.key, value, { secret: !plain });
      }

      const up = await stack.up();
      const creates = up.changes.filter((c) => !c.includes("pulumi:pulumi:Stack"));
      expect(creates.every((c) => c.startsWith("create "))).toBe(true);
      const after = await countObjects(acc.client, served);
      process.stdout.write(
        `import acceptance: ${creates.length} resources adopted; objects per kind before ${JSON.stringify(before)}, ` +
          `after ${JSON.stringify(after)}\n`,
      );
      expect(after).toEqual(before);
      for (const kind of served)
        acc.record({
          check: "import",
          kind,
          status: "passed",
          detail: `${before[kind]} objects before and after the up`,
        });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the next preview shows no change, and refresh shows no drift",
    async () => {
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      acc.record({ check: "import", kind: "privnet-import (preview, refresh)", status: "passed" });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "every lookup answers with the objects made, except those the target does not serve",
    async () => {
      const opts = { apiUrl: acc.url, token: acc.token };
      const id = (kind: string) => byKind(kind)?.id;
      const outs = (kind: string) => byKind(kind)?.outs ?? {};
      const peer = acc.probe.peers[0] ?? (id("Peer") as string | undefined);
      const user = await privnet.getCurrentUser(opts);
      const job = peer
        ? await acc.client
            .call<{ id: string }>("createPeerJob", {
              params: { peerId: peer },
              body: {
                workload: {
                  type: "bundle",
                  parameters: { bundle_for: false, bundle_for_time: 1, log_file_count: 1, anonymize: true },
                },
              },
            })
            .then((j) => j.id)
            .catch(() => undefined)
        : undefined;
      /** Arguments per lookup, from the objects made; undefined: there is no such object to look up. */
      const args: Record<string, unknown> = {
        getPeer: peer && { id: peer },
        getPeers: {},
        getPeerByName: peer && (await privnet.getPeer({ id: peer }, opts)).name,
        getPeerByIp: peer && (await privnet.getPeer({ id: peer }, opts)).ip,
        getAccessiblePeers: peer && { peerId: peer },
        getPeerJobs: peer && { peerId: peer },
        getPeerJob: peer && job && { peerId: peer, id: job },
        getGroup: { name: "All" },
        getGroups: undefined,
        getUsers: {},
        getUser: { id: user.id },
        getCurrentUser: undefined,
        getTokens: id("PersonalAccessToken") && { userId: outs("PersonalAccessToken").userId },
        getToken: id("PersonalAccessToken") && {
          userId: outs("PersonalAccessToken").userId,
          id: id("PersonalAccessToken"),
        },
        getAccount: undefined,
        getPolicy: id("Policy") && { id: id("Policy") },
        getPolicies: undefined,
        getPostureCheck: id("PostureCheck") && { id: id("PostureCheck") },
        getPostureChecks: undefined,
        getRoute: id("Route") && { id: id("Route") },
        getRoutes: undefined,
        getNetwork: id("Network") && { id: id("Network") },
        getNetworks: undefined,
        getNetworkResource: id("NetworkResource") && {
          networkId: outs("NetworkResource").networkId,
          id: id("NetworkResource"),
        },
        getNetworkResources: id("NetworkResource") && { networkId: outs("NetworkResource").networkId },
        getNetworkRouter: id("NetworkRouter") && {
          networkId: outs("NetworkRouter").networkId,
          id: id("NetworkRouter"),
        },
        getNetworkRouters: id("NetworkRouter") && { networkId: outs("NetworkRouter").networkId },
        getNameserverGroup: id("NameserverGroup") && { id: id("NameserverGroup") },
        getNameserverGroups: undefined,
        getDnsSettings: undefined,
        getDnsZone: id("DnsZone") && { id: id("DnsZone") },
        getDnsZones: undefined,
        getDnsRecord: id("DnsRecord") && { zoneId: outs("DnsRecord").zoneId, id: id("DnsRecord") },
        getDnsRecords: id("DnsRecord") && { zoneId: outs("DnsRecord").zoneId },
        getSetupKey: id("SetupKey") && { id: id("SetupKey") },
        getSetupKeys: undefined,
        getIdentityProvider: id("IdentityProvider") && { id: id("IdentityProvider") },
        getIdentityProviders: undefined,
        getEdrVendorA: undefined,
        getEdrVendorB: undefined,
        getEdrVendorC: undefined,
        getDirectorySyncVendorD: id("DirectorySyncVendorD") && { id: id("DirectorySyncVendorD") },
        getDirectorySyncVendorDs: undefined,
        getDirectorySyncVendorE: id("DirectorySyncVendorE") && { id: id("DirectorySyncVendorE") },
        getDirectorySyncVendorEs: undefined,
        getDirectorySyncLogs: id("GoogleWorkspaceSync") && {
          vendor: "google-idp",
          id: id("GoogleWorkspaceSync"),
        },
        getEventStreamingIntegration: id("EventStreamingIntegration") && {
          id: id("EventStreamingIntegration"),
        },
        getEventStreamingIntegrations: undefined,
        getScimIntegration: id("ScimIntegration") && { id: id("ScimIntegration") },
        getScimIntegrations: undefined,
        getOktaScimIntegration: id("OktaScimIntegration") && { id: id("OktaScimIntegration") },
        getOktaScimIntegrations: undefined,
        getScimIntegrationLogs: id("ScimIntegration") && { id: id("ScimIntegration") },
        getNotificationChannel: id("NotificationChannel") && { id: id("NotificationChannel") },
        getNotificationChannels: undefined,
        getNotificationEventTypes: undefined,
        getIngressPeer: id("IngressPeer") && { id: id("IngressPeer") },
        getIngressPeers: undefined,
        getIngressPortAllocation: id("IngressPortAllocation") && {
          peerId: outs("IngressPortAllocation").peerId,
          id: id("IngressPortAllocation"),
        },
        getIngressPortAllocations: id("IngressPortAllocation") && {
          peerId: outs("IngressPortAllocation").peerId,
        },
        getReverseProxyService: id("ReverseProxyService") && { id: id("ReverseProxyService") },
        getReverseProxyServices: undefined,
        getReverseProxyDomain: id("ReverseProxyDomain") && { domain: outs("ReverseProxyDomain").domain },
        getReverseProxyDomains: undefined,
        getProxyCluster: served.includes("ReverseProxyService")
          ? (acc.probe.proxyClusters[0] ?? (await firstCluster()))
          : undefined,
        getProxyClusters: undefined,
        getProxyTokens: undefined,
        getInvites: undefined,
        getAuditEvents: undefined,
        // Agent Networks
        getAgentNetworkSettings: undefined,
        getAgentNetworkCatalogProvider: "openai_api",
        getAgentNetworkCatalogProviders: undefined,
        getAgentNetworkProvider: id("AgentNetworkProvider") && { id: id("AgentNetworkProvider") },
        getAgentNetworkProviders: undefined,
        getAgentNetworkPolicy: id("AgentNetworkPolicy") && { id: id("AgentNetworkPolicy") },
        getAgentNetworkPolicies: undefined,
        getAgentNetworkGuardrail: id("AgentNetworkGuardrail") && { id: id("AgentNetworkGuardrail") },
        getAgentNetworkGuardrails: undefined,
        getAgentNetworkBudgetRule: id("AgentNetworkBudgetRule") && { id: id("AgentNetworkBudgetRule") },
        getAgentNetworkBudgetRules: undefined,
        getAgentNetworkConsumption: undefined,
        getAgentNetworkUsage: {},
        getAgentNetworkAccessLogs: {},
        getAgentNetworkAccessLogSessions: {},
        getProxyLogs: {},
        getTrafficEvents: {},
        getEdrSentinelOne: undefined,
        getEdrIntune: undefined,
        getEdrFalcon: undefined,
        getEdrHuntress: undefined,
        getEdrFleetDm: undefined,
        getGoogleWorkspaceSync: id("GoogleWorkspaceSync") && { id: id("GoogleWorkspaceSync") },
        getGoogleWorkspaceSyncs: undefined,
        getAzureAdSync: id("AzureAdSync") && { id: id("AzureAdSync") },
        getAzureAdSyncs: undefined,
        getPeerEdrBypasses: undefined,
        getMspTenants: undefined,
        getMspTenant: id("MspTenant") && { id: id("MspTenant") },
        getInstanceStatus: undefined,
        getInstanceVersion: undefined,
        getCountries: undefined,
        // The country of the enrolled peers the simulated agent makes (a geo database knows it too).
        getCities: { country: "DE" },
        getAllNetworkRouters: undefined,
      };
      // Lookups that take no arguments, or whose object is a singleton this file made.
      const none = new Set(LOOKUP_SPECS.filter((l) => !l.args).map((l) => l.name));
      const answered: string[] = [];
      const unserved: string[] = [];
      const nothing: string[] = [];
      const noGeo: string[] = [];
      const failed: string[] = [];
      for (const spec of LOOKUP_SPECS) {
        expect([spec.name, spec.name in args]).toEqual([spec.name, true]);
        const a = args[spec.name];
        const route = routeById(spec.operationIds[0]!);
        if (!none.has(spec.name) && (a === undefined || a === "") && notServedFamily(route.family)) {
          unserved.push(spec.name);
          acc.record({ check: "lookup", kind: spec.name, status: "not served", detail: `${route.family}` });
          continue;
        }
        if (!none.has(spec.name) && (a === undefined || a === "")) {
          nothing.push(spec.name);
          acc.record({ check: "lookup", kind: spec.name, status: "nothing to look up" });
          continue;
        }
        const fn = (privnet as unknown as Record<string, (...x: unknown[]) => Promise<unknown>>)[spec.name]!;
        try {
          const result = none.has(spec.name) ? await fn(opts) : await fn(a, opts);
          expect([spec.name, result === undefined || result === null]).toEqual([spec.name, false]);
          answered.push(spec.name);
          acc.record({ check: "lookup", kind: spec.name, status: "passed" });
        } catch (err) {
          const cause = isPrivnetLookupError(err) ? (err as { cause?: unknown }).cause : err;
          // A lookup of a family the target does not serve answers 404 (or 412: embedded IdP only).
          const unservedFamily = isNotFound(cause) && (route.cloudOnly || notServedFamily(route.family));
          if (unservedFamily || (isPrivnetApiError(cause) && cause.status === 412 && route.embeddedIdpOnly)) {
            unserved.push(spec.name);
            acc.record({ check: "lookup", kind: spec.name, status: "not served", detail: String(cause) });
          } else if (isPrivnetApiError(cause) && cause.status === 412 && route.family === "locations") {
            // A server without a geo database (a self-hosted one until it is given one) answers 412.
            noGeo.push(spec.name);
            acc.record({
              check: "lookup",
              kind: spec.name,
              status: "no geo database (412)",
              detail: String(cause),
            });
          } else {
            failed.push(`${spec.name}: ${err instanceof Error ? err.message : String(err)}`);
            acc.record({ check: "lookup", kind: spec.name, status: "failed", detail: String(err) });
          }
        }
      }
      process.stdout.write(
        `lookups against ${acc.probe.label}: ${answered.length} of ${LOOKUP_SPECS.length} answered; ` +
          `not served: ${unserved.join(", ") || "none"}; nothing to look up: ${nothing.join(", ") || "none"}; ` +
          `no geo database (412): ${noGeo.join(", ") || "none"}\n`,
      );
      expect(failed).toEqual([]);
      // On our own server every lookup has its object and answers.
      if (acc.own) expect([...unserved, ...nothing, ...noGeo]).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

/**
 * An object of a kind whose fixture needs enrolled peers the target lacks, made without peers where the kind
 * allows it (a group without members, a router of a peer group); undefined where it does not.
 */
async function peerless(kind: string, t: FixtureTarget): Promise<Props | undefined> {
  const name = `imp-${process.pid}-${Date.now().toString(36)}-${kind.toLowerCase()}`;
  if (kind === "Group") return { name };
  if (kind !== "NetworkRouter") return undefined;
  const network = await t.call("createNetwork", { body: { name } });
  madeOn(t, "deleteNetwork", { networkId: String(network.id) });
  const group = await t.call("createGroup", { body: { name } });
  madeOn(t, "deleteGroup", { groupId: String(group.id) });
  return { networkId: network.id, peerGroups: [group.id], metric: 10, masquerade: true, enabled: true };
}

/** The address of a cluster the account has (on our own server, the fixtures registered one). */
async function firstCluster(): Promise<string | undefined> {
  const clusters = (await acc.client.call<{ address: string }[] | null>("listProxyClusters")) ?? [];
  return clusters[0]?.address;
}

/** Whether the target does not serve a family (some kind of it was found not served by the probe). */
function notServedFamily(family: string): boolean {
  return PROVIDERS.some((p) => notServed.has(p.spec.name) && routeById(p.spec.ops.read).family === family);
}
