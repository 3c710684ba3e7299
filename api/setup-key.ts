/** Setup key (spec 2.14): enrolls peers. The full key is returned only by create. */
import { MAX_LIFETIME_SECONDS, advise, idList, intRange, nameString, z } from "./common";

export const SetupKeyType = z
  .enum(["one-off", "reusable"])
  .describe("one-off: a single use; reusable: many uses");
export const SetupKeyState = z
  .enum(["valid", "overused", "expired", "revoked"])
  .describe("Current state of the key");

/** The documented lifetime bounds of a setup key, in seconds (spec 2.14 and rule 5; the service's API document). */
export const SETUP_KEY_DOCUMENTED_EXPIRES_IN = { min: 86400, max: 31536000 } as const;

/**
 * A setup key's lifetime. The documents say 86400 to 31536000; the service (v0.77.1) accepts 0 (never expires)
 * and every lifetime it can compute, and refuses only a negative one. So the documented range is an advisory:
 * the server decides, and a program that asks for a ten-minute key for one CI job gets one, with a warning.
 */
function expiresIn() {
  const { min, max } = SETUP_KEY_DOCUMENTED_EXPIRES_IN;
  return intRange(0, MAX_LIFETIME_SECONDS, "seconds").superRefine((n, ctx) => {
    if (n < min || n > max)
      advise(
        ctx,
        [],
        `is ${n}, outside the documented range ${min} to ${max} seconds; the service accepts it ` +
          (n === 0 ? "(0: the key never expires)" : "as given, but another version might not"),
      );
  });
}

export const SetupKeyCreateSchema = z
  .object({
    name: nameString().describe("Key name"),
    type: SetupKeyType,
    expires_in: expiresIn().describe(
      "Lifetime in seconds; 0 means the key never expires. The spec and the service's own API document give " +
        "86400 to 31536000; the service accepts any lifetime from 0 (a value outside that range is warned of)",
    ),
    auto_groups: idList().describe("Groups assigned to peers enrolled with the key"),
    usage_limit: z
      .number()
      .int({ error: "must be an integer" })
      .superRefine((n, ctx) => {
        if (n < 0) advise(ctx, [], `is ${n}: the documented values are 0 (unlimited) and above`);
      })
      .describe("Number of enrollments allowed; 0 means unlimited"),
    ephemeral: z.boolean().optional().describe("Peers enrolled with the key are ephemeral"),
    allow_extra_dns_labels: z
      .boolean()
      .optional()
      .describe("Peers enrolled with the key may add extra DNS labels"),
  })
  .describe("Setup key create body");

export const SetupKeyUpdateSchema = z
  .object({
    revoked: z.boolean().describe("Revoke the key (cannot be undone by the agent)"),
    auto_groups: idList().describe("Groups assigned to peers enrolled with the key"),
  })
  .describe("Setup key update body");

export const SetupKeySchema = z
  .strictObject({
    id: z.number().int().describe("Key id"),
    name: z.string().describe("Key name"),
    type: SetupKeyType,
    expires: z.string().describe("Expiry time"),
    valid: z.boolean().describe("Whether the key can enroll peers now"),
    revoked: z.boolean().describe("Whether the key was revoked"),
    used_times: z.number().int().describe("Number of enrollments so far"),
    last_used: z.string().describe("Time of the last enrollment (zero time when never used)"),
    state: SetupKeyState,
    auto_groups: z.array(z.string()).describe("Groups assigned to peers enrolled with the key"),
    updated_at: z.string().describe("Last change"),
    usage_limit: z.number().int().describe("Number of enrollments allowed; 0 means unlimited"),
    ephemeral: z.boolean().describe("Peers enrolled with the key are ephemeral"),
    allow_extra_dns_labels: z.boolean().describe("Peers enrolled with the key may add extra DNS labels"),
    key: z
      .string()
      .describe("The key: full value in the create response only, masked (first 5 characters) elsewhere"),
  })
  .describe("Setup key");

export type SetupKey = z.infer<typeof SetupKeySchema>;
