/** EDR integration vendor-b (singleton). */
import { EdrVendorBRequestSchema, EdrVendorBSchema } from "../../api/edr";
import { PrivnetProvider } from "../lifecycle";
import { singletonHooks } from "../singleton";
import type { ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "EdrVendorB",
  file: "edr-vendor-b",
  description:
    "The vendor-b endpoint-protection (EDR) integration (one per account): peers of `groups` are checked " +
    "against the vendor. Creating the resource adopts an existing integration. `secret` is write-only: the API never returns " +
    "it, so it is kept in state (encrypted) and sent on every update.",
  input: EdrVendorBRequestSchema,
  output: EdrVendorBSchema,
  ops: {
    create: "createEdrVendorB",
    read: "getEdrVendorB",
    update: "updateEdrVendorB",
    delete: "deleteEdrVendorB",
  },
  writeOnly: ["secret"],
  secretInputs: ["secret"],
  defaults: { enabled: true },
  singleton: {},
};
spec.hooks = singletonHooks(spec, "vendor-b");

export = new PrivnetProvider(spec);
