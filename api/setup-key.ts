/** Setup key (spec 2.14): enrolls peers. The full key is returned only by create. */
import { idList, intMin, intRange, nameString, z } from "./common";

export const SetupKeyType = z
  .enum(["one-off", "reusable"])
  .describe("one-off: a single use; reusable: many uses");
export const SetupKeyState = z
  .enum(["valid", "overused", "expired", "revoked"])
  .describe("Current state of the key");

export const SetupKeyCreateSchema = z
  .object({
    name: nameString(1, 255).describe("Key name"),
    type: SetupKeyType,
    expires_in: intRange(86400, 31536000, "seconds").describe("Lifetime in seconds, 86400 to 31536000"),
    auto_groups: idList().describe("Groups assigned to peers enrolled with the key"),
    usage_limit: intMin(0).describe("Number of enrollments allowed; 0 means unlimited"),
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
