/** Agent Network budget rule: account-wide token and spending caps for groups and users. */
import { AgentNetworkBudgetRuleRequestSchema, AgentNetworkBudgetRuleSchema } from "../../api/agent-network";
import { dropLimitsOff } from "../agent-network-limits";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "AgentNetworkBudgetRule",
  file: "agent-network-budget-rule",
  description:
    "Account-wide caps on LLM use through the Agent Network gateway, over every policy: tokens and USD per group " +
    "and per user over a window, for the groups of `targetGroups` and the users of `targetUsers` (for every " +
    "caller when both are empty). Where several caps bind a caller, the lowest wins. A rule is enabled unless " +
    "the program says otherwise.",
  input: AgentNetworkBudgetRuleRequestSchema,
  output: AgentNetworkBudgetRuleSchema,
  ops: {
    create: "createAgentNetworkBudgetRule",
    read: "getAgentNetworkBudgetRule",
    update: "updateAgentNetworkBudgetRule",
    delete: "deleteAgentNetworkBudgetRule",
  },
  idParam: "ruleId",
  defaults: { enabled: true },
  mergeOutputs: dropLimitsOff,
});
