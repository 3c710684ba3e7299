/** User: a service user (automation) or an invited regular user. */
import { z } from "../../api/common";
import { UserCreateSchema, UserSchema, UserUpdateSchema } from "../../api/user";
import { buildOutputs, inputsFromOutputs } from "../lifecycle";
import { PrivnetProvider } from "../lifecycle";
import type { Props, ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "User",
  file: "user",
  description:
    "A user: a service user (`isServiceUser: true`, for automation with personal access tokens) or a regular " +
    "user invited by `email`. `role`, `autoGroups` and `isBlocked` change in place; a new email, name or kind " +
    "of user replaces it. With the embedded IdP the initial `password` is a secret output.",
  input: UserCreateSchema.extend({
    is_blocked: z.boolean().optional().describe("Block the user; default false"),
  }),
  output: UserSchema,
  updateBody: UserUpdateSchema,
  ops: { create: "createUser", read: "listUsers", update: "updateUser", delete: "deleteUser" },
  idParam: "userId",
  replaceOnChange: ["email", "name", "isServiceUser"],
  deleteBeforeReplace: true,
  secretOutputs: ["password"],
  createOnlyOutputs: ["password"],
  defaults: { isBlocked: false },
};

// There is no GET of one user: read lists and picks.
spec.hooks = {
  async read(ctx, id, props: Props) {
    const users = (await ctx.client.call("listUsers")) as Props[];
    const user = users.find((u) => u.id === id);
    if (!user) return {};
    const outs = buildOutputs(spec, user, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
};

export = new PrivnetProvider(spec);
