/** privnet-import: variable and resource names derived from object names (importer/naming.ts). */
import * as ts from "typescript";
import {
  IdentifierAllocator,
  MAX_IDENTIFIER_LENGTH,
  RESERVED,
  ResourceNameAllocator,
  baseIdentifier,
  identifierWords,
  isUsableIdentifier,
  slug,
} from "../../importer/naming";

/** Whether the TypeScript compiler accepts `const <id> = 1;` without a diagnostic. */
function compiles(id: string): boolean {
  const out = ts.transpileModule(`const ${id} = 1;\nexport {};\n`, {
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).length === 0;
}

describe("identifiers from names", () => {
  it("the compile check used below rejects what a name cannot be", () => {
    expect(compiles("engineering")).toBe(true);
    expect(compiles("2024Interns")).toBe(false);
    expect(compiles("default")).toBe(false);
    expect(compiles("ops-ssh")).toBe(false);
  });

  it.each([
    ["engineering", "engineering"],
    ["Engineering Team", "engineeringTeam"],
    ["ops ssh", "opsSsh"],
    ["gw-1", "gw1"],
    ["DB_prod", "dbProd"],
    ["myGroup", "myGroup"],
    ["HTTPServer pool", "httpServerPool"],
    ["  spaces   everywhere ", "spacesEverywhere"],
    ["alice@example.com", "aliceExampleCom"],
  ])("%j -> %s", (name, expected) => {
    expect(baseIdentifier(name, "group")).toBe(expected);
  });

  it("folds accents and keeps letters of other scripts, giving valid identifiers", () => {
    expect(baseIdentifier("Überwachung", "group")).toBe("uberwachung");
    expect(baseIdentifier("Café Crème", "group")).toBe("cafeCreme");
    expect(baseIdentifier("開発", "group")).toBe("開発");
    expect(baseIdentifier("Разработка", "group")).toBe("разработка");
    for (const name of ["Überwachung", "開発", "Разработка", "ﬁnance", "Ⅻ team"]) {
      const id = baseIdentifier(name, "group");
      expect(isUsableIdentifier(id)).toBe(true);
      expect(compiles(id)).toBe(true);
    }
  });

  it("prefixes names that start with a digit with the kind, since an identifier cannot", () => {
    expect(baseIdentifier("2024 interns", "group")).toBe("group2024Interns");
    expect(baseIdentifier("10.0.0.0/8 route", "route")).toBe("route100008Route");
    expect(baseIdentifier("١٢ arabic digits", "group")).toMatch(/^group/);
    expect(compiles(baseIdentifier("2024 interns", "group"))).toBe(true);
  });

  it("falls back to the kind when a name has no usable character", () => {
    expect(baseIdentifier("🚀", "group")).toBe("group");
    expect(baseIdentifier("---", "policy")).toBe("policy");
    expect(baseIdentifier("", "dnsZone")).toBe("dnsZone");
    expect(identifierWords("🚀 launch 🚀")).toEqual(["launch"]);
  });

  it("cuts long names at a word boundary", () => {
    const id = baseIdentifier("a very long group name ".repeat(10), "group");
    expect(id.length).toBeLessThanOrEqual(MAX_IDENTIFIER_LENGTH);
    expect(id.startsWith("aVeryLongGroupName")).toBe(true);
    expect(baseIdentifier("x".repeat(300), "group")).toHaveLength(MAX_IDENTIFIER_LENGTH);
  });
});

describe("unique identifiers", () => {
  it("gives a taken name the kind, then a number", () => {
    const a = new IdentifierAllocator();
    expect(a.allocate("ops", "Group")).toBe("ops");
    expect(a.allocate("ops", "Policy")).toBe("opsPolicy");
    expect(a.allocate("ops", "Policy")).toBe("opsPolicy2");
    expect(a.allocate("OPS", "Policy")).toBe("opsPolicy3");
    expect(a.allocate("Ops!", "Group")).toBe("opsGroup");
  });

  it("never hands out a reserved word or a name the program declares", () => {
    const a = new IdentifierAllocator();
    for (const word of [
      "default",
      "class",
      "new",
      "delete",
      "import",
      "await",
      "enum",
      "pulumi",
      "privnet",
      "config",
      "require",
      "undefined",
    ]) {
      const id = a.allocate(word, "Group");
      expect(RESERVED.has(id)).toBe(false);
      expect(id).toBe(`${word}Group`);
      expect(compiles(id)).toBe(true);
    }
    a.reserve("allGroupId");
    expect(a.allocate("all group id", "Group")).toBe("allGroupIdGroup");
  });

  it("a kind-named base gets a number, not the kind twice", () => {
    const a = new IdentifierAllocator();
    expect(a.allocate("dns settings", "DnsSettings")).toBe("dnsSettings");
    expect(a.allocate("dns settings", "DnsSettings")).toBe("dnsSettings2");
    expect(a.allocate("🚀", "Group")).toBe("group");
    expect(a.allocate("🚀", "Group")).toBe("group2");
  });

  it("hands out distinct valid identifiers for many colliding and odd names", () => {
    const a = new IdentifierAllocator();
    const names = [
      "ops",
      "Ops",
      "OPS",
      "o-p-s",
      "ops 2",
      "ops2",
      "2",
      "🚀",
      "default",
      "開発",
      "開 発",
      "Über",
      "uber",
    ];
    const ids = [...names, ...names].map((n, i) => a.allocate(n, i % 2 ? "Policy" : "Group"));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(isUsableIdentifier(id)).toBe(true);
      expect(compiles(id)).toBe(true);
    }
  });
});

describe("resource names", () => {
  it("slugs names and makes them unique per resource type", () => {
    expect(slug("Ops SSH")).toBe("ops-ssh");
    expect(slug("Überwachung / Nord")).toBe("uberwachung-nord");
    expect(slug("開発")).toBe("開発");
    const r = new ResourceNameAllocator();
    expect(r.allocate("Group", "ops", "ops")).toBe("ops");
    expect(r.allocate("Group", "OPS", "opsGroup")).toBe("ops-2");
    expect(r.allocate("Policy", "ops", "opsPolicy")).toBe("ops");
    expect(r.allocate("Group", "🚀", "group")).toBe("group");
  });
});
