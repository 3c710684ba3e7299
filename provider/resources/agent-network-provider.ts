/** Agent Network provider: an LLM provider the account's gateway forwards to, with its API key. */
import { AgentNetworkProviderCreateSchema, AgentNetworkProviderSchema } from "../../api/agent-network";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "AgentNetworkProvider",
  file: "agent-network-provider",
  description:
    "An LLM provider the account's Agent Network gateway forwards agents' requests to: a type of the catalog " +
    "(`providerId`), the upstream URL, the API key the gateway adds to each request (agents never hold it), and " +
    "the models offered with the prices the gateway meters at. `apiKey` is a secret, write-only input: the API " +
    "never returns it, so state keeps the program's (encrypted) and every update sends it again; a key changed " +
    "elsewhere cannot be detected. `enabled` is false unless the program sets it, as the service stores it. " +
    "Every change, `providerId` included, is made in place. A provider a policy names cannot be deleted.",
  input: AgentNetworkProviderCreateSchema,
  output: AgentNetworkProviderSchema,
  ops: {
    create: "createAgentNetworkProvider",
    read: "getAgentNetworkProvider",
    update: "updateAgentNetworkProvider",
    delete: "deleteAgentNetworkProvider",
  },
  idParam: "providerId",
  writeOnly: ["apiKey"],
  secretInputs: ["apiKey"],
});
