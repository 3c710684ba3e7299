/** User: a service user (automation) or an invited regular user. */
import { z } from "../../api/common";
import { UserCreateSchema, UserSchema, UserUpdateSchema } from "../../api/user";
import { buildOutputs, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import { fromList } from "../read-batch";
import type { Props, ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "User",
  file: "user",
  description:
    "A user: a service user (`isServiceUser: true`, for automation with personal access tokens) or a regular " +
    "user invited by `email`. `role`, `autoGroups` and `isBlocked` change in place (a user created with " +
    "`isBlocked: true` is blocked right after it is made). The API cannot rename a user: a changed `name` is " +
    "not applied and preview warns about it (it never deletes the user). A new `email` or kind of user " +
    "replaces the user: deleting a user deletes the user's peers (devices) and tokens. With the embedded IdP " +
    "the initial `password` is a secret output.",
  input: UserCreateSchema.extend({
    is_blocked: z.boolean().optional().describe("Block the user; default false"),
  }),
  createBody: UserCreateSchema,
  output: UserSchema,
  updateBody: UserUpdateSchema,
  ops: { create: "createUser", read: "listUsers", update: "updateUser", delete: "deleteUser" },
  idParam: "userId",
  replaceOnChange: ["email", "isServiceUser"],
  createOnly: ["name"],
  deleteBeforeReplace: true,
  secretOutputs: ["password"],
  createOnlyOutputs: ["password"],
  defaults: { isBlocked: false },
};

// There is no GET of one user: read lists and picks (a list shared by the reads of a refresh, see provider/read-batch.ts).
spec.hooks = {
  async read(ctx, id, props: Props) {
    const user = await fromList(ctx, "listUsers", id);
    if (!user) return {};
    const outs = buildOutputs(spec, user, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
};

export = new PrivnetProvider(spec);
