/** User invite (embedded IdP): a link someone uses to join with a password. */
import { InviteCreateSchema, InviteSchema } from "../../api/invite";
import { buildOutputs, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import { fromList } from "../read-batch";
import type { Props, ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "UserInvite",
  file: "user-invite",
  description:
    "An invite link for a new user (servers with the embedded identity provider only). `inviteToken` is the " +
    "secret part of the link; it is only known after create and is kept as a secret output. Any change issues a " +
    "new invite.",
  input: InviteCreateSchema,
  output: InviteSchema,
  ops: { create: "createInvite", read: "listInvites", delete: "deleteInvite" },
  idParam: "inviteId",
  replaceOnChange: ["email", "name", "role", "autoGroups", "expiresIn"],
  deleteBeforeReplace: true,
  readBack: "create",
  writeOnly: ["expiresIn"],
  secretOutputs: ["inviteToken"],
  createOnlyOutputs: ["inviteToken"],
};

// There is no GET of one invite: read lists and picks (a list shared by the reads of a refresh, see provider/read-batch.ts).
spec.hooks = {
  async read(ctx, id, props: Props) {
    const invite = await fromList(ctx, "listInvites", id);
    if (!invite) return {};
    const outs = buildOutputs(spec, invite, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
};

export = new PrivnetProvider(spec);
