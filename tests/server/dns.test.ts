import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
/** A distribution group for nameserver groups that need one (a nameserver group names at least one). */
let dist = "";
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
  dist = await newGroup("ns-default-dist");
});
afterAll(() => s.close());

const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);

async function newGroup(name: string): Promise<string> {
  return (await s.call("createGroup", { body: { name } })).body.id as string;
}

const nsBody = (over: Record<string, unknown> = {}) => ({
  name: "corp",
  description: "corporate resolvers",
  nameservers: [{ ip: "10.0.0.53", ns_type: "udp", port: 53 }],
  enabled: true,
  groups: [dist],
  primary: false,
  domains: ["corp.example"],
  search_domains_enabled: true,
  ...over,
});

describe("nameserver groups", () => {
  test("create, get, list, replace, delete (with audit events)", async () => {
    const g = await newGroup("ns-dist");
    const created = await s.call("createNameserverGroup", { body: nsBody({ name: "ns-a", groups: [g] }) });
    expect(created.body).toMatchObject({
      name: "ns-a",
      groups: [g],
      primary: false,
      domains: ["corp.example"],
    });
    const id = created.body.id as string;
    expect((await s.call("getNameserverGroup", { params: { nsgroupId: id } })).body).toEqual(created.body);
    expect((await s.call("listNameserverGroups")).body.map((x: any) => x.id)).toContain(id);
    const replaced = await s.call("updateNameserverGroup", {
      params: { nsgroupId: id },
      body: nsBody({ name: "ns-a2", primary: true, domains: [], search_domains_enabled: false }),
    });
    expect(replaced.body).toMatchObject({ id, name: "ns-a2", primary: true, domains: [], groups: [dist] });
    expect((await s.call("deleteNameserverGroup", { params: { nsgroupId: id } })).body).toEqual({});
    expectError(await s.call("getNameserverGroup", { params: { nsgroupId: id } }), 404);
    expect(auditCodes()).toEqual(
      expect.arrayContaining(["nameserver.group.add", "nameserver.group.update", "nameserver.group.delete"]),
    );
  });

  test("rule 3: 1 to 3 nameservers, name 1 to 40 characters", async () => {
    const ns = { ip: "1.1.1.1", ns_type: "udp", port: 53 };
    expectError(
      await s.call("createNameserverGroup", { body: nsBody({ nameservers: [] }) }),
      422,
      "nameservers",
    );
    expectError(
      await s.call("createNameserverGroup", { body: nsBody({ nameservers: [ns, ns, ns, ns] }) }),
      422,
      "nameservers",
    );
    expectError(await s.call("createNameserverGroup", { body: nsBody({ name: "" }) }), 422, "name");
    expectError(
      await s.call("createNameserverGroup", { body: nsBody({ name: "x".repeat(41) }) }),
      422,
      "name",
    );
    const ok = await s.call("createNameserverGroup", {
      body: nsBody({ name: "y".repeat(40), nameservers: [ns, ns, ns] }),
    });
    expect(ok.status).toBe(200);
  });

  test("rule 3: primary only with empty domains, empty domains only when primary, search domains need domains", async () => {
    expectError(
      await s.call("createNameserverGroup", { body: nsBody({ name: "p1", primary: true }) }),
      422,
      "primary",
    );
    expectError(
      await s.call("createNameserverGroup", {
        body: nsBody({ name: "p2", domains: [], search_domains_enabled: false }),
      }),
      422,
      "domains",
    );
    expectError(
      await s.call("createNameserverGroup", {
        body: nsBody({ name: "p3", primary: true, domains: [], search_domains_enabled: true }),
      }),
      422,
      "search_domains_enabled",
    );
  });

  test("unknown or no group ids are 422 naming groups; a duplicate name is 422; unknown ids are 404", async () => {
    expectError(
      await s.call("createNameserverGroup", { body: nsBody({ name: "u1", groups: ["nope"] }) }),
      422,
      /groups: unknown group id nope/,
    );
    expectError(
      await s.call("createNameserverGroup", { body: nsBody({ name: "u2", groups: [] }) }),
      422,
      /groups: must not be empty/,
    );
    await s.call("createNameserverGroup", { body: nsBody({ name: "dup" }) });
    expectError(await s.call("createNameserverGroup", { body: nsBody({ name: "dup" }) }), 422, /name: .*dup/);
    expectError(
      await s.call("updateNameserverGroup", { params: { nsgroupId: "missing" }, body: nsBody() }),
      404,
    );
    expectError(await s.call("deleteNameserverGroup", { params: { nsgroupId: "missing" } }), 404);
  });

  test("a group used by a nameserver group cannot be deleted", async () => {
    const g = await newGroup("ns-used");
    await s.call("createNameserverGroup", { body: nsBody({ name: "uses-group", groups: [g] }) });
    expectError(await s.call("deleteGroup", { params: { groupId: g } }), 400, /nameserver group uses-group/);
  });
});

describe("DNS settings", () => {
  test("GET wraps the settings in items; PUT returns them bare; unknown groups are 422", async () => {
    expect((await s.call("getDnsSettings")).body).toEqual({ items: { disabled_management_groups: [] } });
    const g = await newGroup("no-dns");
    const put = await s.call("updateDnsSettings", { body: { disabled_management_groups: [g] } });
    expect(put.body).toEqual({ disabled_management_groups: [g] });
    expect((await s.call("getDnsSettings")).body).toEqual({ items: { disabled_management_groups: [g] } });
    expect(auditCodes()).toContain("dns.setting.disabled.management.group.add");
    expectError(
      await s.call("updateDnsSettings", { body: { disabled_management_groups: [g, "ghost"] } }),
      422,
      "disabled_management_groups",
    );
    // The failed request changed nothing, and the group is now in use.
    expect((await s.call("getDnsSettings")).body.items.disabled_management_groups).toEqual([g]);
    expectError(await s.call("deleteGroup", { params: { groupId: g } }), 400, /DNS settings/);
    await s.call("updateDnsSettings", { body: { disabled_management_groups: [] } });
    expect(auditCodes()).toContain("dns.setting.disabled.management.group.delete");
    expect((await s.call("deleteGroup", { params: { groupId: g } })).status).toBe(200);
    expectError(await s.call("updateDnsSettings", { body: {} }), 422, "disabled_management_groups");
  });
});

const zoneBody = (over: Record<string, unknown> = {}) => ({
  name: "Internal",
  domain: "internal.example",
  enable_search_domain: false,
  distribution_groups: [] as string[],
  ...over,
});

describe("DNS zones", () => {
  test("create (enabled defaults to true), get, list, replace, delete", async () => {
    const g = await newGroup("zone-dist");
    const created = await s.call("createDnsZone", {
      body: zoneBody({ name: "z1", domain: "z1.example", distribution_groups: [g] }),
    });
    expect(created.body).toMatchObject({ name: "z1", enabled: true, records: [], distribution_groups: [g] });
    const id = created.body.id as string;
    expect((await s.call("getDnsZone", { params: { zoneId: id } })).body).toEqual(created.body);
    expect((await s.call("listDnsZones")).body.map((z: any) => z.id)).toContain(id);
    const replaced = await s.call("updateDnsZone", {
      params: { zoneId: id },
      body: zoneBody({ name: "z1b", domain: "z1.example", enabled: false, enable_search_domain: true }),
    });
    expect(replaced.body).toMatchObject({ id, name: "z1b", enabled: false, enable_search_domain: true });
    // PUT replaces: without `enabled` the zone is enabled again (the default).
    const again = await s.call("updateDnsZone", {
      params: { zoneId: id },
      body: zoneBody({ domain: "z1.example" }),
    });
    expect(again.body.enabled).toBe(true);
    expect((await s.call("deleteDnsZone", { params: { zoneId: id } })).body).toEqual({});
    expectError(await s.call("getDnsZone", { params: { zoneId: id } }), 404);
    expect(auditCodes()).toEqual(
      expect.arrayContaining(["dns.zone.create", "dns.zone.update", "dns.zone.delete"]),
    );
  });

  test("rule 4: a zone name has 1 to 255 characters", async () => {
    expectError(
      await s.call("createDnsZone", { body: zoneBody({ name: "", domain: "n0.example" }) }),
      422,
      "name",
    );
    expectError(
      await s.call("createDnsZone", { body: zoneBody({ name: "n".repeat(256), domain: "n1.example" }) }),
      422,
      "name",
    );
    const ok = await s.call("createDnsZone", {
      body: zoneBody({ name: "n".repeat(255), domain: "n2.example" }),
    });
    expect(ok.status).toBe(200);
  });

  test("bad domain and unknown distribution groups are 422; a duplicate domain is 409; unknown ids 404", async () => {
    expectError(await s.call("createDnsZone", { body: zoneBody({ domain: "not a domain" }) }), 422, "domain");
    expectError(
      await s.call("createDnsZone", {
        body: zoneBody({ domain: "d.example", distribution_groups: ["nope"] }),
      }),
      422,
      "distribution_groups",
    );
    await s.call("createDnsZone", { body: zoneBody({ name: "first", domain: "dup.example" }) });
    expectError(
      await s.call("createDnsZone", { body: zoneBody({ name: "second", domain: "DUP.example." }) }),
      409,
      /dup\.example/i,
    );
    expectError(await s.call("updateDnsZone", { params: { zoneId: "missing" }, body: zoneBody() }), 404);
    expectError(await s.call("deleteDnsZone", { params: { zoneId: "missing" } }), 404);
  });

  test("deleting a zone deletes its records; a group used by a zone cannot be deleted", async () => {
    const g = await newGroup("zone-used");
    const zone = (
      await s.call("createDnsZone", {
        body: zoneBody({ name: "del", domain: "del.example", distribution_groups: [g] }),
      })
    ).body;
    const rec = (
      await s.call("createDnsRecord", {
        params: { zoneId: zone.id },
        body: { name: "www.del.example", type: "A", content: "10.1.1.1", ttl: 300 },
      })
    ).body;
    expectError(await s.call("deleteGroup", { params: { groupId: g } }), 400, /DNS zone del/);
    await s.call("deleteDnsZone", { params: { zoneId: zone.id } });
    expect(s.server.state.store.get("dns_record", rec.id)).toBeUndefined();
    expectError(await s.call("getDnsRecord", { params: { zoneId: zone.id, recordId: rec.id } }), 404);
  });

  test("changing the domain may not strand records outside the zone", async () => {
    const zone = (await s.call("createDnsZone", { body: zoneBody({ name: "mv", domain: "mv.example" }) }))
      .body;
    await s.call("createDnsRecord", {
      params: { zoneId: zone.id },
      body: { name: "a.mv.example", type: "A", content: "10.0.0.1", ttl: 60 },
    });
    expectError(
      await s.call("updateDnsZone", {
        params: { zoneId: zone.id },
        body: zoneBody({ name: "mv", domain: "other.example" }),
      }),
      422,
      "domain",
    );
  });
});

describe("DNS records", () => {
  let zoneId: string;
  beforeAll(async () => {
    zoneId = (await s.call("createDnsZone", { body: zoneBody({ name: "recs", domain: "recs.example" }) }))
      .body.id;
  });

  test("create, get, list, replace, delete; the zone response carries its records", async () => {
    const created = await s.call("createDnsRecord", {
      params: { zoneId },
      body: { name: "app.recs.example", type: "A", content: "10.2.0.1", ttl: 300 },
    });
    const id = created.body.id as string;
    expect(created.body).toEqual({ id, name: "app.recs.example", type: "A", content: "10.2.0.1", ttl: 300 });
    expect((await s.call("getDnsRecord", { params: { zoneId, recordId: id } })).body).toEqual(created.body);
    expect((await s.call("listDnsRecords", { params: { zoneId } })).body).toContainEqual(created.body);
    expect((await s.call("getDnsZone", { params: { zoneId } })).body.records).toContainEqual(created.body);
    const replaced = await s.call("updateDnsRecord", {
      params: { zoneId, recordId: id },
      body: { name: "recs.example", type: "CNAME", content: "target.example", ttl: 0 },
    });
    expect(replaced.body).toEqual({
      id,
      name: "recs.example",
      type: "CNAME",
      content: "target.example",
      ttl: 0,
    });
    expect((await s.call("deleteDnsRecord", { params: { zoneId, recordId: id } })).body).toEqual({});
    expectError(await s.call("getDnsRecord", { params: { zoneId, recordId: id } }), 404);
    expect(auditCodes()).toEqual(
      expect.arrayContaining(["dns.zone.record.create", "dns.zone.record.update", "dns.zone.record.delete"]),
    );
  });

  test("rule 4: the record name must be the zone domain or a subdomain of it", async () => {
    const body = (name: string) => ({ name, type: "A", content: "10.0.0.9", ttl: 60 });
    expectError(
      await s.call("createDnsRecord", { params: { zoneId }, body: body("other.example") }),
      422,
      "name",
    );
    expectError(
      await s.call("createDnsRecord", { params: { zoneId }, body: body("evilrecs.example") }),
      422,
      "name",
    );
    expect((await s.call("createDnsRecord", { params: { zoneId }, body: body("recs.example") })).status).toBe(
      200,
    );
    expect(
      (await s.call("createDnsRecord", { params: { zoneId }, body: body("a.b.RECS.example") })).status,
    ).toBe(200);
  });

  test("rule 4: record content has 1 to 255 characters and matches the type", async () => {
    const body = (type: string, content: string) => ({ name: "c.recs.example", type, content, ttl: 60 });
    expectError(await s.call("createDnsRecord", { params: { zoneId }, body: body("A", "") }), 422, "content");
    const long = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}.e`; // 256 characters
    expect(long).toHaveLength(256);
    expectError(
      await s.call("createDnsRecord", { params: { zoneId }, body: body("CNAME", long) }),
      422,
      "content",
    );
    expectError(
      await s.call("createDnsRecord", { params: { zoneId }, body: body("A", "not-an-ip") }),
      422,
      "content",
    );
    expectError(
      await s.call("createDnsRecord", { params: { zoneId }, body: body("AAAA", "10.0.0.1") }),
      422,
      "content",
    );
    expectError(
      await s.call("createDnsRecord", { params: { zoneId }, body: { ...body("A", "10.0.0.1"), ttl: -1 } }),
      422,
      "ttl",
    );
    expectError(
      await s.call("createDnsRecord", { params: { zoneId }, body: body("MX", "10.0.0.1") }),
      422,
      "type",
    );
  });

  test("a round-robin set is stored; a CNAME is alone on its name (a second record there is 422 naming name)", async () => {
    const rec = (name: string, type: string, content: string) =>
      s.call("createDnsRecord", { params: { zoneId }, body: { name, type, content, ttl: 60 } });
    expect((await rec("rr.recs.example", "A", "10.3.0.1")).status).toBe(200);
    expect((await rec("rr.recs.example", "A", "10.3.0.2")).status).toBe(200);
    expect((await rec("rr.recs.example", "AAAA", "2001:db8::3")).status).toBe(200);
    expectError(await rec("rr.recs.example", "CNAME", "target.example"), 422, "name");
    const cname = (await rec("alias.recs.example", "CNAME", "a.example")).body;
    expectError(await rec("ALIAS.recs.example", "CNAME", "b.example"), 422, "name");
    expectError(await rec("alias.recs.example", "A", "10.3.0.3"), 422, "name");
    // The CNAME itself may change its content; a record elsewhere may not become a second one there.
    const updated = await s.call("updateDnsRecord", {
      params: { zoneId, recordId: cname.id },
      body: { name: "alias.recs.example", type: "CNAME", content: "c.example", ttl: 60 },
    });
    expect(updated.status).toBe(200);
    const other = (await rec("other.recs.example", "A", "10.3.0.4")).body;
    expectError(
      await s.call("updateDnsRecord", {
        params: { zoneId, recordId: other.id },
        body: { name: "alias.recs.example", type: "A", content: "10.3.0.4", ttl: 60 },
      }),
      422,
      "name",
    );
  });

  test("a record of another zone is 404; an unknown zone is 404; an identical record is 409", async () => {
    const other = (await s.call("createDnsZone", { body: zoneBody({ name: "oth", domain: "oth.example" }) }))
      .body.id;
    const rec = (
      await s.call("createDnsRecord", {
        params: { zoneId: other },
        body: { name: "x.oth.example", type: "A", content: "10.9.9.9", ttl: 60 },
      })
    ).body;
    expectError(await s.call("getDnsRecord", { params: { zoneId, recordId: rec.id } }), 404);
    expectError(
      await s.call("updateDnsRecord", {
        params: { zoneId, recordId: rec.id },
        body: { name: "x.recs.example", type: "A", content: "10.9.9.9", ttl: 60 },
      }),
      404,
    );
    expectError(await s.call("deleteDnsRecord", { params: { zoneId, recordId: rec.id } }), 404);
    expectError(await s.call("listDnsRecords", { params: { zoneId: "missing" } }), 404);
    expectError(
      await s.call("createDnsRecord", {
        params: { zoneId: other },
        body: { name: "x.oth.example", type: "A", content: "10.9.9.9", ttl: 120 },
      }),
      409,
    );
  });
});
