/** Account settings (singleton): the settings the program names, and only those. */
import { AccountSettingsPatchSchema, AccountSettingsSchema } from "../../api/account";
import { PrivnetProvider } from "../lifecycle";
import { tolerate } from "../../model/mapping";
import { domainForm, prefixForm } from "../normal-forms";
import { PRIOR_SETTINGS, settingsHooks } from "../settings";
import { expectRecord, listAnswer, type LifecycleContext, type Props, type ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "AccountSettings",
  file: "account-settings",
  description:
    "The account's settings (one per account). Only the settings the program names are managed: every other " +
    "setting, including settings this provider does not know, stays exactly as the server holds it. Creating " +
    "the resource adopts the account's settings; destroying it puts the named settings back to the values they " +
    "had before (kept in state as `priorSettings`).",
  input: AccountSettingsPatchSchema,
  output: AccountSettingsSchema,
  ops: { read: "listAccounts", update: "updateAccount" },
  partial: true,
  normalForms: { networkRange: prefixForm, dnsDomain: domainForm },
  singleton: true,
  singletonId: "the account's id (the `id` that `getAccount` returns)",
  extraOutputs: {
    [PRIOR_SETTINGS]: {
      description:
        "The named settings' values from before this resource managed them (API names); destroy restores them",
      type: "Record<string, unknown>",
    },
  },
};

async function account(ctx: LifecycleContext): Promise<Props> {
  const accounts = listAnswer(await ctx.client.call("listAccounts"), "listAccounts");
  const acc = accounts[0];
  if (!acc) throw new Error("privnet: the API returned no account");
  return acc;
}

spec.hooks = settingsHooks(spec, {
  async read(ctx) {
    const acc = await account(ctx);
    // Sent back whole on every write: read liberally, written as the API expects (lists, not null).
    return {
      id: String(acc.id),
      settings: expectRecord(tolerate(acc.settings ?? {}, AccountSettingsSchema), "the account's settings"),
    };
  },
  async write(ctx, accountId, settings) {
    const acc = expectRecord(
      await ctx.client.call("updateAccount", { params: { accountId }, body: { settings } }),
      "the answer to updateAccount",
    );
    return acc.settings === null || acc.settings === undefined
      ? {}
      : expectRecord(acc.settings, "the account's settings");
  },
  // Echoed by the server, never taken back.
  readOnly: ["embedded_idp_enabled", "local_auth_disabled"],
});

export = new PrivnetProvider(spec);
