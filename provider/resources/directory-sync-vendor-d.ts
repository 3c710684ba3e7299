/** Directory sync integration vendor-d-idp. */
import { directorySyncProvider } from "../integrations";

export = directorySyncProvider("vendor-d-idp");
