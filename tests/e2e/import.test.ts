/**
 * privnet-import end to end: an account built by hand through the API (at least one object of every resource
 * kind, with references between them) is generated into a Pulumi project by the installed command; the project is
 * installed as the README says, type-checked, and driven by the real CLI: the listed secrets are set, `pulumi up`
 * creates nothing on the server (every kind's count is the same before and after; no POST at all) and the next
 * `pulumi preview` shows no changes. A second, narrower import (`--kinds`, peers not managed) checks the lookups
 * of the peers a program refers to.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PrivnetClient } from "../../client";
import { isFormatted } from "../../importer/emit";
import { PROVIDERS } from "../../provider/registry";
import type { RequestLogEntry } from "../../server/context";
import { buildImportAccount, type ImportAccount } from "../support/import-account";
import { countObjects, exec, importProject, secretsOf } from "../support/import-project";
import { ensureBuilt } from "../support/package-copy";
import { startTestServer, type TestServer } from "../support/server";
import { repoRoot } from "./engine";
import {
  changesOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  TEST_TIMEOUT_MS,
  writes,
} from "./project";

/** The value the account was built with, for a secret the README lists (`Kind "label": field`). */
function secretValue(a: ImportAccount, what: string): string {
  const kind = what.split(" ")[0] as string;
  const field = what.slice(what.lastIndexOf(": ") + 2).replace(/ \(not secret\)$/, "");
  const values: Record<string, string> = {
    "IdentityProvider clientSecret": a.secrets.idp as string,
    "EdrSentinelOne apiToken": a.secrets.edrA as string,
    "EdrIntune secret": a.secrets.edrB as string,
    "EdrFalcon clientId": a.secrets.edrCClient as string,
    "EdrFalcon secret": a.secrets.edrCSecret as string,
    "EdrHuntress apiKey": a.secrets.huntressKey as string,
    "EdrHuntress apiSecret": a.secrets.huntressSecret as string,
    "EdrFleetDm apiToken": a.secrets.fleetToken as string,
    "GoogleWorkspaceSync serviceAccountKey": a.secrets.dirD as string,
    "AzureAdSync clientSecret": a.secrets.dirE as string,
    "EventStreamingIntegration config.access_key_id": a.secrets.s3Key as string,
    "EventStreamingIntegration config.secret_access_key": a.secrets.s3Secret as string,
    "ReverseProxyService auth.passwordAuth.password": a.secrets.rpPassword as string,
    "ReverseProxyService auth.pinAuth.pin": a.secrets.rpPin as string,
    "ReverseProxyService auth.headerAuths[0].value": a.secrets.rpHeader as string,
    "NotificationChannel target.headers.X-Hook-Secret": a.secrets.hookSecret as string,
    "OktaScimIntegration connectionName": a.secrets.oktaConnection as string,
    "AgentNetworkProvider apiKey": a.secrets.llmKey as string,
  };
  const v = values[`${kind} ${field}`];
  if (v === undefined) throw new Error(`no value for the secret ${what}`);
  return v;
}

describe("privnet-import: adopting a whole account", () => {
  let work = "";
  let server: TestServer;
  let client: PrivnetClient;
  let account: ImportAccount;
  const requests: RequestLogEntry[] = [];
  let tokenFile = "";
  const stacks: PulumiStack[] = [];

  beforeAll(async () => {
    work = makeWork("import");
    server = await startTestServer({
      simulate: true,
      cloud: true,
      embeddedIdp: true,
      onRequest: (e) => requests.push(e),
    });
    client = new PrivnetClient({ apiUrl: server.url, token: server.token, rateLimit: false });
    account = await buildImportAccount(server.url, client);
    tokenFile = path.join(work, "owner-token");
    fs.writeFileSync(tokenFile, server.token, { mode: 0o600 });
    ensureBuilt();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    for (const s of stacks) process.stdout.write(`import e2e timings (${s.name}): ${s.timingLine()}\n`);
    await client?.close();
    await server?.close();
    removeWork(work);
  });

  /** Runs the installed command and installs the project as the README says. */
  async function generate(
    name: string,
    args: string[],
  ): Promise<{ dir: string; run: Awaited<ReturnType<typeof exec>> }> {
    const dir = path.join(work, name);
    const run = await importProject({ apiUrl: server.url, tokenFile, dir, args, cwd: work });
    return { dir, run };
  }

  async function stackFor(dir: string, name: string): Promise<PulumiStack> {
    const stack = await PulumiStack.init({ project: { dir, programDir: dir }, work, name });
    stacks.push(stack);
    await stack.config("privnet:apiUrl", server.url);
    await stack.config("privnet:token", server.token, { secret: true });
    return stack;
  }

  it(
    "every kind, peers included: up adopts without creating anything, then preview shows no changes",
    async () => {
      const before = await countObjects(client);
      for (const [kind, n] of Object.entries(before)) expect([kind, n >= 1]).toEqual([kind, true]);

      const { dir, run } = await generate("account", ["--peers"]);
      // What the command said: progress per kind on stderr, the summary on stdout; never the token.
      expect(run.stderr).toMatch(/^privnet-import: Policy: 2$/m);
      expect(run.stdout).toMatch(/^ {2}Peer +4$/m);
      expect(run.stdout).toMatch(/^ {2}PersonalAccessToken +2 {2}cannot be adopted/m);
      expect(run.stdout).toMatch(/^ {2}UserInvite +1 {2}cannot be adopted/m);
      expect(run.stdout).toMatch(/^ {2}User +1 {2}the account owner/m);
      expect(run.stdout).not.toMatch(/To review/);
      expect(`${run.stdout}${run.stderr}`).not.toContain(server.token);

      const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
      const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
      // Formatted as prettier leaves it, and it type-checks against the installed package.
      expect(await isFormatted(program)).toBe(true);
      const tsc = await exec(path.join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", dir], dir);
      expect({ code: tsc.code, output: `${tsc.stdout}${tsc.stderr}` }).toEqual({ code: 0, output: "" });
      // No literal id of another object: an id appears only as its own object's adoptId (or a peer's peerId).
      // A peer's id is also the id of its EDR bypass: that one adopts by it too.
      const bypassed = new Set(account.ids.PeerEdrBypass ?? []);
      for (const [kind, list] of Object.entries(account.ids)) {
        if (kind === "PeerEdrBypass") continue;
        for (const id of list.filter((i) => i.length >= 10)) {
          const lines = program.split("\n").filter((l) => l.includes(`"${id}"`));
          expect([kind, id, lines.length]).toEqual([kind, id, bypassed.has(id) ? 2 : 1]);
          for (const line of lines) expect(line.trim()).toMatch(new RegExp(`^(adoptId|peerId): "${id}",$`));
        }
      }
      expect(program).toContain("sources: [ops.id]");
      expect(program).toContain("sourcePostureChecks: [baseline.id]");
      expect(program).toContain("networkId: office.id");
      expect(program).toContain("zoneId: corp.id");
      expect(program).toContain("peer: gw1.id");
      expect(program).toContain('const allGroupId = privnet.getGroup({ name: "All" }).then((g) => g.id);');
      for (const name of [
        "group2024Interns",
        "defaultGroup",
        "uberwachung",
        "開発",
        "opsPolicy",
        "dbNetworkResource",
      ])
        expect(program).toContain(`const ${name} = new privnet.`);
      for (const file of fs.readdirSync(dir).filter((f) => f !== "node_modules"))
        expect([file, fs.readFileSync(path.join(dir, file), "utf8").includes(server.token)]).toEqual([
          file,
          false,
        ]);

      const secrets = secretsOf(readme);
      expect(secrets.map((s) => s.key).sort()).toEqual(
        [...run.stdout.matchAll(/^ {2}(\w+): .+: \S+( \(not secret\))?$/gm)].map((m) => m[1]).sort(),
      );
      // 17 secrets (12 integration credentials, a webhook's header, a proxied service's password, PIN and
      // header value, an LLM provider's API key), and the Okta connection name: write-only, no secret, set
      // without --secret.
      expect(secrets).toHaveLength(18);
      const plain = secrets.filter((s) => s.what.endsWith("(not secret)"));
      expect(plain.map((s) => s.what)).toEqual([
        expect.stringMatching(/^OktaScimIntegration .*: connectionName/),
      ]);
      expect(program).toMatch(/connectionName: config\.require\(\s*"\w+",?\s*\)/);
      expect(program).toMatch(/"X-Hook-Secret": config\.requireSecret\(\s*"\w+",?\s*\)/);
      for (const s of secrets)
        expect(readme).toContain(`pulumi config set ${plain.includes(s) ? "" : "--secret "}${s.key}`);

      const stack = await stackFor(dir, "dev");
      for (const s of secrets)
        await stack.config(s.key, secretValue(account, s.what), { secret: !plain.includes(s) });

      let mark = requests.length;
      const preview = await stack.preview();
      const resources = changesOf(preview).filter((c) => !c.includes("pulumi:pulumi:Stack"));
      expect(resources.every((c) => c.startsWith("create "))).toBe(true);
      expect(writes(requests.slice(mark))).toEqual([]);

      mark = requests.length;
      const up = await stack.up();
      expect(up.resourceChanges).toEqual({ create: resources.length + 1 });
      // Adoption reads and updates: not one POST (every create of this API is a POST). Kinds the API cannot
      // change (a custom domain, a proxy token) are adopted as they are, with no write.
      const during = writes(requests.slice(mark));
      expect(during.filter((w) => w.startsWith("POST "))).toEqual([]);
      const asIs = new Set(PROVIDERS.filter((p) => p.spec.adoptAsIs).map((p) => p.spec.name));
      const updated = resources.filter((c) => !asIs.has(c.replace(/^create (\S+)::.*$/, "$1")));
      expect(updated.length).toBeLessThan(resources.length);
      expect(during.length).toBeGreaterThanOrEqual(updated.length);
      const after = await countObjects(client);
      expect(after).toEqual(before);

      mark = requests.length;
      const next = changesOf(await stack.preview());
      process.stdout.write(
        `import e2e: ${resources.length} resources adopted with ${during.length} writes (0 POST); objects per ` +
          `kind before ${JSON.stringify(before)}, after ${JSON.stringify(after)}; next preview: ${next.length} changes\n`,
      );
      expect(next).toEqual([]);
      expect(writes(requests.slice(mark))).toEqual([]);
      // The CLI never printed a secret: the token, or any secret the account holds; nor the state holds one.
      const transcript = stack.transcript.join("\n");
      const state = await stack.exportText();
      // (The Okta connection name is no secret: it is set as plain config.)
      const secretValues = Object.values(account.secrets).filter((v) => v !== account.secrets.oktaConnection);
      for (const v of [server.token, ...secretValues]) {
        expect(transcript).not.toContain(v);
        expect(state).not.toContain(v);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "peers not managed: the program looks them up, and adopts as quietly",
    async () => {
      const before = await countObjects(client);
      const { dir, run } = await generate("ingress", ["--kinds", "Route,IngressPeer,IngressPortAllocation"]);
      expect(run.stdout).toMatch(/^ {2}Group +2 \(2 only because the kinds asked for refer to them\)$/m);
      const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
      expect(program).toContain('const gw1PeerId = privnet.getPeerByName("gw-1").then((p) => p.id);');
      expect(program).toContain("peerId: gw2PeerId");
      expect(program).not.toMatch(/new privnet\.(Peer|Policy)\(/);
      const tsc = await exec(path.join(repoRoot, "node_modules", ".bin", "tsc"), ["-p", dir], dir);
      expect({ code: tsc.code, output: `${tsc.stdout}${tsc.stderr}` }).toEqual({ code: 0, output: "" });

      const stack = await stackFor(dir, "ingress");
      let mark = requests.length;
      await stack.up();
      expect(writes(requests.slice(mark)).filter((w) => w.startsWith("POST "))).toEqual([]);
      expect(await countObjects(client)).toEqual(before);
      mark = requests.length;
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(writes(requests.slice(mark))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
