/** Setup key: enrolls peers. The full key is returned once, at create, and kept as a secret output. */
import { SetupKeyCreateSchema, SetupKeySchema, SetupKeyUpdateSchema } from "../../api/setup-key";
import { z } from "../../api/common";
import { PrivnetProvider } from "../lifecycle";
import type { Props } from "../spec";

export = new PrivnetProvider({
  name: "SetupKey",
  file: "setup-key",
  description:
    "A setup key that enrolls peers. The full `key` exists only in the create response: it is kept in state as " +
    "a secret output (reads return a masked form). Only `revoked` and `autoGroups` change in place; any other " +
    "change creates a new key. A key created with `revoked: true` is revoked right after it is made; a revoked " +
    "key cannot be un-revoked, so `revoked: true` -> `false` creates a new key (the old key's enrolled peers " +
    "stay).",
  input: SetupKeyCreateSchema.extend({
    revoked: z.boolean().optional().describe("Revoke the key; default false"),
  }),
  createBody: SetupKeyCreateSchema,
  output: SetupKeySchema,
  updateBody: SetupKeyUpdateSchema,
  ops: { create: "createSetupKey", read: "getSetupKey", update: "updateSetupKey", delete: "deleteSetupKey" },
  idParam: "keyId",
  replaceOnChange: ["name", "type", "expiresIn", "usageLimit", "ephemeral", "allowExtraDnsLabels"],
  replaceWhen: (olds: Props, news: Props) =>
    olds.revoked === true && news.revoked !== true ? ["revoked"] : [],
  writeOnly: ["expiresIn"],
  secretOutputs: ["key"],
  createOnlyOutputs: ["key"],
  defaults: { revoked: false },
});
