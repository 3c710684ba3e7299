/** An Azure AD (Microsoft Entra ID) directory sync integration. The Graph API host cannot change in place. */
import { directorySyncProvider } from "../integrations";

export = directorySyncProvider("azure-idp", ["host"]);
