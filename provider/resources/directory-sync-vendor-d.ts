/** Deprecated: GoogleWorkspaceSync's earlier name (the spec's vendor-d-idp), the same kind. */
import { directorySyncProvider } from "../integrations";

export = directorySyncProvider("google-idp", [], {
  name: "DirectorySyncVendorD",
  file: "directory-sync-vendor-d",
});
