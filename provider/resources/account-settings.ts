/** Account settings (singleton). */
import {
  AccountSettingsRequestSchema,
  AccountSettingsSchema,
  defaultAccountSettings,
} from "../../api/account";
import { buildOutputs, inputsFromOutputs, PrivnetProvider, withDefaults } from "../lifecycle";
import { fromApi, toApi } from "../mapping";
import type { LifecycleContext, Props, ResourceSpec } from "../spec";

/** Read-only settings the API echoes; not the resource's to set. */
const READ_ONLY = ["embedded_idp_enabled", "local_auth_disabled"];

function defaults(): Props {
  const d = defaultAccountSettings() as Record<string, unknown>;
  for (const k of READ_ONLY) delete d[k];
  return fromApi(d, AccountSettingsSchema) as Props;
}

const spec: ResourceSpec = {
  name: "AccountSettings",
  file: "account-settings",
  description:
    "The account's settings (one per account). Settings left out take the defaults of a new account, so the " +
    "program states the whole configuration. Creating the resource adopts the account; destroying it restores " +
    "the defaults.",
  input: AccountSettingsRequestSchema,
  output: AccountSettingsSchema,
  ops: { read: "listAccounts", update: "updateAccount" },
  ignoreInputs: ["embeddedIdpEnabled", "localAuthDisabled"],
  defaults: defaults(),
  singleton: { restore: defaults },
};

async function account(ctx: LifecycleContext): Promise<Props> {
  const accounts = (await ctx.client.call("listAccounts")) as Props[];
  const acc = accounts[0];
  if (!acc) throw new Error("privnet: the API returned no account");
  return acc;
}

async function put(ctx: LifecycleContext, accountId: string, inputs: Props, previous: Props | undefined) {
  const settings = toApi(withDefaults(spec, inputs), spec.input) as Props;
  for (const k of READ_ONLY) delete settings[k];
  const acc = (await ctx.client.call("updateAccount", {
    params: { accountId },
    body: { settings },
  })) as Props;
  return buildOutputs(spec, acc.settings as Props, inputs, previous, previous ? "update" : "create");
}

spec.hooks = {
  async create(ctx, inputs) {
    const acc = await account(ctx);
    return { id: String(acc.id), outs: await put(ctx, String(acc.id), inputs, undefined) };
  },
  async read(ctx, id, props) {
    const acc = await account(ctx);
    if (String(acc.id) !== id) return {};
    const outs = buildOutputs(spec, acc.settings as Props, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
  async update(ctx, id, olds, news) {
    return { outs: await put(ctx, id, news, olds) };
  },
  async delete(ctx, id) {
    await put(ctx, id, defaults(), {});
  },
};

export = new PrivnetProvider(spec);
