/** Deprecated: EdrFalcon's earlier name (the spec's vendor-c), the same kind; kept for existing programs. */
import { edrProvider } from "../integrations";

export = edrProvider("falcon", { name: "EdrVendorC", file: "edr-vendor-c" });
