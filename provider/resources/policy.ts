/** Policy with rules: who may reach what. */
import { PolicyRequestSchema, PolicySchema } from "../../api/policy";
import { PrivnetProvider } from "../lifecycle";
import type { Props } from "../spec";

export = new PrivnetProvider({
  name: "Policy",
  file: "policy",
  description:
    "An access policy: its rules allow (or drop) traffic from source groups or a resource to destination " +
    "groups or a resource. Rule ids are assigned by the service and kept across updates.",
  input: PolicyRequestSchema,
  output: PolicySchema,
  ops: { create: "createPolicy", read: "getPolicy", update: "updatePolicy", delete: "deletePolicy" },
  idParam: "policyId",
  // One server answers a policy with several rules as sent but keeps fewer (or drops a rule's sources): only a
  // read shows what is stored.
  readBack: "always",
  // Keep the service's rule ids stable: a rule sent without an id reuses the id of the old rule of that name.
  prepareUpdateBody: (body: Props, olds: Props) => {
    const oldRules = (olds.rules as { id?: string; name?: string }[] | undefined) ?? [];
    const rules = (body.rules as { id?: string; name?: string }[] | undefined) ?? [];
    return {
      ...body,
      rules: rules.map((r) => (r.id ? r : { ...r, id: oldRules.find((o) => o.name === r.name)?.id })),
    };
  },
});
