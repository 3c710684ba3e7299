/** Invite (spec 2.5, embedded IdP only): a link that lets someone join with a password. */
import { MAX_LIFETIME_SECONDS, advise, emailString, idList, nameString, z } from "./common";
import { UserRole } from "./user";

/** An invite's default lifetime in seconds: 72 hours. */
export const INVITE_DEFAULT_EXPIRES_IN = 259200;

/** The shortest invite lifetime the service accepts: one hour. */
export const INVITE_MIN_EXPIRES_IN = 3600;

const EXPIRES_IN_DOC =
  "Lifetime in seconds, at least 3600; 0 or absent: the default 259200 (72 hours); a negative value is taken " +
  "as 0, with a warning";

/**
 * An invite's lifetime as the service takes it: at least an hour; 0 (or nothing) is the default, and so, with an
 * advisory, is a negative value. No upper bound but the one the service computes with (see MAX_LIFETIME_SECONDS).
 */
const expiresIn = () =>
  z
    .number()
    .int({ error: "must be an integer" })
    .max(MAX_LIFETIME_SECONDS, { error: `must be at most ${MAX_LIFETIME_SECONDS} seconds` })
    .superRefine((n, ctx) => {
      if (n > 0 && n < INVITE_MIN_EXPIRES_IN)
        ctx.addIssue({
          code: "custom",
          message: `must be at least ${INVITE_MIN_EXPIRES_IN} seconds (one hour)`,
        });
      if (n < 0)
        advise(ctx, [], `is negative: the service uses the default, ${INVITE_DEFAULT_EXPIRES_IN} seconds`);
    });

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
    email: emailString().describe("Address to invite"),
    name: nameString().describe("Invited person's name"),
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
