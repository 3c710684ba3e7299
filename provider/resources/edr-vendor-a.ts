/** Deprecated: EdrSentinelOne's earlier name (the spec's vendor-a), the same kind; kept for existing programs. */
import { edrProvider } from "../integrations";

export = edrProvider("sentinelone", { name: "EdrVendorA", file: "edr-vendor-a" });
