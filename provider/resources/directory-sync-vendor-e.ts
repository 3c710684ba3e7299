/** Deprecated: AzureAdSync's earlier name (the spec's vendor-e-idp), the same kind. */
import { directorySyncProvider } from "../integrations";

export = directorySyncProvider("azure-idp", ["host"], {
  name: "DirectorySyncVendorE",
  file: "directory-sync-vendor-e",
});
