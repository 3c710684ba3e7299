/** Policy with rules: who may reach what. */
import { PolicyRequestSchema, PolicySchema } from "../../api/policy";
import { PrivnetProvider } from "../lifecycle";
import { isRecord, type Props } from "../spec";

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
    const oldRules = Array.isArray(olds.rules) ? olds.rules.filter(isRecord) : [];
    const rules: unknown[] = Array.isArray(body.rules) ? body.rules : [];
    return {
      ...body,
      rules: rules.map((r) =>
        !isRecord(r) || r.id ? r : { ...r, id: oldRules.find((o) => o.name === r.name)?.id },
      ),
    };
  },
});
