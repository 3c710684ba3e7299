/**
 * DnsZoneBundle: a DNS zone and its records in one declaration.
 *
 * Children and their names (`<name>` is the component's resource name):
 * - the DnsZone `<name>`;
 * - one DnsRecord per `records` entry, named by the entry alone (never by its position, nor by its siblings, so
 *   that adding or removing one record of a round-robin set is that record's create or delete alone):
 *   `<name>-<record name>-<type>-<content>` for a record that may share its name with others (A, AAAA: a
 *   round-robin set; its content is what tells it apart), `<name>-<record name>-CNAME` for a CNAME, which the
 *   service keeps alone on its name (its content updates in place).
 *
 * Earlier builds named a record alone in its set `<name>-<record name>-<type>` and added the content only while a
 * set had several, so a set growing from one record or shrinking to one renamed the record that stayed. A record
 * alone in its set is declared with that earlier name as an alias: a stack made by those builds previews with no
 * change.
 */
import { nameInZone } from "../api/dns-record";
import { DnsZoneRequestSchema } from "../api/dns-zone";
import { idList, intMin, openEnum, strLen, z } from "../api/common";
import {
  at,
  computed,
  entriesOf,
  keyEntries,
  Pending,
  ref,
  UNKNOWN,
  type ComponentFailure,
  type ComponentSpec,
  type PlannedChild,
  type PlanValue,
  type Props,
} from "./spec";

/** A record's time to live when the program gives none. */
export const DEFAULT_TTL = 300;

const zoneFields = DnsZoneRequestSchema.shape;

const RecordEntry = z
  .object({
    name: strLen(1, 255).describe(
      "Record name: a name in the zone's domain as it is (`db.internal.example.com`), any other relative to " +
        "it (`db`), `@` for the domain itself. With `type`, the record's key: a new name replaces the record",
    ),
    type: openEnum(
      ["A", "AAAA", "CNAME"],
      "Record type. With `name`, the record's key: a new type replaces it",
    ),
    content: strLen(1, 255).describe(
      "An IPv4 address for A, IPv6 for AAAA, a domain for CNAME. A change updates the record in place",
    ),
    ttl: intMin(0, "seconds")
      .optional()
      .describe(`Time to live in seconds; default ${DEFAULT_TTL}. A change updates the record in place`),
  })
  .describe("A record of a DNS zone bundle");

const inputs = z
  .object({
    name: zoneFields.name.describe("Zone name, 1 to 255 characters. A change updates the zone in place"),
    domain: zoneFields.domain.describe("Zone domain (FQDN). A change updates the zone in place"),
    distribution_groups: idList().describe(
      "Groups whose peers get the zone. A change updates the zone in place",
    ),
    enable_search_domain: z
      .boolean()
      .optional()
      .describe(
        "Add the zone's domain to the peers' search domains; default false. A change updates in place",
      ),
    enabled: z
      .boolean()
      .optional()
      .describe("Whether the zone is served; default true. A change updates in place"),
    records: z
      .array(RecordEntry)
      .optional()
      .describe(
        "The zone's records. Adding one creates a record, removing one deletes it; reordering changes nothing",
      ),
  })
  .describe("DnsZoneBundle inputs");

/**
 * Whether records of this type may share a name (a round-robin set), so that a record's content is part of what
 * names it. Only a CNAME is alone on its name (the service answers 422 to a second record of any type there).
 */
function sharesName(type: unknown): boolean {
  return typeof type !== "string" || type.toUpperCase() !== "CNAME";
}

/** A record's full name in the zone `domain` (see the `name` input); lower-cased domains compare alike. */
export function recordName(name: unknown, domain: unknown): unknown {
  if (typeof name !== "string" || typeof domain !== "string") return name;
  const d = domain.replace(/\.$/, "");
  if (name === "@") return d;
  return nameInZone(name, d) ? name : `${name.replace(/\.$/, "")}.${d}`;
}

export const DNS_ZONE_BUNDLE: ComponentSpec = {
  name: "DnsZoneBundle",
  file: "dns-zone-bundle",
  description:
    "A DNS zone with its records, in one declaration. It creates a `DnsZone` served to `distributionGroups` and " +
    "one `DnsRecord` per `records` entry. A record's name is taken as it is when it is in the zone's domain, " +
    "and relative to the domain otherwise (`db` is `db.<domain>`, `@` the domain itself). The children are the " +
    "same resources a program declares itself, shown under the component.\n\n" +
    "Each record is named by its entry alone, never by its position or by the other entries: its full name, " +
    "type and content (`<component>-<name>-<type>-<content>`), as an A or AAAA record may share its name and " +
    "type with others (a round-robin set); a CNAME, alone on its name, by its full name and type " +
    "(`<component>-<name>-CNAME`). Reordering `records` changes nothing; adding an entry creates that record " +
    "and removing one deletes that record alone, also in a round-robin set; changing a ttl, or a CNAME's " +
    "content, updates the record in place; changing an A or AAAA record's content creates the new record, then " +
    "deletes the old one; changing a name or type replaces the record. A change to the zone's name, domain, " +
    "groups or flags updates the zone in place.",
  inputs,
  outputs: {
    zoneId: { type: "string", description: "Id of the zone" },
    recordIds: { type: "string[]", description: "Ids of the records, in the order of `records`" },
  },
  plan(name, values, preview) {
    const children: PlannedChild[] = [
      {
        id: "zone",
        kind: "DnsZone",
        name,
        inputs: {
          name: at("name"),
          domain: at("domain"),
          distributionGroups: at("distributionGroups"),
          enableSearchDomain: at("enableSearchDomain", false),
          enabled: at("enabled"),
        },
        origin: {
          path: "",
          fields: Object.fromEntries(
            ["name", "domain", "distributionGroups", "enableSearchDomain", "enabled"].map((f) => [f, f]),
          ),
        },
      },
    ];
    const outputs: Record<string, PlanValue> = { zoneId: ref("zone") };
    const records = entriesOf(values, "records");
    if (records === UNKNOWN) {
      outputs.recordIds = new Pending("records");
      return { children, outputs, failures: [] };
    }
    const failures: ComponentFailure[] = [];
    const domain = values.domain;
    /** name + type, lower-cased: UNKNOWN while either (or the domain, for a relative name) is not known. */
    const base = (e: Props): string | typeof UNKNOWN | undefined => {
      if (e.name === UNKNOWN || e.type === UNKNOWN) return UNKNOWN;
      if (typeof e.name !== "string" || e.name === "" || typeof e.type !== "string" || e.type === "")
        return undefined;
      const full = domain === UNKNOWN && e.name !== "@" ? UNKNOWN : recordName(e.name, domain);
      return full === UNKNOWN
        ? UNKNOWN
        : `${String(full).toLowerCase().replace(/\.$/, "")}-${e.type.toUpperCase()}`;
    };
    /** How many entries share each name and type (a round-robin set), for the names of the earlier version. */
    const counts = new Map<string, number>();
    for (const e of records) {
      const b = base(e);
      if (typeof b === "string" && b !== UNKNOWN) counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    const keyed = keyEntries(
      "records",
      records,
      (e) => {
        const b = base(e);
        if (b === undefined || b === UNKNOWN || !sharesName(e.type)) return b;
        if (e.content === UNKNOWN) return UNKNOWN;
        return typeof e.content === "string" && e.content !== "" ? `${b}-${e.content}` : undefined;
      },
      preview,
      { property: "name", reason: "is required, with type (and content, but for a CNAME)" },
      (k) =>
        k.endsWith("-CNAME")
          ? "a CNAME is the only record of its name (the service refuses a second one)"
          : "a record set repeats a name and a type only with different contents",
    );
    failures.push(...keyed.failures);
    const ids: PlanValue[] = [];
    for (const [i, k] of keyed.keys.entries()) {
      if (k === undefined) continue;
      const p = `records[${i}]`;
      const b = base(records[i]!);
      // A record alone in its set had no content in its name before: that name is its alias (see the file comment).
      const earlier =
        typeof b === "string" && b !== UNKNOWN && b !== k && counts.get(b) === 1
          ? [`${name}-${b}`]
          : undefined;
      children.push({
        id: `record:${k}`,
        kind: "DnsRecord",
        name: `${name}-${k}`,
        ...(earlier ? { aliases: earlier } : {}),
        inputs: {
          zoneId: ref("zone"),
          name: computed([at(`${p}.name`), at("domain")], recordName),
          type: at(`${p}.type`),
          content: at(`${p}.content`),
          ttl: at(`${p}.ttl`, DEFAULT_TTL),
        },
        origin: { path: p, fields: { name: "name", type: "type", content: "content", ttl: "ttl" } },
      });
      ids.push(ref(`record:${k}`));
    }
    outputs.recordIds = ids;
    return { children, outputs, failures };
  },
};
