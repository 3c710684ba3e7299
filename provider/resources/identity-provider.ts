/** Identity provider: an OIDC provider users sign in with. The client secret is write-only. */
import { IdentityProviderRequestSchema, IdentityProviderSchema } from "../../api/identity-provider";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "IdentityProvider",
  file: "identity-provider",
  description:
    "An identity provider users sign in with. `clientSecret` is a secret input the API never returns: it is " +
    "kept in state (encrypted) and sent again on every update; a change made elsewhere cannot be detected.",
  input: IdentityProviderRequestSchema,
  output: IdentityProviderSchema,
  ops: {
    create: "createIdentityProvider",
    read: "getIdentityProvider",
    update: "updateIdentityProvider",
    delete: "deleteIdentityProvider",
  },
  idParam: "idpId",
  writeOnly: ["clientSecret"],
  secretInputs: ["clientSecret"],
});
