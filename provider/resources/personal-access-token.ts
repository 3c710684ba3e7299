/** Personal access token of a user. The token value is returned once, at create, and kept as a secret. */
import { TokenCreateSchema, TokenSchema } from "../../api/token";
import { PrivnetProvider } from "../lifecycle";
import { expectRecord, type Props } from "../spec";

export = new PrivnetProvider({
  name: "PersonalAccessToken",
  file: "personal-access-token",
  description:
    "A personal access token of a user (typically a service user). `plainToken` is the value to authenticate " +
    "with; it exists only in the create response and is kept in state as a secret output. Tokens cannot be " +
    "changed: any change creates a new token.",
  input: TokenCreateSchema,
  output: TokenSchema,
  ops: { create: "createToken", read: "getToken", delete: "deleteToken" },
  idParam: "tokenId",
  parents: [{ input: "userId", param: "userId", description: "Id of the user who owns the token" }],
  replaceOnChange: ["name", "expiresIn", "userId"],
  writeOnly: ["expiresIn"],
  secretOutputs: ["plainToken"],
  createOnlyOutputs: ["plainToken"],
  unwrapCreate: (response: Props) => ({
    object: expectRecord(response.personal_access_token, "the answer's personal_access_token"),
    extra: { plain_token: response.plain_token },
  }),
  extraOutputs: {
    plainToken: { description: "The token value (secret); only known after create", type: "string" },
  },
});
