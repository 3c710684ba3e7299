/** Invite (spec 2.5, embedded IdP only): a link that lets someone join with a password. */
import { idList, intRange, nameString, z } from "./common";
import { UserRole } from "./user";

/** Invite lifetime bounds in seconds: 1 hour to 30 days; default 72 hours. */
export const INVITE_DEFAULT_EXPIRES_IN = 259200;

const EXPIRES_IN_DOC = "Lifetime in seconds, 3600 to 2592000; default 259200 (72 hours)";
const expiresIn = () => intRange(3600, 2592000, "seconds");

export const InviteSchema = z
  .strictObject({
    id: z.string().describe("Invite id"),
    email: z.string().describe("Invited address"),
    name: z.string().describe("Invited person's name"),
    role: UserRole,
    auto_groups: z.array(z.string()).describe("Group ids for the user's peers"),
    expires_at: z.string().describe("Expiry time"),
    created_at: z.string().describe("Creation time"),
    expired: z.boolean().describe("Whether the invite has expired"),
    invite_token: z
      .string()
      .optional()
      .describe("Secret link token with a fixed prefix; only in the create response"),
  })
  .describe("Invite");

export const InviteCreateSchema = z
  .object({
    email: z.email({ error: "must be an email address" }).describe("Address to invite"),
    name: nameString(1, 255).describe("Invited person's name"),
    role: UserRole,
    auto_groups: idList().describe("Group ids for the user's peers"),
    expires_in: expiresIn().optional().describe(EXPIRES_IN_DOC),
  })
  .describe("Invite create body");

export const InviteRegenerateSchema = z
  .object({ expires_in: expiresIn().optional().describe(EXPIRES_IN_DOC) })
  .describe("Invite regenerate body");

export const InviteRegeneratedSchema = z
  .strictObject({
    invite_token: z.string().describe("The new secret link token"),
    invite_expires_at: z.string().describe("The new expiry time"),
  })
  .describe("A regenerated invite token");

export const InviteInfoSchema = z
  .strictObject({
    email: z.string().describe("Invited address"),
    name: z.string().describe("Invited person's name"),
    expires_at: z.string().describe("Expiry time"),
    valid: z.boolean().describe("Whether the invite can still be accepted"),
    invited_by: z.string().describe("Name of the inviting user"),
  })
  .describe("Public view of an invite");

export const InviteAcceptSchema = z
  .object({
    password: z
      .string()
      .min(8, { error: "must be at least 8 characters" })
      .describe("Password, at least 8 characters"),
  })
  .describe("Invite accept body");

export const InviteAcceptedSchema = z
  .strictObject({ success: z.boolean().describe("The user was created") })
  .describe("Invite accepted");

export type Invite = z.infer<typeof InviteSchema>;
