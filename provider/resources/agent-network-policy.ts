/** Agent Network policy: which groups' agents may use which LLM providers, under which guardrails and caps. */
import { AgentNetworkPolicyRequestSchema, AgentNetworkPolicySchema } from "../../api/agent-network";
import { dropLimitsOff } from "../agent-network-limits";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "AgentNetworkPolicy",
  file: "agent-network-policy",
  description:
    "Lets the members of `sourceGroups` use the LLM providers of `destinationProviderIds` through the account's " +
    "Agent Network gateway, under the guardrails of `guardrailIds` and the token and spending caps of `limits` " +
    "(per group and per user, over a window). A policy is enabled unless the program says otherwise. A limit is " +
    "checked only while it is enabled: then its window is at least 60 seconds and one of its caps is above zero.",
  input: AgentNetworkPolicyRequestSchema,
  output: AgentNetworkPolicySchema,
  ops: {
    create: "createAgentNetworkPolicy",
    read: "getAgentNetworkPolicy",
    update: "updateAgentNetworkPolicy",
    delete: "deleteAgentNetworkPolicy",
  },
  idParam: "policyId",
  defaults: { enabled: true },
  mergeOutputs: dropLimitsOff,
});
