/** Setup key: enrolls peers. The full key is returned once, at create, and kept as a secret output. */
import { SetupKeyCreateSchema, SetupKeySchema, SetupKeyUpdateSchema } from "../../api/setup-key";
import { z } from "../../api/common";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "SetupKey",
  file: "setup-key",
  description:
    "A setup key that enrolls peers. The full `key` exists only in the create response: it is kept in state as " +
    "a secret output (reads return a masked form). Only `revoked` and `autoGroups` change in place; any other " +
    "change creates a new key.",
  input: SetupKeyCreateSchema.extend({
    revoked: z.boolean().optional().describe("Revoke the key; default false"),
  }),
  output: SetupKeySchema,
  updateBody: SetupKeyUpdateSchema,
  ops: { create: "createSetupKey", read: "getSetupKey", update: "updateSetupKey", delete: "deleteSetupKey" },
  idParam: "keyId",
  replaceOnChange: ["name", "type", "expiresIn", "usageLimit", "ephemeral", "allowExtraDnsLabels"],
  writeOnly: ["expiresIn"],
  secretOutputs: ["key"],
  createOnlyOutputs: ["key"],
  defaults: { revoked: false },
});
