/**
 * privnet-import: from objects as the API returns them to the program's text (importer/plan.ts, importer/emit.ts):
 * references between objects, lookups of what is not managed, defaults left out, secrets, order, `--kinds`.
 */
import * as ts from "typescript";
import { PROVIDERS } from "../../provider/registry";
import { formatTypeScript, isFormatted, literalIds, renderProgram } from "../../importer/emit";
import { KINDS, type Found } from "../../importer/kinds";
import {
  buildPlan,
  orderKinds,
  programInputs,
  setupKeyLifetime,
  specOf,
  verify,
  type Snapshot,
} from "../../importer/plan";

const ids = {
  all: "allgroupid0000000000a",
  eng: "enggroupid0000000000b",
  ops: "opsgroupid0000000000c",
  unused: "unusedgroupid000000d",
  net: "networkid00000000000e",
  db: "dbresourceid0000000f",
  pc: "posturecheck0000000g",
  policy: "policyid00000000000h",
  route: "routeid000000000000i",
  gw1: "peergw1id0000000000j",
  gw2: "peergw2id0000000000k",
  zone: "zoneid0000000000000l",
  rec: "recordid00000000000m",
  idp: "idpid00000000000000n",
};

const summary = (id: string, name: string) => ({
  id,
  name,
  peers_count: 0,
  resources_count: 0,
  issued: "api",
});
const group = (id: string, name: string) => ({ ...summary(id, name), peers: [], resources: [] });
const peer = (id: string, name: string, ip: string) => ({
  id,
  name,
  ip,
  created_at: "2026-01-01T00:00:00Z",
  connection_ip: "198.51.100.1",
  connected: true,
  last_seen: "2026-01-01T00:00:00Z",
  os: "linux",
  kernel_version: "6.1",
  geoname_id: 0,
  version: "0.30.0",
  groups: [summary(ids.all, "All")],
  ssh_enabled: true,
  user_id: "",
  hostname: name,
  ui_version: "",
  dns_label: name,
  login_expiration_enabled: false,
  login_expired: false,
  last_login: "2026-01-01T00:00:00Z",
  inactivity_expiration_enabled: false,
  approval_required: false,
  country_code: "DE",
  city_name: "Berlin",
  serial_number: "",
  extra_dns_labels: [],
  ephemeral: false,
  local_flags: {},
});

function f(
  kind: string,
  object: Record<string, unknown>,
  label: string,
  parents: Record<string, string> = {},
): Found {
  return { kind, id: String(object.id), object, parents, label };
}

/** A small account: groups (with All and one nobody uses), a network with a resource, a posture check, a policy
 * that refers to all of them, a route through a peer, a zone with a record, an identity provider. */
function account(
  peers = [peer(ids.gw1, "gw-1", "100.64.0.1"), peer(ids.gw2, "gw-2", "100.64.0.2")],
): Snapshot {
  const objects = new Map<string, Found[]>([
    ["Peer", peers.map((p) => f("Peer", p, p.name))],
    [
      "Group",
      [
        f("Group", group(ids.all, "All"), "All"),
        f("Group", group(ids.eng, "engineering"), "engineering"),
        f("Group", group(ids.ops, "ops"), "ops"),
        f("Group", group(ids.unused, "unused"), "unused"),
      ],
    ],
    [
      "PostureCheck",
      [
        f(
          "PostureCheck",
          {
            id: ids.pc,
            name: "baseline",
            description: "",
            checks: { nb_version_check: { min_version: "0.30.0" } },
          },
          "baseline",
        ),
      ],
    ],
    [
      "Network",
      [
        f(
          "Network",
          {
            id: ids.net,
            name: "office",
            description: "",
            routers: [],
            routing_peers_count: 0,
            resources: [ids.db],
            policies: [],
          },
          "office",
        ),
      ],
    ],
    [
      "NetworkResource",
      [
        f(
          "NetworkResource",
          {
            id: ids.db,
            type: "host",
            groups: [summary(ids.eng, "engineering")],
            name: "db",
            description: "",
            address: "10.0.0.5",
            enabled: true,
          },
          "db",
          { networkId: ids.net },
        ),
      ],
    ],
    [
      "Policy",
      [
        f(
          "Policy",
          {
            id: ids.policy,
            name: "ops ssh",
            description: "",
            enabled: true,
            source_posture_checks: [ids.pc],
            rules: [
              {
                id: "rule1",
                name: "ssh",
                description: "",
                enabled: true,
                action: "accept",
                bidirectional: false,
                protocol: "tcp",
                ports: ["22"],
                authorized_groups: { [ids.ops]: ["root"] },
                sources: [summary(ids.ops, "ops")],
                destinations: [summary(ids.eng, "engineering"), summary(ids.all, "All")],
              },
              {
                id: "rule2",
                name: "db",
                description: "",
                enabled: true,
                action: "accept",
                bidirectional: false,
                protocol: "all",
                sources: [summary(ids.eng, "engineering")],
                destinations: [],
                destinationResource: { id: ids.db, type: "host" },
              },
            ],
          },
          "ops ssh",
        ),
      ],
    ],
    [
      "Route",
      [
        f(
          "Route",
          {
            id: ids.route,
            network_type: "IPv4",
            description: "",
            network_id: "office-lan",
            enabled: true,
            peer: ids.gw1,
            peer_groups: [],
            network: "10.10.0.0/16",
            metric: 100,
            masquerade: true,
            groups: [ids.eng],
            keep_route: false,
            access_control_groups: [],
            skip_auto_apply: false,
          },
          "office-lan route",
        ),
      ],
    ],
    [
      "DnsZone",
      [
        f(
          "DnsZone",
          {
            id: ids.zone,
            name: "corp",
            domain: "corp.example",
            enable_search_domain: false,
            distribution_groups: [ids.eng],
            enabled: true,
            records: [],
          },
          "corp",
        ),
      ],
    ],
    [
      "DnsRecord",
      [
        f(
          "DnsRecord",
          { id: ids.rec, name: "db.corp.example", type: "A", content: "10.0.0.5", ttl: 300 },
          "db A record",
          { zoneId: ids.zone },
        ),
      ],
    ],
    [
      "IdentityProvider",
      [
        f(
          "IdentityProvider",
          {
            id: ids.idp,
            type: "okta",
            name: "okta",
            issuer: "https://login.example.com",
            client_id: "privnet",
          },
          "okta",
        ),
      ],
    ],
  ]);
  return { objects, unavailable: new Map() };
}

const every = PROVIDERS.map((p) => p.spec.name);

async function program(snapshot: Snapshot, opts: { kinds?: string[]; peers?: boolean } = {}) {
  const plan = buildPlan(snapshot, { kinds: opts.kinds ?? every, peers: opts.peers ?? false, now: 0 });
  const text = await formatTypeScript(renderProgram(plan, { apiUrl: "http://127.0.0.1:8080" }));
  return { plan, text };
}

/** The statement that declares `name`, on one line (whitespace collapsed). */
function statement(text: string, name: string): string {
  const start = text.indexOf(`const ${name} =`);
  if (start < 0) throw new Error(`no variable ${name} in:\n${text}`);
  const end = text.indexOf(";\n", start);
  return text
    .slice(start, end + 1)
    .replace(/\s+/g, " ")
    .replace(/ \./g, ".");
}

describe("the importer's kind table", () => {
  it("has an entry for every resource kind, and each refers only to kinds that exist", () => {
    expect(KINDS.map((k) => k.kind).sort()).toEqual([...every].sort());
    for (const k of KINDS) for (const r of k.refersTo) expect(every).toContain(r);
    expect(new Set(KINDS.map((k) => k.title)).size).toBe(KINDS.length);
  });
});

describe("references", () => {
  it("writes ids of other objects as references, never as literals", async () => {
    const { plan, text } = await program(account());
    expect(statement(text, "opsSsh")).toContain("sourcePostureChecks: [baseline.id]");
    expect(statement(text, "opsSsh")).toContain("sources: [ops.id]");
    expect(statement(text, "opsSsh")).toContain("destinations: [engineering.id, allGroupId]");
    expect(statement(text, "opsSsh")).toContain('destinationResource: { id: db.id, type: "host" }');
    expect(statement(text, "opsSsh")).toContain(
      'authorizedGroups: pulumi.all([ops.id]).apply(([opsId]) => ({ [opsId]: ["root"] }))',
    );
    expect(statement(text, "db")).toContain("networkId: office.id");
    expect(statement(text, "db")).toContain("groups: [engineering.id]");
    expect(statement(text, "dbARecord")).toContain("zoneId: corp.id");
    expect(statement(text, "officeLanRoute")).toContain("peer: gw1PeerId");
    expect(literalIds(text, plan)).toEqual([]);
    // Every id of another object appears only as the adoptId of its own resource.
    for (const id of Object.values(ids)) {
      const lines = text.split("\n").filter((l) => l.includes(`"${id}"`));
      expect(lines.length).toBeLessThanOrEqual(1);
      for (const l of lines) expect(l.trim()).toBe(`adoptId: "${id}",`);
    }
  });

  it("looks up the built-in All group and the peers it refers to, by name (or IP when the name is shared)", async () => {
    const { text } = await program(account());
    expect(statement(text, "allGroupId")).toBe(
      'const allGroupId = privnet.getGroup({ name: "All" }).then((g) => g.id);',
    );
    expect(statement(text, "gw1PeerId")).toBe(
      'const gw1PeerId = privnet.getPeerByName("gw-1").then((p) => p.id);',
    );
    expect(text).not.toContain("gw2"); // not referred to: not looked up
    expect(text).not.toMatch(/new privnet\.Peer\(/);

    const twins = await program(
      account([peer(ids.gw1, "gw", "100.64.0.1"), peer(ids.gw2, "gw", "100.64.0.2")]),
    );
    expect(twins.text).toContain(
      'privnet.getPeerByIp("100.64.0.1").then((p) => p.id); // its name "gw" is not unique',
    );
  });

  it("names with line breaks cannot break out of a comment or a string", async () => {
    const odd = "gw\u2028oops = 1; new";
    const { text } = await program(
      account([peer(ids.gw1, odd, "100.64.0.1"), peer(ids.gw2, odd, "100.64.0.2")]),
    );
    const out = ts.transpileModule(text, {
      reportDiagnostics: true,
      compilerOptions: { target: ts.ScriptTarget.ES2022 },
    });
    expect(out.diagnostics ?? []).toEqual([]);
    const lookup = text.split("\n").find((l) => l.includes("getPeerByIp")) as string;
    expect(lookup).toMatch(
      /^const gwOops1NewPeerId = privnet\.getPeerByIp\("100\.64\.0\.1"\)\.then\(\(p\) => p\.id\); \/\/ its name/,
    );
    expect(lookup).not.toMatch(/[\u2028\u2029]/);
  });

  it("with --peers manages every peer and refers to it as a resource", async () => {
    const { plan, text } = await program(account(), { peers: true });
    expect(statement(text, "gw1")).toContain('new privnet.Peer("gw-1", { peerId: "peergw1id0000000000j",');
    expect(statement(text, "gw2")).toContain('new privnet.Peer("gw-2"');
    expect(statement(text, "officeLanRoute")).toContain("peer: gw1.id");
    expect(plan.lookups.map((l) => l.varName)).toEqual(["allGroupId"]);
    expect(literalIds(text, plan)).toEqual([]);
  });

  it("with --kinds writes the objects asked for and, transitively, only the objects they refer to", async () => {
    const { plan, text } = await program(account(), { kinds: ["Policy"] });
    const written = plan.sections.map((s) => [s.def.kind, s.resources.map((r) => r.found.label)]);
    expect(written).toEqual([
      ["Group", ["engineering", "ops"]],
      ["PostureCheck", ["baseline"]],
      ["Network", ["office"]],
      ["NetworkResource", ["db"]],
      ["Policy", ["ops ssh"]],
    ]);
    expect(text).not.toContain("unused");
    expect(plan.summary.find((s) => s.kind === "Policy")).toMatchObject({ written: 1, referencedOnly: 0 });
    // Not asked for: summarised as written only because they are referred to.
    expect(plan.summary.find((s) => s.kind === "Group")).toMatchObject({ written: 2, referencedOnly: 2 });
    expect(plan.sections[0]?.resources.every((r) => r.referencedOnly)).toBe(true);
    expect(text).toContain("// referred to by the objects asked for");
  });
});

describe("order", () => {
  it("declares every object after the objects it refers to, kinds grouped with a comment line", async () => {
    const { text } = await program(account());
    const at = (s: string) => text.indexOf(s);
    expect(at("const engineering")).toBeLessThan(at("const db ="));
    expect(at("const office")).toBeLessThan(at("const db ="));
    expect(at("const db =")).toBeLessThan(at("const opsSsh"));
    expect(at("const baseline")).toBeLessThan(at("const opsSsh"));
    expect(at("const corp")).toBeLessThan(at("const dbARecord"));
    for (const k of ["Group", "Policy", "DnsZone", "DnsRecord", "Route"])
      expect(text).toContain(`// ${KINDS.find((x) => x.kind === k)?.title}`);
    // Within a kind, by name.
    expect(at("const engineering")).toBeLessThan(at("const ops ="));
    expect(at("const ops =")).toBeLessThan(at("const unused"));
  });

  it("orders kinds by their references and refuses a cycle", () => {
    expect(
      orderKinds(
        ["Policy", "Group", "NetworkResource"],
        new Map([
          ["Policy", new Set(["NetworkResource", "Group"])],
          ["NetworkResource", new Set(["Group"])],
        ]),
      ),
    ).toEqual(["Group", "NetworkResource", "Policy"]);
    // Against the canonical order: a kind that refers to a later one comes after it.
    expect(orderKinds(["Group", "Policy"], new Map([["Group", new Set(["Policy"])]]))).toEqual([
      "Policy",
      "Group",
    ]);
    expect(() =>
      orderKinds(
        ["Group", "Policy"],
        new Map([
          ["Group", new Set(["Policy"])],
          ["Policy", new Set(["Group"])],
        ]),
      ),
    ).toThrow(/refer to each other/);
  });
});

describe("inputs", () => {
  it("leaves out values equal to the server's defaults and what the server assigns, keeps required ones", () => {
    const s = account();
    const policy = (s.objects.get("Policy") as Found[])[0] as Found;
    const inputs = programInputs(specOf("Policy"), policy);
    expect(inputs.description).toBeUndefined(); // "" on an optional field
    const rules = inputs.rules as Record<string, unknown>[];
    expect(rules[0]).not.toHaveProperty("id"); // assigned by the service
    expect(rules[0]).not.toHaveProperty("description");
    expect(rules[1]).not.toHaveProperty("destinations"); // [] on an optional list, a resource stands in
    // Without a resource in their place, empty (or null) sources and destinations are written as []: the
    // service refuses a rule without them.
    const bare = {
      ...policy,
      object: {
        ...policy.object,
        rules: [
          { ...(policy.object.rules as Record<string, unknown>[])[0], sources: null, destinations: [] },
        ],
      },
    };
    const bareRule = (programInputs(specOf("Policy"), bare).rules as Record<string, unknown>[])[0];
    expect(bareRule).toMatchObject({ sources: [], destinations: [] });
    expect(rules[1]?.bidirectional).toBe(false); // required: kept although false
    const zone = (s.objects.get("DnsZone") as Found[])[0] as Found;
    expect(programInputs(specOf("DnsZone"), zone)).not.toHaveProperty("enabled"); // true is the default
    const disabled = { ...zone, object: { ...zone.object, enabled: false } };
    expect(programInputs(specOf("DnsZone"), disabled).enabled).toBe(false);
    const pc = (s.objects.get("PostureCheck") as Found[])[0] as Found;
    // A posture check always checks something: `checks` is required.
    expect(programInputs(specOf("PostureCheck"), pc)).toEqual({
      name: "baseline",
      description: "",
      checks: { nbVersionCheck: { minVersion: "0.30.0" } },
    });
  });

  it("a setup key's lifetime: the days left within the documented range, 0 for a key that never expires", () => {
    const now = Date.parse("2026-05-01T00:00:00Z");
    expect(setupKeyLifetime("2026-05-11T00:00:00Z", now).value).toBe(10 * 86400);
    expect(setupKeyLifetime("2026-05-01T00:10:00Z", now).value).toBe(86400);
    expect(setupKeyLifetime("2036-05-01T00:00:00Z", now).value).toBe(365 * 86400);
    const never = setupKeyLifetime("0001-01-01T00:00:00Z", now);
    expect(never.value).toBe(0);
    expect(never.comment).toMatch(/never expires/);
  });

  it("turns write-only secrets into config secrets listed in the plan", async () => {
    const { plan, text } = await program(account());
    expect(statement(text, "okta")).toContain('clientSecret: config.requireSecret("oktaClientSecret")');
    expect(text).toContain("const config = new pulumi.Config();");
    expect(plan.secrets).toEqual([
      { key: "oktaClientSecret", what: 'IdentityProvider "okta": clientSecret', secret: true },
    ]);
  });

  it("states inputs the provider accepts and would find unchanged after adoption", () => {
    for (const [kind, list] of account().objects) {
      if (kind === "Peer") continue;
      for (const o of list.filter((x) => x.label !== "All"))
        expect([kind, verify(specOf(kind), o, programInputs(specOf(kind), o))]).toEqual([kind, []]);
    }
    // The check sees a difference when there is one.
    const zone = (account().objects.get("DnsZone") as Found[])[0] as Found;
    expect(
      verify(specOf("DnsZone"), zone, {
        ...programInputs(specOf("DnsZone"), zone),
        enableSearchDomain: true,
      }),
    ).toEqual(["would change on the next preview: enableSearchDomain"]);
  });

  it("the formatted program is what prettier leaves unchanged", async () => {
    const { plan, text } = await program(account());
    expect(await isFormatted(text)).toBe(true);
    expect(await isFormatted(renderProgram(plan, { apiUrl: "http://127.0.0.1:8080" }))).toBe(false); // the check can fail
  });
});
