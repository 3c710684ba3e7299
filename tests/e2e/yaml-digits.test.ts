/**
 * Digits-only config values in a Pulumi YAML program, through the resource plugin with the real CLI and the real
 * YAML language host. Pulumi YAML turns such a value into a number even when the config is declared a string
 * (`pin: ${pin}` with pin 123456); the plugin's Check takes a number where the schema has a string as its decimal
 * text, for a kind's inputs at any depth (a group's name, a service's PIN) and for a component's (a DnsZoneBundle's
 * record), so preview and up pass, the server holds the text, and the next preview shows no change.
 */
import {
  changesOf,
  driftOf,
  makeWork,
  PulumiStack,
  removeWork,
  SETUP_TIMEOUT_MS,
  startE2EServer,
  TEST_TIMEOUT_MS,
  yamlProject,
  type E2EServer,
} from "./project";

const CLUSTER = "digits.proxy.example.test";

const PROGRAM = `name: yaml-digits
runtime: yaml
description: Digits-only config values where the schema says string
config:
  cluster:
    type: string
  teamName:
    type: string
  pin:
    type: string
  hostName:
    type: string
resources:
  team:
    type: privnet:Group
    properties:
      name: \${teamName}
  net:
    type: privnet:Network
    properties:
      name: digits net
  files:
    type: privnet:NetworkResource
    properties:
      networkId: \${net.id}
      name: digits files
      address: 10.60.0.5
      enabled: true
      groups:
        - \${team.id}
  svc:
    type: privnet:ReverseProxyService
    properties:
      name: digits pin
      domain: pin.\${cluster}
      enabled: true
      targets:
        - targetId: \${files.id}
          targetType: host
          protocol: http
          port: 8080
          enabled: true
      auth:
        pinAuth:
          enabled: true
          pin: \${pin}
  zone:
    type: privnet:DnsZoneBundle
    properties:
      name: digits zone
      domain: digits.example.com
      distributionGroups:
        - \${team.id}
      records:
        - name: \${hostName}
          type: A
          content: 10.60.0.5
outputs:
  teamId: \${team.id}
  serviceId: \${svc.id}
  zoneId: \${zone.zoneId}
`;

describe("digits-only YAML config values where the schema says string (resource plugin, real CLI)", () => {
  let work = "";
  let server: E2EServer;
  let stack: PulumiStack;

  beforeAll(async () => {
    work = makeWork("yaml-digits");
    server = await startE2EServer();
    const token = await server.client.call<{ plain_token: string }>("createProxyToken", {
      body: { name: "digits edge" },
    });
    const reg = await server.server.raw("POST", "/sim/proxies", {
      body: JSON.stringify({ token: token.plain_token, address: CLUSTER }),
      headers: { "Content-Type": "application/json" },
    });
    if (reg.status !== 200) throw new Error(`register proxy: ${reg.status} ${JSON.stringify(reg.body)}`);
    stack = await PulumiStack.init({
      project: yamlProject(work, "yaml-digits", PROGRAM),
      work,
      name: "dev",
      server,
    });
    await stack.config("cluster", CLUSTER);
    await stack.config("teamName", "2024");
    await stack.config("pin", "123456", { secret: true });
    await stack.config("hostName", "42");
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (stack) process.stdout.write(`yaml digits e2e timings: ${stack.timingLine()}\n`);
    await server?.close();
    removeWork(work);
  });

  it(
    "preview and up pass; the server holds the digits as text; no change and no drift after",
    async () => {
      const preview = await stack.cli(["preview"]);
      expect(preview.stdout).not.toContain("must be a string");
      const up = await stack.up();
      expect(up.changes).toContain("create privnet:index:ReverseProxyService::svc");
      const outputs = await stack.outputs();
      const group = await server.client.call<{ name: string }>("getGroup", {
        params: { groupId: outputs.teamId as string },
      });
      expect(group.name).toBe("2024");
      const svc = server.server.server.state.store.get("proxy_service", outputs.serviceId as string);
      expect(svc?.auth_secrets).toMatchObject({ pin: "123456" });
      const records = await server.client.call<{ name: string; type: string }[]>("listDnsRecords", {
        params: { zoneId: outputs.zoneId as string },
      });
      expect(records.map((r) => `${r.name} ${r.type}`)).toEqual(["42.digits.example.com A"]);
      expect(changesOf(await stack.preview())).toEqual([]);
      expect(driftOf(await stack.refreshPreview())).toEqual([]);
      // The state holds the text, the PIN encrypted.
      const state = await stack.exportText();
      expect(state).not.toContain("123456");
    },
    TEST_TIMEOUT_MS,
  );
});
