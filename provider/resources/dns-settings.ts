/** DNS settings (singleton): account-wide DNS management switches. */
import { DnsSettingsRequestSchema, DnsSettingsSchema } from "../../api/dns-settings";
import { PrivnetProvider } from "../lifecycle";
import { tolerate } from "../../model/mapping";
import { PRIOR_SETTINGS, settingsHooks } from "../settings";
import { dnsSettingsAnswer } from "../../model/answers";
import { expectRecord, type ResourceSpec } from "../spec";

const ID = "dns-settings";

const spec: ResourceSpec = {
  name: "DnsSettings",
  file: "dns-settings",
  description:
    "The account's DNS settings (one per account). Creating the resource adopts the settings; destroying it " +
    "puts back the values they had before (kept in state as `priorSettings`).",
  input: DnsSettingsRequestSchema,
  output: DnsSettingsSchema,
  ops: { read: "getDnsSettings", update: "updateDnsSettings" },
  partial: true,
  singleton: true,
  extraOutputs: {
    [PRIOR_SETTINGS]: {
      description:
        "The settings' values from before this resource managed them (API names); destroy restores them",
      type: "Record<string, unknown>",
    },
  },
};

spec.hooks = settingsHooks(spec, {
  async read(ctx) {
    // The spec wraps the settings in `items`; servers also answer the plain object.
    const settings = dnsSettingsAnswer(await ctx.client.call("getDnsSettings"));
    // Sent back whole on every write: read liberally, written as the API expects (lists, not null).
    return { id: ID, settings: expectRecord(tolerate(settings, DnsSettingsSchema), "the DNS settings") };
  },
  async write(ctx, _id, settings) {
    const stored = await ctx.client.call("updateDnsSettings", { body: settings });
    return stored === null || stored === undefined
      ? {}
      : expectRecord(stored, "the answer to updateDnsSettings");
  },
});

export = new PrivnetProvider(spec);
