/** Personal access token (spec 2.3). The plain token is returned once, by create. */
import { intRange, nameString, z } from "./common";

export const TokenSchema = z
  .strictObject({
    id: z.string().describe("Token id"),
    name: z.string().describe("Token name"),
    expiration_date: z.string().describe("Expiry time"),
    created_by: z.string().describe("Id of the creating user"),
    created_at: z.string().describe("Creation time"),
    last_used: z.string().nullable().describe("Last use, null when never used"),
  })
  .describe("Personal access token (without its value)");

export const TokenCreateSchema = z
  .object({
    name: nameString().describe("Token name"),
    expires_in: intRange(1, 365, "days").describe("Lifetime in days, 1 to 365"),
  })
  .describe("Personal access token create body");

export const TokenCreatedSchema = z
  .strictObject({
    plain_token: z.string().describe("The token value; shown only in this response"),
    personal_access_token: TokenSchema,
  })
  .describe("A new personal access token with its value");

export type Token = z.infer<typeof TokenSchema>;
