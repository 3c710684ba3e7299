/**
 * Segment: a class of machines and the access into it, as a team says it ("the database tier: only the app tier
 * may reach it, on 5432"). A group, an optional setup key that enrolls peers into that group, and one policy per
 * `allow` entry, each letting the entry's groups reach the segment's group.
 *
 * Children and their names (`<name>` is the component's resource name):
 * - the Group `<name>`;
 * - the SetupKey `<name>`, when `setupKeyOptions` is set (the input is not named `setupKey`: that is the output,
 *   the key itself, and Pulumi takes an output named like an input for that input);
 * - one Policy `<name>-<key>` per `allow` entry, whose key is its `description`, or, without one, `from:` and its
 *   group ids sorted (`from:id1,id2`). Two entries with one key fail at preview: give them descriptions.
 */
import { SetupKeyCreateSchema, SetupKeyType } from "../api/setup-key";
import { idList, nameString, openEnum, portString, z } from "../api/common";
import {
  at,
  computed,
  entriesOf,
  keyEntries,
  keyText,
  Pending,
  ref,
  UNKNOWN,
  type ComponentSpec,
  type PlannedChild,
  type PlanValue,
} from "./spec";

/** A new key's lifetime when the program gives none: 30 days. */
export const DEFAULT_KEY_LIFETIME = 30 * 86400;

const SetupKeyOptions = z
  .object({
    name: nameString()
      .optional()
      .describe("Key name; default the segment's `name`. A change creates a new key"),
    type: SetupKeyType.optional().describe(
      "`one-off` (a single use) or `reusable` (many uses); default `reusable`. A change creates a new key",
    ),
    expires_in: SetupKeyCreateSchema.shape.expires_in
      .optional()
      .describe(
        `Lifetime in seconds, 0 for a key that never expires; default ${DEFAULT_KEY_LIFETIME} (30 days). A change ` +
          "creates a new key",
      ),
    usage_limit: SetupKeyCreateSchema.shape.usage_limit
      .optional()
      .describe("Number of enrollments allowed, 0 for unlimited; default 0. A change creates a new key"),
    ephemeral: z
      .boolean()
      .optional()
      .describe("Peers enrolled with the key are ephemeral; default false. A change creates a new key"),
    revoked: z
      .boolean()
      .optional()
      .describe(
        "Revoke the key (peers already enrolled stay); default false. Revoking is an update in place; " +
          "un-revoking creates a new key",
      ),
  })
  .describe("The setup key of a segment: it enrolls peers into the segment's group");

const AllowEntry = z
  .object({
    from: idList().describe(
      "Ids of the groups whose peers may reach the segment's peers. Without a `description`, these ids are the " +
        "entry's key: changing them replaces its policy",
    ),
    protocol: openEnum(
      ["all", "tcp", "udp", "icmp"],
      "Protocol allowed. A change updates the entry's policy in place",
    ),
    ports: z
      .array(portString())
      .optional()
      .describe(
        "Ports allowed (tcp and udp only); absent: every port. A change updates the entry's policy in place",
      ),
    description: z
      .string()
      .optional()
      .describe(
        "What the access is for: the entry's key, its policy's name and description. A change of the key " +
          "replaces the policy",
      ),
  })
  .describe("Access into a segment: peers of the `from` groups may reach the segment's peers");

const inputs = z
  .object({
    name: nameString().describe(
      "Name of the segment's group, unique in the account. A change renames the group in place",
    ),
    setup_key_options: SetupKeyOptions.optional().describe(
      "A setup key enrolling peers into the segment's group; absent: none. Adding it creates the key, removing it " +
        "deletes the key (peers it enrolled stay)",
    ),
    allow: z
      .array(AllowEntry)
      .optional()
      .describe(
        "Who may reach the segment, one policy each. Adding an entry creates its policy, removing one deletes it; " +
          "reordering changes nothing",
      ),
  })
  .describe("Segment inputs");

/** The name of an entry's policy: its description, else `<group>: <protocol> <ports>`. */
function policyName(description: unknown, group: unknown, protocol: unknown, ports: unknown): string {
  if (typeof description === "string" && description !== "") return description;
  const list = Array.isArray(ports) && ports.length ? ` ${ports.join(",")}` : "";
  return `${String(group)}: ${String(protocol)}${list}`;
}

export const SEGMENT: ComponentSpec = {
  name: "Segment",
  file: "segment",
  description:
    "A segment: a class of machines and the access into it, in one declaration. It creates a `Group` named " +
    "`name`, a `SetupKey` that enrolls peers into that group when `setupKeyOptions` is set, and one `Policy` per `allow` " +
    "entry, letting the entry's `from` groups reach the group on its `protocol` and `ports` (one rule, accept, " +
    "one direction). The children are the same resources a program declares itself, shown under the component.\n\n" +
    "Each child is named by its entry's key, never by its position: the group and the key take the component's " +
    "name, an entry's policy `<component>-<key>`, where the key is the entry's `description`, or `from:` and its " +
    "group ids sorted when it has none. Reordering `allow` changes nothing; changing an entry's protocol or ports " +
    "updates its policy in place; changing its key replaces its policy; removing an entry deletes its policy " +
    "alone. Renaming the segment renames its group in place; a change to the key's name, type, lifetime, usage " +
    "limit or ephemeral flag creates a new key (a setup key cannot change them in place).\n\n" +
    "`setupKey` is a secret output: the key itself, known only at its creation and kept in the state encrypted.",
  inputs,
  outputs: {
    groupId: { type: "string", description: "Id of the segment's group" },
    setupKey: {
      type: "string",
      optional: true,
      secret: true,
      description:
        "The setup key enrolling peers into the segment (secret); absent without `setupKeyOptions`",
    },
    policyIds: {
      type: "string[]",
      description: "Ids of the policies, one per `allow` entry, in the order of `allow`",
    },
  },
  plan(name, values, preview) {
    const children: PlannedChild[] = [
      {
        id: "group",
        kind: "Group",
        name,
        inputs: { name: at("name") },
        origin: { path: "", fields: { name: "name" } },
      },
    ];
    const key = values.setupKeyOptions;
    const hasKey = key !== undefined && key !== null;
    if (hasKey) {
      children.push({
        id: "key",
        kind: "SetupKey",
        name,
        inputs: {
          name: at("setupKeyOptions.name", at("name")),
          type: at("setupKeyOptions.type", "reusable"),
          expiresIn: at("setupKeyOptions.expiresIn", DEFAULT_KEY_LIFETIME),
          autoGroups: [ref("group")],
          usageLimit: at("setupKeyOptions.usageLimit", 0),
          ephemeral: at("setupKeyOptions.ephemeral"),
          revoked: at("setupKeyOptions.revoked"),
        },
        origin: {
          path: "setupKeyOptions",
          fields: Object.fromEntries(
            ["name", "type", "expiresIn", "usageLimit", "ephemeral", "revoked"].map((f) => [f, f]),
          ),
        },
      });
    }
    const entries = entriesOf(values, "allow");
    const outputs: Record<string, PlanValue> = {
      groupId: ref("group"),
      setupKey: hasKey ? ref("key", "key") : null,
    };
    if (entries === UNKNOWN) {
      outputs.policyIds = new Pending("allow");
      return { children, outputs, failures: [] };
    }
    const { keys, failures } = keyEntries(
      "allow",
      entries,
      (e) => {
        const d = keyText(e.description);
        if (d !== undefined) return d;
        const from = keyText(e.from);
        return from === UNKNOWN ? UNKNOWN : from === undefined ? undefined : `from:${from}`;
      },
      preview,
      { property: "from", reason: "is required: name the groups allowed in (or give a description)" },
      "give each entry a description",
    );
    const policyIds: PlanValue[] = [];
    for (const [i, k] of keys.entries()) {
      if (k === undefined) continue;
      const p = `allow[${i}]`;
      const title = computed(
        [at(`${p}.description`), at("name"), at(`${p}.protocol`), at(`${p}.ports`)],
        policyName,
      );
      children.push({
        id: `policy:${k}`,
        kind: "Policy",
        name: `${name}-${k}`,
        inputs: {
          name: title,
          description: at(`${p}.description`),
          enabled: true,
          rules: [
            {
              name: "allow",
              enabled: true,
              action: "accept",
              bidirectional: false,
              protocol: at(`${p}.protocol`),
              ports: at(`${p}.ports`),
              sources: at(`${p}.from`),
              destinations: [ref("group")],
            },
          ],
        },
        origin: {
          path: p,
          fields: {
            name: "description",
            description: "description",
            "rules[0].protocol": "protocol",
            "rules[0].ports": "ports",
            "rules[0].sources": "from",
          },
        },
      });
      policyIds.push(ref(`policy:${k}`));
    }
    outputs.policyIds = policyIds;
    return { children, outputs, failures };
  },
};
