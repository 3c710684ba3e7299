/** EDR integration vendor-a (singleton). */
import { EdrVendorARequestSchema, EdrVendorASchema } from "../../api/edr";
import { PrivnetProvider } from "../lifecycle";
import { singletonHooks } from "../singleton";
import type { ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "EdrVendorA",
  file: "edr-vendor-a",
  description:
    "The vendor-a endpoint-protection (EDR) integration (one per account): peers of `groups` are checked " +
    "against the vendor. Creating the resource adopts an existing integration. `apiToken` is write-only: the API never returns " +
    "it, so it is kept in state (encrypted) and sent on every update.",
  input: EdrVendorARequestSchema,
  output: EdrVendorASchema,
  ops: {
    create: "createEdrVendorA",
    read: "getEdrVendorA",
    update: "updateEdrVendorA",
    delete: "deleteEdrVendorA",
  },
  writeOnly: ["apiToken"],
  secretInputs: ["apiToken"],
  defaults: { enabled: true },
  singleton: {},
};
spec.hooks = singletonHooks(spec, "vendor-a");

export = new PrivnetProvider(spec);
