/** SCIM provisioning integration (any SCIM-capable identity provider). */
import { scimProvider } from "../integrations";

export = scimProvider("scim-idp");
