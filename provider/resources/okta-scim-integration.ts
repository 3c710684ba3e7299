/** Okta SCIM provisioning integration. */
import { scimProvider } from "../integrations";

export = scimProvider("okta-scim-idp");
