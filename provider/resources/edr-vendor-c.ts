/** EDR integration vendor-c (singleton). */
import { EdrVendorCRequestSchema, EdrVendorCSchema } from "../../api/edr";
import { PrivnetProvider } from "../lifecycle";
import { singletonHooks } from "../singleton";
import type { ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "EdrVendorC",
  file: "edr-vendor-c",
  description:
    "The vendor-c endpoint-protection (EDR) integration (one per account): peers of `groups` are checked " +
    "against the vendor. Creating the resource adopts an existing integration. `clientId` and `secret` are write-only: the API never returns " +
    "it, so it is kept in state (encrypted) and sent on every update.",
  input: EdrVendorCRequestSchema,
  output: EdrVendorCSchema,
  ops: {
    create: "createEdrVendorC",
    read: "getEdrVendorC",
    update: "updateEdrVendorC",
    delete: "deleteEdrVendorC",
  },
  writeOnly: ["clientId", "secret"],
  secretInputs: ["clientId", "secret"],
  defaults: { enabled: true, lastSyncedInterval: 24 },
  singleton: {},
};
spec.hooks = singletonHooks(spec, "vendor-c");

export = new PrivnetProvider(spec);
