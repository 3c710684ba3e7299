/** DNS settings (singleton): account-wide DNS management switches. */
import { DnsSettingsRequestSchema, DnsSettingsSchema } from "../../api/dns-settings";
import { buildOutputs, defaultUpdate, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import type { Props, ResourceSpec } from "../spec";

const ID = "dns-settings";

const spec: ResourceSpec = {
  name: "DnsSettings",
  file: "dns-settings",
  description:
    "The account's DNS settings (one per account). Creating the resource adopts the settings; destroying it " +
    "restores the default (no group excluded from DNS management).",
  input: DnsSettingsRequestSchema,
  output: DnsSettingsSchema,
  ops: { read: "getDnsSettings", update: "updateDnsSettings" },
  singleton: { restore: () => ({ disabledManagementGroups: [] }) },
};

spec.hooks = {
  async create(ctx, inputs: Props) {
    const { outs } = await defaultUpdate(spec, ctx, ID, {}, inputs);
    return { id: ID, outs };
  },
  async read(ctx, id, props: Props) {
    // GET wraps the settings in `items`.
    const envelope = (await ctx.client.call("getDnsSettings")) as { items: Props };
    const outs = buildOutputs(spec, envelope.items, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
  async delete(ctx) {
    await defaultUpdate(spec, ctx, ID, {}, spec.singleton?.restore?.() ?? {});
  },
};

export = new PrivnetProvider(spec);
