/** A Google Workspace directory sync integration. */
import { directorySyncProvider } from "../integrations";

export = directorySyncProvider("google-idp");
