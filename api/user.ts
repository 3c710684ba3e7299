/** User (spec 2.4): regular users (invited) and service users (automation). */
import { advise, emailString, idList, isSet, issue, nameString, openEnum, z } from "./common";

export const UserRole = openEnum(
  ["owner", "admin", "user", "billing_admin", "auditor", "network_admin"],
  "User role: owner, admin, user, billing_admin, auditor or network_admin",
);
export const UserStatus = z.enum(["active", "invited", "blocked"]).describe("User status");

export const PermissionsSchema = z
  .strictObject({
    is_restricted: z.boolean().describe("Whether the user's view of peers is restricted to their own"),
    modules: z
      .record(
        z.string(),
        z
          .strictObject({
            read: z.boolean().describe("May read"),
            create: z.boolean().describe("May create"),
            update: z.boolean().describe("May update"),
            delete: z.boolean().describe("May delete"),
          })
          .describe("Allowed operations"),
      )
      .describe("Module name to allowed operations"),
  })
  .describe("What the user may do");

export const UserSchema = z
  .strictObject({
    id: z.string().describe("User id"),
    email: z.string().describe("Email address (empty for service users)"),
    name: z.string().describe("Name"),
    password: z
      .string()
      .optional()
      .describe("Initial password of a user created with the embedded IdP; only in the create response"),
    role: UserRole,
    status: UserStatus,
    last_login: z.string().describe("Last login (zero time when never)"),
    auto_groups: z.array(z.string()).describe("Group ids assigned to peers this user enrolls"),
    is_current: z.boolean().describe("Whether this is the calling user"),
    is_service_user: z.boolean().describe("Whether this is a service user"),
    is_blocked: z.boolean().describe("Whether the user is blocked"),
    pending_approval: z.boolean().describe("Whether the user awaits approval"),
    issued: z.enum(["api", "integration", "jwt"]).describe("How the user was created"),
    idp_id: z.string().describe("User id at the identity provider"),
    permissions: PermissionsSchema,
  })
  .describe("User");

export const UserCreateSchema = z
  .object({
    email: emailString().optional().describe("Address to invite (regular users); ignored for a service user"),
    name: nameString({ empty: "warn" }).optional().describe("Name"),
    role: UserRole,
    auto_groups: idList().describe("Group ids assigned to peers this user enrolls"),
    is_service_user: z.boolean().describe("Create a service user instead of inviting a regular user"),
  })
  .superRefine((u, ctx) => {
    if (u.is_service_user === false && !isSet(u.email))
      issue(ctx, ["email"], "is required to invite a regular user");
    // The service ignores the address of a service user (stores it empty), and stores one without a name.
    if (u.is_service_user === true && isSet(u.email))
      advise(ctx, ["email"], "is ignored for a service user: the service stores it empty");
    if (u.is_service_user === true && !isSet(u.name))
      advise(ctx, ["name"], "is not set: the service stores a service user without a name");
    if (u.role === "owner") issue(ctx, ["role"], "owner cannot be assigned; the account has one owner");
  })
  .describe("User create body");

export const UserUpdateSchema = z
  .object({
    role: UserRole,
    auto_groups: idList().describe("Group ids assigned to peers this user enrolls"),
    is_blocked: z.boolean().describe("Block the user"),
  })
  .describe("User update body");

export const UserListQuerySchema = z
  .object({
    service_user: z
      .enum(["true", "false"])
      .optional()
      .describe("true: only service users; false: only regular users"),
  })
  .describe("User list filters");

export const PasswordChangeSchema = z
  .object({
    old_password: z.string().min(1, { error: "must not be empty" }).describe("Current password"),
    new_password: z
      .string()
      .min(8, { error: "must be at least 8 characters" })
      .describe("New password, at least 8 characters"),
  })
  .describe("Password change body");

export type User = z.infer<typeof UserSchema>;
export type UserRoleName = z.infer<typeof UserRole>;
