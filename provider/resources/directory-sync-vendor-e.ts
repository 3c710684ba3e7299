/** Directory sync integration vendor-e-idp. The API host cannot change in place. */
import { directorySyncProvider } from "../integrations";

export = directorySyncProvider("vendor-e-idp", ["host"]);
