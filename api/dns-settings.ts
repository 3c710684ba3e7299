/** DNS settings (spec 2.13): account-wide DNS management switches. */
import { idList, z } from "./common";

export const DnsSettingsSchema = z
  .strictObject({
    disabled_management_groups: z.array(z.string()).describe("Groups whose peers do not get DNS management"),
  })
  .describe("DNS settings");

export const DnsSettingsRequestSchema = z
  .object({
    disabled_management_groups: idList().describe("Groups whose peers do not get DNS management"),
  })
  .describe("DNS settings update body");

/** GET /api/dns/settings wraps the settings in `items`. */
export const DnsSettingsEnvelopeSchema = z
  .strictObject({ items: DnsSettingsSchema.describe("The settings") })
  .describe("DNS settings as GET returns them");

export type DnsSettings = z.infer<typeof DnsSettingsSchema>;
