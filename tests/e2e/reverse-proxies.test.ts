/**
 * Reverse-proxy services, custom domains and proxy tokens with the real CLI against a fresh local server (a proxy
 * registered through the simulated agent), in both forms a program takes:
 * - TypeScript with the dynamic providers (`pulumi-privnet`): up, a no-change preview, no drift, an update in
 *   place (a rename and a new password), adoption of objects made out of band (`adoptId`, the import of dynamic
 *   resources), destroy;
 * - YAML through the resource plugin: up, no change, no drift, a rename in place, `pulumi import` of each kind
 *   whose printed code then previews with no changes, destroy.
 * Neither state, backend, CLI output nor the server's database file holds a password, PIN, header value or proxy
 * token in plain text.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tsconfigJson } from "../../importer/project";
import { installPackageCopy } from "../support/package-copy";
import {
  changesOf,
  driftOf,
  makeWork,
  PulumiStack,
  readAllFiles,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  yamlProject,
  type E2EServer,
} from "./project";

const CLUSTER = "edge.proxy.example.test";

const SECRETS = {
  password: "rp-e2e-password-4c1f",
  rotated: "rp-e2e-password-rotated-77aa",
  pin: "rp-e2e-pin-9051",
  header: "rp-e2e-header-value-2e6b",
  adoptedHeader: "rp-e2e-adopted-header-c3d0",
  yamlPassword: "rp-e2e-yaml-password-58be",
};

const TS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
const cluster = config.require("cluster");
const readers = new privnet.Group("readers", { name: "readers" });
const net = new privnet.Network("dc", { name: "dc" });
const db = new privnet.NetworkResource("db", {
  networkId: net.id,
  name: "db",
  address: "10.30.0.5",
  enabled: true,
  groups: [readers.id],
});
const token = new privnet.ProxyToken("edge", { name: "edge" });
const apps = new privnet.ReverseProxyDomain("apps", { domain: "apps.example.com", targetCluster: cluster });
const admin = new privnet.ReverseProxyService("db-admin", {
  name: config.get("serviceName") ?? "db admin",
  domain: "db." + cluster,
  enabled: true,
  targets: [
    {
      targetId: db.id,
      targetType: "host",
      protocol: "http",
      port: 8080,
      enabled: true,
      options: { requestTimeout: "2m" },
    },
  ],
  auth: {
    passwordAuth: { enabled: true, password: config.requireSecret("password") },
    pinAuth: { enabled: true, pin: config.requireSecret("pin") },
    headerAuths: [{ enabled: true, header: "X-Token", value: config.requireSecret("header") }],
  },
  accessRestrictions: { allowedCountries: ["de"] },
});
new privnet.ReverseProxyService("wiki", {
  name: "wiki",
  domain: pulumi.interpolate\`wiki.\${apps.domain}\`,
  enabled: true,
  private: true,
  accessGroups: [readers.id],
  targets: [{ targetId: db.id, targetType: "host", protocol: "http", port: 80, enabled: true }],
});

// Objects made out of band, adopted.
const adopt = config.getObject<{ service: string; domain: string; token: string }>("adopt");
if (adopt) {
  new privnet.ReverseProxyService("adopted", {
    adoptId: adopt.service,
    name: "adopted",
    domain: "adopted." + cluster,
    enabled: true,
    targets: [{ targetId: db.id, targetType: "host", protocol: "http", port: 9000, enabled: true }],
    auth: { headerAuths: [{ enabled: true, header: "X-Key", value: config.requireSecret("adoptedHeader") }] },
  });
  new privnet.ReverseProxyDomain("adopted", {
    adoptId: adopt.domain,
    domain: "adopted.example.com",
    targetCluster: cluster,
  });
  new privnet.ProxyToken("adopted", { adoptId: adopt.token, name: "adopted" });
}

export const adminId = admin.id;
export const proxyToken = token.plainToken;
export const appsValidated = apps.validated;
`;

/** Every value that must never be in plain text anywhere. */
function leaks(server: E2EServer, stack: PulumiStack, work: string, values: Record<string, string>) {
  return (async () => {
    const found: string[] = [];
    const exported = await stack.exportText();
    const files = readAllFiles(path.join(work, "state"));
    const db = [server.server.dbFile, `${server.server.dbFile}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString("latin1"))
      .join("\n");
    for (const [name, value] of Object.entries(values)) {
      if (exported.includes(value)) found.push(`${name} in the state`);
      for (const [file, text] of files) if (text.includes(value)) found.push(`${name} in ${file}`);
      if (stack.transcript.some((t) => t.includes(value))) found.push(`${name} in the CLI output`);
      if (db.includes(value)) found.push(`${name} in the server's database file`);
    }
    return found;
  })();
}

async function registerProxy(server: E2EServer, address: string): Promise<void> {
  const token = await server.client.call<{ plain_token: string }>("createProxyToken", {
    body: { name: `proxy ${address}` },
  });
  const res = await server.server.raw("POST", "/sim/proxies", {
    body: JSON.stringify({ token: token.plain_token, address }),
    headers: { "Content-Type": "application/json" },
  });
  if (res.status !== 200) throw new Error(`register proxy: ${res.status} ${JSON.stringify(res.body)}`);
}

describe("reverse proxies in TypeScript (dynamic providers) with the real CLI", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  const values: Record<string, string> = {};
  const adopt = { service: "", domain: "", token: "" };

  beforeAll(async () => {
    work = makeWork("reverse-proxies-ts");
    server = await startE2EServer();
    await registerProxy(server, CLUSTER);
    const dir = path.join(work, "rp-ts");
    installPackageCopy({
      dir,
      projectName: "rp-ts",
      writeProject: false,
      extraLinks: ["typescript", "@types/node"],
    });
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: rp-ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n",
    );
    fs.writeFileSync(path.join(dir, "package.json"), '{"name":"rp-ts","private":true,"main":"index.ts"}\n');
    fs.writeFileSync(path.join(dir, "index.ts"), TS_PROGRAM);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), tsconfigJson());
    stack = await PulumiStack.init({ project: { dir, programDir: dir }, work, name: "dev", server });
    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    await stack.config("cluster", CLUSTER);
    await stack.config("password", SECRETS.password, { secret: true });
    await stack.config("pin", SECRETS.pin, { secret: true });
    await stack.config("header", SECRETS.header, { secret: true });
    Object.assign(values, { password: SECRETS.password, pin: SECRETS.pin, header: SECRETS.header });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`reverse-proxies ts e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "up creates the services, the domain and the token; the token is a secret output",
    async () => {
      const up = await stack.up();
      expect(up.changes).toEqual(
        [
          "create Group::readers",
          "create Network::dc",
          "create NetworkResource::db",
          "create ProxyToken::edge",
          "create ReverseProxyDomain::apps",
          "create ReverseProxyService::db-admin",
          "create ReverseProxyService::wiki",
          "create pulumi:pulumi:Stack::rp-ts-dev",
        ].sort(),
      );
      const outputs = await stack.outputs();
      expect(outputs.proxyToken).toBe("[secret]");
      expect(outputs.appsValidated).toBe(false);
      values.token = (await stack.outputs(true)).proxyToken as string;
      expect(values.token).toMatch(/^pnx_/);
      const svc = await server.client.call<Record<string, any>>("getReverseProxyService", {
        params: { serviceId: outputs.adminId },
      });
      expect(svc).toMatchObject({ name: "db admin", domain: `db.${CLUSTER}`, proxy_cluster: CLUSTER });
      expect(svc.targets[0].options.request_timeout).toBe("2m0s");
      expect(server.server.server.state.store.get("proxy_service", outputs.adminId)?.auth_secrets).toEqual({
        password: SECRETS.password,
        pin: SECRETS.pin,
        headers: { "x-token": SECRETS.header },
      });
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
    "a rename and a new password are one update in place",
    async () => {
      await stack.config("serviceName", "db console");
      await stack.config("password", SECRETS.rotated, { secret: true });
      values.rotated = SECRETS.rotated;
      const up = await stack.up();
      expect(up.changes).toEqual(["update ReverseProxyService::db-admin"]);
      const id = (await stack.outputs()).adminId as string;
      const svc = await server.client.call<{ name: string }>("getReverseProxyService", {
        params: { serviceId: id },
      });
      expect(svc.name).toBe("db console");
      const secrets = server.server.server.state.store.get("proxy_service", id)?.auth_secrets as {
        password: string;
      };
      expect(secrets.password).toBe(SECRETS.rotated);
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "objects made out of band are adopted (adoptId): same ids, no new object, no change afterwards",
    async () => {
      const c = server.client;
      const res = await c.call<{ id: string }[]>("listNetworkResources", {
        params: { networkId: (await c.call<{ id: string }[]>("listNetworks"))[0]!.id },
      });
      adopt.service = (
        await c.call<{ id: string }>("createReverseProxyService", {
          body: {
            name: "adopted",
            domain: `adopted.${CLUSTER}`,
            enabled: false,
            targets: [
              { target_id: res[0]!.id, target_type: "host", protocol: "http", port: 9000, enabled: true },
            ],
            auth: { header_auths: [{ enabled: true, header: "X-Key", value: "set-by-hand" }] },
          },
        })
      ).id;
      adopt.domain = (
        await c.call<{ id: string }>("createReverseProxyDomain", {
          body: { domain: "adopted.example.com", target_cluster: CLUSTER },
        })
      ).id;
      adopt.token = (await c.call<{ id: string }>("createProxyToken", { body: { name: "adopted" } })).id;
      await stack.cli(["config", "set", "--plaintext", "--path", "adopt.service", adopt.service]);
      await stack.cli(["config", "set", "--plaintext", "--path", "adopt.domain", adopt.domain]);
      await stack.cli(["config", "set", "--plaintext", "--path", "adopt.token", adopt.token]);
      await stack.config("adoptedHeader", SECRETS.adoptedHeader, { secret: true });
      values.adoptedHeader = SECRETS.adoptedHeader;
      const services = (await c.call<unknown[]>("listReverseProxyServices")).length;
      const up = await stack.up();
      expect(up.changes).toEqual([
        "create ProxyToken::adopted",
        "create ReverseProxyDomain::adopted",
        "create ReverseProxyService::adopted",
      ]);
      expect((await c.call<unknown[]>("listReverseProxyServices")).length).toBe(services);
      const state = JSON.parse(await stack.exportText()) as {
        deployment: { resources: { urn: string; id?: string }[] };
      };
      const idOf = (name: string) => state.deployment.resources.find((r) => r.urn.endsWith(name))?.id;
      expect(idOf("ReverseProxyService::adopted")).toBe(adopt.service);
      expect(idOf("ReverseProxyDomain::adopted")).toBe(adopt.domain);
      expect(idOf("ProxyToken::adopted")).toBe(adopt.token);
      // The program's values were applied: enabled, and the program's header value.
      const svc = await c.call<{ enabled: boolean }>("getReverseProxyService", {
        params: { serviceId: adopt.service },
      });
      expect(svc.enabled).toBe(true);
      expect(
        server.server.server.state.store.get("proxy_service", adopt.service)?.auth_secrets,
      ).toMatchObject({
        headers: { "x-key": SECRETS.adoptedHeader },
      });
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no password, PIN, header value or token is in plain text in the state, the backend, the output or the database",
    async () => {
      expect(Object.keys(values).sort()).toEqual(
        ["adoptedHeader", "header", "password", "pin", "rotated", "token"].sort(),
      );
      expect(await leaks(server, stack, work, values)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "destroy removes the services and domains and revokes the tokens",
    async () => {
      await stack.destroy();
      const c = server.client;
      expect(await c.call("listReverseProxyServices")).toEqual([]);
      const domains = await c.call<{ type: string }[]>("listReverseProxyDomains");
      expect(domains.map((d) => d.type)).toEqual(["free"]);
      const tokens = await c.call<{ name: string; revoked: boolean }[]>("listProxyTokens");
      expect(tokens.filter((t) => !t.revoked).map((t) => t.name)).toEqual([`proxy ${CLUSTER}`]);
    },
    TEST_TIMEOUT_MS,
  );
});

const YAML_PROGRAM = `name: rp-yaml
runtime: yaml
config:
  cluster:
    type: string
  password:
    type: string
    secret: true
  svcName:
    type: string
    default: yaml service
resources:
  net:
    type: privnet:Network
    properties:
      name: yaml-dc
  host:
    type: privnet:NetworkResource
    properties:
      networkId: \${net.id}
      name: yaml-host
      address: 10.40.0.5
      enabled: true
      groups: []
  svc:
    type: privnet:ReverseProxyService
    properties:
      name: \${svcName}
      domain: yaml.\${cluster}
      enabled: true
      targets:
        - targetId: \${host.id}
          targetType: host
          protocol: http
          port: 8080
          enabled: true
          options:
            sessionIdleTimeout: 90s
      auth:
        passwordAuth:
          enabled: true
          password: \${password}
      accessRestrictions:
        blockedCountries: [cn]
  dom:
    type: privnet:ReverseProxyDomain
    properties:
      domain: yaml.example.org
      targetCluster: \${cluster}
  tok:
    type: privnet:ProxyToken
    properties:
      name: yaml-token
outputs:
  svcId: \${svc.id}
  token: \${tok.plainToken}
`;

describe("reverse proxies in YAML through the resource plugin with the real CLI", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;
  const values: Record<string, string> = {};

  beforeAll(async () => {
    work = makeWork("reverse-proxies-yaml");
    server = await startE2EServer();
    await registerProxy(server, CLUSTER);
    stack = await PulumiStack.init({
      project: yamlProject(work, "rp-yaml", YAML_PROGRAM),
      work,
      name: "dev",
      server,
    });
    await stack.config("cluster", CLUSTER);
    await stack.config("password", SECRETS.yamlPassword, { secret: true });
    values.password = SECRETS.yamlPassword;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`reverse-proxies yaml e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "up, then no change and no drift",
    async () => {
      const up = await stack.up();
      expect(up.changes).toEqual(
        [
          "create privnet:index:Network::net",
          "create privnet:index:NetworkResource::host",
          "create privnet:index:ProxyToken::tok",
          "create privnet:index:ReverseProxyDomain::dom",
          "create privnet:index:ReverseProxyService::svc",
          "create pulumi:pulumi:Stack::rp-yaml-dev",
        ].sort(),
      );
      expect((await stack.outputs()).token).toBe("[secret]");
      values.token = (await stack.outputs(true)).token as string;
      expect(values.token).toMatch(/^pnx_/);
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a rename is one update in place whose detailed diff names exactly name",
    async () => {
      await stack.config("svcName", "yaml console");
      const r = await stack.cli(["preview", "--json", "--diff"]);
      const steps = (
        JSON.parse(r.stdout) as {
          steps: { op: string; urn: string; detailedDiff?: Record<string, unknown> }[];
        }
      ).steps.filter((s) => s.op !== "same");
      expect(steps.map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual(["update svc"]);
      expect(Object.keys(steps[0]!.detailedDiff ?? {})).toEqual(["name"]);
      expect((await stack.up()).changes).toEqual(["update privnet:index:ReverseProxyService::svc"]);
      expect(changesOf(await stack.preview())).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "pulumi import of a service, a domain and a token prints YAML code that previews with no changes",
    async () => {
      const c = server.client;
      const net = await c.call<{ id: string }>("createNetwork", { body: { name: "by-hand" } });
      const res = await c.call<{ id: string }>("createNetworkResource", {
        params: { networkId: net.id },
        body: { name: "by-hand-host", address: "10.50.0.5", enabled: true, groups: [] },
      });
      const svc = await c.call<{ id: string }>("createReverseProxyService", {
        body: {
          name: "by hand",
          domain: `hand.${CLUSTER}`,
          enabled: true,
          targets: [{ target_id: res.id, target_type: "host", protocol: "http", port: 80, enabled: true }],
          access_restrictions: { allowed_countries: ["fr"] },
        },
      });
      const dom = await c.call<{ id: string }>("createReverseProxyDomain", {
        body: { domain: "hand.example.net", target_cluster: CLUSTER },
      });
      const tok = await c.call<{ id: string }>("createProxyToken", { body: { name: "by-hand" } });
      const project = yamlProject(work, "rp-import", "name: rp-import\nruntime: yaml\n");
      const adopt = await PulumiStack.init({ project, work, name: "adopt", server });
      let code = "";
      for (const [type, name, id] of [
        ["privnet:index:ReverseProxyService", "hand-svc", svc.id],
        ["privnet:index:ReverseProxyDomain", "hand-dom", dom.id],
        ["privnet:index:ProxyToken", "hand-tok", tok.id],
      ] as const) {
        const r = await adopt.cli(["import", type, name, id], { yes: true });
        const printed = r.stdout.slice(r.stdout.indexOf("resources:") + "resources:\n".length);
        code += printed.slice(0, printed.search(/\n\S/) === -1 ? undefined : printed.search(/\n\S/) + 1);
      }
      expect(code).toMatch(/type: privnet:ReverseProxyService/);
      expect(code).toMatch(/domain: hand\.example\.net/);
      expect(code).toMatch(/name: by-hand/);
      fs.appendFileSync(path.join(project.dir, "Pulumi.yaml"), `resources:\n${code}`);
      await adopt.cli(["preview", "--expect-no-changes"]);
      expect(driftOf(await adopt.refreshPreview())).toEqual([]);
      expect((await c.call<unknown[]>("listReverseProxyServices")).length).toBe(2);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "no password or token is in plain text in the state, the backend, the output or the database; destroy removes the rest",
    async () => {
      expect(await leaks(server, stack, work, values)).toEqual([]);
      await stack.destroy();
      const c = server.client;
      const services = await c.call<{ name: string }[]>("listReverseProxyServices");
      expect(services.map((s) => s.name)).toEqual(["by hand"]);
      const custom = (await c.call<{ type: string; domain: string }[]>("listReverseProxyDomains")).filter(
        (d) => d.type === "custom",
      );
      expect(custom.map((d) => d.domain)).toEqual(["hand.example.net"]);
    },
    TEST_TIMEOUT_MS,
  );
});
