/** Deprecated: EdrIntune's earlier name (the spec's vendor-b), the same kind; kept for existing programs. */
import { edrProvider } from "../integrations";

export = edrProvider("intune", { name: "EdrVendorB", file: "edr-vendor-b" });
