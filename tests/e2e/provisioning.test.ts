/**
 * SCIM provisioning integrations and notification channels under the real CLI, against privnet-server:
 * - TypeScript (tests/e2e/programs/provisioning, dynamic providers): up, no change, no drift, an update in place of
 *   every resource with both tokens rotated, no change, no drift; adoption of objects made out of band (adoptId:
 *   no POST, then no change); destroy leaves nothing;
 * - YAML (through the resource plugin): the same kinds up, no change, no drift, an update in place with a rotation;
 *   `pulumi import` of one object of each kind, whose generated code previews with no change (the Okta connection
 *   name, which the API never shows, added by hand), refresh shows no drift, changes in place and destroys;
 * - no token, webhook header value or webhook URL token is in plain text in the state, the backend's files, the
 *   CLI's output or the server's database file.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ScimDoc } from "../../server/handlers/scim";
import { hashSecret } from "../../server/ids";
import { runPythonProgram } from "./inline";
import {
  changesOf,
  copyProject,
  driftOf,
  makeWork,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  writes,
  yamlProject,
  type E2EServer,
} from "./project";

/** Every file of the server's database, as bytes (what `strings` would see). */
function dbBytes(server: E2EServer): string {
  const db = server.server.dbFile;
  return [db, `${db}-wal`, `${db}-shm`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString("latin1"))
    .join("\n");
}

/** What the server stores of a SCIM integration's token (its hash). */
function tokenHashOf(server: E2EServer, id: string): string | undefined {
  return server.server.server.state.store.get<ScimDoc>("scim_integration", id)?.token_hash;
}

/** Objects of the new kinds on the server, by kind. */
async function counts(server: E2EServer): Promise<Record<string, number>> {
  const c = server.client;
  return {
    scim: (await c.call<unknown[]>("listScimIntegrations")).length,
    okta: (await c.call<unknown[]>("listOktaScimIntegrations")).length,
    channels: (await c.call<unknown[]>("listNotificationChannels")).length,
  };
}

const hex = () => randomBytes(5).toString("hex");

describe("SCIM integrations and notification channels: a TypeScript program (dynamic providers)", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  /** Values that must never be in plain text anywhere but the server's memory. */
  const secrets: Record<string, string> = {};
  const urlToken = `urltoken${hex()}`;

  beforeAll(async () => {
    work = makeWork("provisioning");
    server = await startE2EServer();
    const project = await copyProject(
      ["tests/e2e/programs/provisioning"],
      work,
      "tests/e2e/programs/provisioning",
    );
    stack = await PulumiStack.init({ project, work, name: "dev", server });
    secrets.hookSecret = `hooksecret${hex()}`;
    secrets.urlToken = urlToken;
    await stack.config("prefix", "acme");
    await stack.config("oktaConnection", "okta-prod");
    await stack.config("hookUrl", `https://hooks.example.com/services/${urlToken}`, { secret: true });
    await stack.config("hookSecret", secrets.hookSecret, { secret: true });
    await stack.config("stage", "1");
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`provisioning e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "up creates each; the tokens are secret outputs, in full, and the server keeps only their hashes",
    async () => {
      const up = await stack.up();
      expect(up.changes.sort()).toEqual([
        "create NotificationChannel::hook",
        "create NotificationChannel::ops-email",
        "create OktaScimIntegration::okta",
        "create ScimIntegration::jumpcloud",
        "create pulumi:pulumi:Stack::privnet-provisioning-dev",
      ]);
      const outputs = await stack.outputs();
      expect(outputs.scimToken).toBe("[secret]");
      expect(outputs.oktaToken).toBe("[secret]");
      const shown = await stack.outputs(true);
      for (const [name, id] of [
        ["scimToken", outputs.scimId],
        ["oktaToken", outputs.oktaId],
      ] as const) {
        expect(shown[name]).toMatch(/^pns_[0-9A-Za-z]{40}$/);
        expect(tokenHashOf(server, id)).toBe(hashSecret(shown[name]));
        secrets[`${name}1`] = shown[name];
      }
      expect(await counts(server)).toEqual({ scim: 1, okta: 1, channels: 2 });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the next preview shows no changes, and refresh shows no drift",
    async () => {
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "stage 2 changes every resource in place and rotates both tokens; then no change, no drift",
    async () => {
      await stack.config("stage", "2");
      secrets.hookSecret2 = `hooksecret${hex()}`;
      await stack.config("hookSecret", secrets.hookSecret2, { secret: true });
      const mark = server.requests.length;
      const up = await stack.up();
      expect(up.changes.sort()).toEqual([
        "update NotificationChannel::hook",
        "update NotificationChannel::ops-email",
        "update OktaScimIntegration::okta",
        "update ScimIntegration::jumpcloud",
      ]);
      // In place: no create, no delete; one rotation per integration.
      const w = writes(server.since(mark));
      expect(w.filter((x) => x.startsWith("POST ") && !x.endsWith("/token"))).toEqual([]);
      expect(w.filter((x) => x.startsWith("DELETE "))).toEqual([]);
      expect(w.filter((x) => x.endsWith("/token")).sort()).toEqual([
        "POST /api/integrations/okta-scim-idp/{id}/token",
        "POST /api/integrations/scim-idp/{id}/token",
      ]);
      const outputs = await stack.outputs();
      const shown = await stack.outputs(true);
      for (const [name, id] of [
        ["scimToken", outputs.scimId],
        ["oktaToken", outputs.oktaId],
      ] as const) {
        expect(shown[name]).not.toBe(secrets[`${name}1`]);
        expect(tokenHashOf(server, id)).toBe(hashSecret(shown[name]));
        secrets[`${name}2`] = shown[name];
      }
      const scim = await server.client.call<{ prefix: string; user_group_prefixes: string[] }>(
        "getScimIntegration",
        { params: { id: outputs.scimId } },
      );
      expect(scim).toMatchObject({ prefix: "acme-2", user_group_prefixes: ["staff"] });
      const headers = server.server.server.state.store.get("notification_channel", outputs.hookId)
        ?.target as {
        headers: Record<string, string>;
      };
      expect(headers.headers).toEqual({ "X-Hook-Secret": secrets.hookSecret2 });
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "adoptId adopts objects made out of band: no POST, the same ids, then no change",
    async () => {
      const c = server.client;
      const ids = {
        scim: String(
          (
            await c.call<{ id: number }>("createScimIntegration", {
              body: { prefix: "x", provider: "jumpcloud" },
            })
          ).id,
        ),
        okta: String(
          (
            await c.call<{ id: number }>("createOktaScimIntegration", {
              body: { connection_name: "okta-adopted" },
            })
          ).id,
        ),
        email: (
          await c.call<{ id: string }>("createNotificationChannel", {
            body: { type: "email", target: { emails: ["x@example.com"] }, event_types: [], enabled: false },
          })
        ).id,
        hook: (
          await c.call<{ id: string }>("createNotificationChannel", {
            body: {
              type: "webhook",
              target: { url: "https://x.example.com" },
              event_types: [],
              enabled: false,
            },
          })
        ).id,
      };
      const adopting = await PulumiStack.init({ project: stack.project, work, name: "adopt", server });
      await adopting.config("prefix", "adopted");
      await adopting.config("oktaConnection", "okta-adopted");
      await adopting.config("hookUrl", `https://hooks.example.com/services/${urlToken}`, { secret: true });
      await adopting.config("hookSecret", secrets.hookSecret as string, { secret: true });
      await adopting.config("adopt", JSON.stringify(ids));
      const before = await counts(server);
      const mark = server.requests.length;
      await adopting.up();
      expect(writes(server.since(mark)).filter((x) => x.startsWith("POST "))).toEqual([]);
      expect(await counts(server)).toEqual(before);
      const outputs = await adopting.outputs();
      expect({
        scim: outputs.scimId,
        okta: outputs.oktaId,
        email: outputs.emailId,
        hook: outputs.hookId,
      }).toEqual(ids);
      // An adopted integration's token was made before: none is known until a rotation.
      expect((await adopting.outputs(true)).scimToken).toBeUndefined();
      expect(
        await server.client.call<{ prefix: string }>("getScimIntegration", { params: { id: ids.scim } }),
      ).toMatchObject({ prefix: "adopted", group_prefixes: ["eng-", "ops-"] });
      expect(changesOf(await adopting.preview())).toEqual([]);
      expect(driftOf(await adopting.refreshPreview())).toEqual([]);
      await adopting.destroy();
      expect(await counts(server)).toEqual({ scim: 1, okta: 1, channels: 2 });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no token, header value or URL token is in plain text in the state, the backend, the output or the database",
    async () => {
      const exported = await stack.exportText();
      const files = readAllFiles(path.join(work, "state"));
      const db = dbBytes(server);
      for (const [name, value] of Object.entries(secrets)) {
        expect({ name, inExport: exported.includes(value) }).toEqual({ name, inExport: false });
        for (const [file, text] of files)
          expect({ name, file, found: text.includes(value) }).toEqual({ name, file, found: false });
        for (const t of stack.transcript)
          expect({ name, found: t.includes(value) }).toEqual({ name, found: false });
        expect({ name, inDatabase: db.includes(value) }).toEqual({ name, inDatabase: false });
      }
      // The state holds the tokens all the same, encrypted: the outputs above came from it.
      expect(Object.keys(secrets).length).toBe(7);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy leaves nothing of the program",
    async () => {
      await stack.destroy();
      expect(await counts(server)).toEqual({ scim: 0, okta: 0, channels: 0 });
    },
    TEST_TIMEOUT_MS,
  );
});

/** The YAML program: one of each kind; config: prefix, rotation (a rotateToken value), hookSecret (secret). */
const YAML_PROGRAM = `name: privnet-provisioning-yaml
runtime: yaml
config:
  prefix:
    type: string
  rotation:
    type: string
  hookSecret:
    type: string
    secret: true
resources:
  scim:
    type: privnet:ScimIntegration
    properties:
      prefix: \${prefix}
      provider: authentik
      groupPrefixes: ["eng-"]
      rotateToken: \${rotation}
  okta:
    type: privnet:OktaScimIntegration
    properties:
      connectionName: okta-yaml
      userGroupPrefixes: ["vpn-"]
  hook:
    type: privnet:NotificationChannel
    properties:
      type: webhook
      target:
        url: https://hooks.example.com/yaml
        headers:
          Authorization: \${hookSecret}
      eventTypes: ["peer.add"]
      enabled: true
outputs:
  scimId: \${scim.id}
  scimToken: \${scim.authToken}
  oktaToken: \${okta.authToken}
`;

describe("SCIM integrations and notification channels: a YAML program (the resource plugin)", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    work = makeWork("provisioning-yaml");
    server = await startE2EServer();
    stack = await PulumiStack.init({
      project: yamlProject(work, "provisioning-yaml", YAML_PROGRAM),
      work,
      name: "dev",
      server,
    });
    secrets.hookSecret = `Bearer yamlsecret${hex()}`;
    await stack.config("prefix", "yaml");
    await stack.config("rotation", "r1");
    await stack.config("hookSecret", secrets.hookSecret, { secret: true });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`provisioning yaml e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "up, no change, no drift; tokens are secret outputs",
    async () => {
      const up = await stack.up();
      expect(up.changes.filter((c) => c.startsWith("create privnet:"))).toHaveLength(3);
      const outputs = await stack.outputs();
      expect(outputs.scimToken).toBe("[secret]");
      expect(outputs.oktaToken).toBe("[secret]");
      const shown = await stack.outputs(true);
      expect(tokenHashOf(server, outputs.scimId)).toBe(hashSecret(shown.scimToken));
      secrets.scimToken = shown.scimToken;
      secrets.oktaToken = shown.oktaToken;
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a new rotation value and prefix: one update in place, a new token; then no change",
    async () => {
      await stack.config("rotation", "r2");
      await stack.config("prefix", "yaml-2");
      const r = await stack.cli(["preview", "--json", "--diff"]);
      const steps = (
        JSON.parse(r.stdout) as {
          steps: { op: string; urn: string; detailedDiff?: Record<string, unknown> }[];
        }
      ).steps.filter((s) => s.op !== "same");
      expect(steps.map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual(["update scim"]);
      expect(Object.keys(steps[0]?.detailedDiff ?? {}).sort()).toEqual(["prefix", "rotateToken"]);
      const up = await stack.up();
      expect(up.changes).toEqual(["update privnet:index:ScimIntegration::scim"]);
      const shown = await stack.outputs(true);
      expect(shown.scimToken).not.toBe(secrets.scimToken);
      expect(tokenHashOf(server, shown.scimId)).toBe(hashSecret(shown.scimToken));
      secrets.scimToken2 = shown.scimToken;
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "pulumi import of each kind: the generated code previews with no change, refreshes with no drift, updates, destroys",
    async () => {
      const c = server.client;
      const scim = await c.call<{ id: number; auth_token: string }>("createScimIntegration", {
        body: { prefix: "by-hand", provider: "jumpcloud", user_group_prefixes: ["staff"] },
      });
      const okta = await c.call<{ id: number; auth_token: string }>("createOktaScimIntegration", {
        body: { connection_name: "okta-by-hand" },
      });
      secrets.handScim = scim.auth_token;
      secrets.handOkta = okta.auth_token;
      secrets.handHook = `handhook${hex()}`;
      const hook = await c.call<{ id: string }>("createNotificationChannel", {
        body: {
          type: "webhook",
          target: { url: "https://hooks.example.com/by-hand", headers: { "X-Hand": secrets.handHook } },
          event_types: ["group.add"],
          enabled: true,
        },
      });
      const project = yamlProject(work, "import-yaml", "name: privnet-import-provisioning\nruntime: yaml\n");
      const imp = await PulumiStack.init({ project, work, name: "imported", server });
      const code: string[] = [];
      for (const [type, name, id] of [
        ["privnet:index:ScimIntegration", "by-hand-scim", String(scim.id)],
        ["privnet:index:OktaScimIntegration", "by-hand-okta", String(okta.id)],
        ["privnet:index:NotificationChannel", "by-hand-hook", hook.id],
      ] as const) {
        const out = path.join(work, `${name}.yaml`);
        await imp.cli(["import", type, name, id, "--out", out, "--protect=false"], { yes: true });
        code.push(fs.readFileSync(out, "utf8"));
      }
      const text = code.join("\n");
      expect(text).toMatch(/type: privnet:ScimIntegration/);
      expect(text).toMatch(/prefix: by-hand/);
      // The webhook's header value is the mask in the code: sent back, it keeps the stored value.
      expect(text).toMatch(/X-Hand: '\*{8}'/);
      // Neither token is in the code or the state: the API answers them masked.
      expect(text).not.toMatch(/pns_/);
      const yaml = path.join(project.dir, "Pulumi.yaml");
      // Each file is a `resources:` block. The Okta connection name, which the API never shows, comes out empty:
      // it is the program's to state.
      expect(text).toMatch(/connectionName: ""/);
      const resources = code
        .map((c0) => c0.slice(c0.indexOf("resources:") + "resources:".length))
        .join("")
        .replace(/connectionName: ""/, "connectionName: okta-by-hand");
      fs.appendFileSync(yaml, `resources:${resources}`);
      const mark = server.requests.length;
      await imp.cli(["preview", "--expect-no-changes"]);
      expect(driftOf(await imp.refreshPreview())).toEqual([]);
      expect(writes(server.since(mark))).toEqual([]);
      // A change in place of each imported object (and the stored header value survives the masked round trip).
      fs.writeFileSync(
        yaml,
        fs
          .readFileSync(yaml, "utf8")
          .replace(/prefix: by-hand/, "prefix: by-hand-2")
          .replace(/(connectionName: okta-by-hand\n\s+)enabled: true/, "$1enabled: false")
          .replace(/\n( *)- group\.add/, "\n$1- group.add\n$1- peer.add"),
      );
      const up = await imp.up();
      expect(up.changes.sort()).toEqual([
        "update privnet:index:NotificationChannel::by-hand-hook",
        "update privnet:index:OktaScimIntegration::by-hand-okta",
        "update privnet:index:ScimIntegration::by-hand-scim",
      ]);
      const stored = server.server.server.state.store.get("notification_channel", hook.id)?.target as {
        headers: Record<string, string>;
      };
      expect(stored.headers).toEqual({ "X-Hand": secrets.handHook });
      expect(changesOf(await imp.preview())).toEqual([]);
      for (const t of [await imp.exportText(), ...imp.transcript])
        for (const v of [secrets.handScim, secrets.handOkta, secrets.handHook])
          expect(t.includes(v as string)).toBe(false);
      await imp.destroy();
      const left = await counts(server);
      expect(left).toEqual({ scim: 1, okta: 1, channels: 1 }); // the program's own
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no token or header value in plain text in the state, the backend, the output or the database; destroy",
    async () => {
      const exported = await stack.exportText();
      const files = readAllFiles(path.join(work, "state"));
      const db = dbBytes(server);
      for (const [name, value] of Object.entries(secrets)) {
        expect({ name, inExport: exported.includes(value) }).toEqual({ name, inExport: false });
        for (const [file, t] of files)
          expect({ name, file, found: t.includes(value) }).toEqual({ name, file, found: false });
        for (const t of stack.transcript)
          expect({ name, found: t.includes(value) }).toEqual({ name, found: false });
        expect({ name, inDatabase: db.includes(value) }).toEqual({ name, inDatabase: false });
      }
      await stack.destroy();
      expect(await counts(server)).toEqual({ scim: 0, okta: 0, channels: 0 });
    },
    TEST_TIMEOUT_MS,
  );
});

describe("SCIM integrations and a notification channel: a Python program (generated SDK, resource plugin)", () => {
  let work = "";
  let server: E2EServer;
  let steps: Awaited<ReturnType<typeof runPythonProgram>> = {};
  const hookSecret = `pyhooksecret${hex()}`;

  beforeAll(async () => {
    work = makeWork("provisioning-python");
    server = await startE2EServer();
    steps = await runPythonProgram("provisioning.py", work, server, { PRIVNET_TEST_HOOK_SECRET: hookSecret });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    removeWork(work);
  });

  it(
    "up, no change, no drift; a rotation and a new header value are two updates in place; destroy",
    async () => {
      expect(steps.up!.changes).toEqual({ create: 4 });
      const outputs = steps.up!.outputs!;
      expect(outputs.scimToken!.secret).toBe(true);
      expect(outputs.oktaToken!.secret).toBe(true);
      expect(String(outputs.scimToken!.value)).toMatch(/^pns_[0-9A-Za-z]{40}$/);
      expect(steps.preview!.changes).toEqual({ same: 4 });
      expect(steps.refresh!.changes).toEqual({ same: 4 });
      expect(steps.rotate!.changes).toEqual({ same: 2, update: 2 });
      const rotated = String(steps.rotate!.outputs!.scimToken!.value);
      expect(rotated).not.toBe(outputs.scimToken!.value);
      expect(steps["after-rotate"]!.changes).toEqual({ same: 4 });
      expect(steps.destroy!.changes).toEqual({ delete: 4 });
      expect(await counts(server)).toEqual({ scim: 0, okta: 0, channels: 0 });
      // No token or header value in any checkpoint the backend kept, nor in the server's database file.
      const values = [
        String(outputs.scimToken!.value),
        String(outputs.oktaToken!.value),
        rotated,
        hookSecret,
        `${hookSecret}-2`,
      ];
      const files = readAllFiles(path.join(work, "state"));
      expect(files.some(([, text]) => text.includes("privnet:index:ScimIntegration"))).toBe(true);
      const db = dbBytes(server);
      for (const v of values) {
        for (const [file, text] of files)
          expect({ file, found: text.includes(v) }).toEqual({ file, found: false });
        expect(db.includes(v)).toBe(false);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
