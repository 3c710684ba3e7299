/** Agent Network guardrail: checks a policy applies to the LLM requests it allows. */
import { AgentNetworkGuardrailRequestSchema, AgentNetworkGuardrailSchema } from "../../api/agent-network";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "AgentNetworkGuardrail",
  file: "agent-network-guardrail",
  description:
    "Checks an Agent Network policy applies to the LLM requests it allows: an allowlist of models (a request " +
    "for any other is refused) and prompt capture (only while the settings collect prompts too). A check left " +
    "out is off. Policies name guardrails by id; privnet-server refuses to delete one a policy names (the " +
    "service deletes it and leaves the policy naming nothing).",
  input: AgentNetworkGuardrailRequestSchema,
  output: AgentNetworkGuardrailSchema,
  ops: {
    create: "createAgentNetworkGuardrail",
    read: "getAgentNetworkGuardrail",
    update: "updateAgentNetworkGuardrail",
    delete: "deleteAgentNetworkGuardrail",
  },
  idParam: "guardrailId",
});
