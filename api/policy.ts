/** Policy and rule (spec 2.9): who may reach what. */
import {
  GroupSummarySchema,
  advise,
  PortRangeSchema,
  ResourceRefInputSchema,
  ResourceRefSchema,
  hasItems,
  idList,
  isSet,
  issue,
  openEnum,
  portString,
  nameString,
  z,
} from "./common";

export const RuleAction = z.enum(["accept", "drop"]).describe("What the rule does with matching traffic");
export const RuleProtocol = openEnum(["all", "tcp", "udp", "icmp"], "Protocol the rule matches");

const ruleFields = {
  id: z.string().optional().describe("Rule id; assigned by the service"),
  name: nameString({ empty: "warn" }).describe("Rule name"),
  description: z.string().optional().describe("Rule description"),
  enabled: z.boolean().describe("Whether the rule is active"),
  action: RuleAction,
  bidirectional: z.boolean().describe("Applies in both directions"),
  protocol: RuleProtocol,
  ports: z.array(portString()).optional().describe("Ports the rule matches; only with tcp or udp"),
  port_ranges: z
    .array(PortRangeSchema)
    .optional()
    .describe("Port ranges the rule matches; only with tcp or udp; not together with ports"),
  authorized_groups: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe("Map of user group id to the local user names allowed to log in"),
};

export const RuleRequestSchema = z
  .object({
    ...ruleFields,
    sources: idList().optional().describe("Source group ids"),
    sourceResource: ResourceRefInputSchema.optional().describe("A network resource as the source"),
    destinations: idList().optional().describe("Destination group ids"),
    destinationResource: ResourceRefInputSchema.optional().describe("A network resource as the destination"),
  })
  .superRefine((r, ctx) => {
    if (hasItems(r.ports) && hasItems(r.port_ranges)) {
      issue(ctx, ["port_ranges"], "cannot be set together with ports");
    }
    if ((hasItems(r.ports) || hasItems(r.port_ranges)) && r.protocol !== "tcp" && r.protocol !== "udp") {
      issue(
        ctx,
        [hasItems(r.ports) ? "ports" : "port_ranges"],
        "may be set only when protocol is tcp or udp",
      );
    }
    // The service refuses a rule whose sources (or destinations) are absent, and stores one whose list is
    // empty: such a rule matches no traffic.
    if (!isSet(r.sources) && !isSet(r.sourceResource)) {
      issue(ctx, ["sources"], "is required: set sources (an empty list is allowed) or sourceResource");
    } else if (!hasItems(r.sources) && !isSet(r.sourceResource)) {
      advise(ctx, ["sources"], "is empty and sourceResource is not set: the rule matches no traffic");
    }
    if (hasItems(r.sources) && isSet(r.sourceResource)) {
      issue(ctx, ["sourceResource"], "cannot be set together with sources");
    }
    if (!isSet(r.destinations) && !isSet(r.destinationResource)) {
      issue(
        ctx,
        ["destinations"],
        "is required: set destinations (an empty list is allowed) or destinationResource",
      );
    } else if (!hasItems(r.destinations) && !isSet(r.destinationResource)) {
      advise(
        ctx,
        ["destinations"],
        "is empty and destinationResource is not set: the rule matches no traffic",
      );
    }
    if (hasItems(r.destinations) && isSet(r.destinationResource)) {
      issue(ctx, ["destinationResource"], "cannot be set together with destinations");
    }
  })
  .describe("Policy rule as written");

export const RuleSchema = z
  .strictObject({
    ...ruleFields,
    id: z.string().describe("Rule id"),
    description: z.string().describe("Rule description"),
    sources: z.array(GroupSummarySchema).describe("Source groups"),
    sourceResource: ResourceRefSchema.optional().describe("The network resource used as source"),
    destinations: z.array(GroupSummarySchema).describe("Destination groups"),
    destinationResource: ResourceRefSchema.optional().describe("The network resource used as destination"),
  })
  .describe("Policy rule as returned");

export const PolicyRequestSchema = z
  .object({
    name: nameString().describe("Policy name"),
    description: z.string().optional().describe("Policy description"),
    enabled: z.boolean().describe("Whether the policy is active"),
    source_posture_checks: idList().optional().describe("Posture check ids the source peers must pass"),
    rules: z
      .array(RuleRequestSchema)
      .min(1, { error: "must have at least one rule" })
      .describe("Policy rules"),
  })
  .describe("Policy create or replace body");

export const PolicySchema = z
  .strictObject({
    id: z.string().describe("Policy id"),
    name: z.string().describe("Policy name"),
    description: z.string().describe("Policy description"),
    enabled: z.boolean().describe("Whether the policy is active"),
    source_posture_checks: z.array(z.string()).describe("Posture check ids the source peers must pass"),
    rules: z.array(RuleSchema).describe("Policy rules"),
  })
  .describe("Access policy");

export type Policy = z.infer<typeof PolicySchema>;
export type PolicyRequest = z.infer<typeof PolicyRequestSchema>;
