/**
 * Agent Network settings (singleton): the account's gateway endpoint and what it collects.
 *
 * Unlike the other settings, these do not exist until they are bootstrapped (POST), their addresses cannot change
 * (a new address needs DELETE and a new bootstrap, which allocates a new endpoint), and DELETE releases them. So:
 * - create bootstraps the settings with the program's address and switches; where the account has them already
 *   (bootstrapped by hand, or by another stack), it adopts them if they have the program's address, and fails
 *   naming both addresses otherwise (it never releases an endpoint agents may be using);
 * - update replaces the switches the program names and sends back the others as the server holds them (a PUT
 *   resets what it leaves out); a new address replaces the settings (delete first: there is one per account);
 * - destroy releases the settings when this resource bootstrapped them (the service refuses while providers
 *   exist), and otherwise puts back the switches' values from before (`priorSettings`), as other settings do.
 */
import {
  AgentNetworkSettingsCreateSchema,
  AgentNetworkSettingsSchema,
  normalHostname,
} from "../../api/agent-network";
import { isNotFound } from "../../client";
import { toApi } from "../../model/mapping";
import { buildOutputs, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import { overlay, pickLike, PRIOR_SETTINGS } from "../settings";
import { expectRecord, isRecord, type LifecycleContext, type Props, type ResourceSpec } from "../spec";

const ID = "agent-network-settings";
/** Whether this resource bootstrapped the settings (then destroy releases them). */
const BOOTSTRAPPED = "bootstrappedByResource";
const SWITCHES = [
  "enable_log_collection",
  "enable_prompt_collection",
  "redact_pii",
  "access_log_retention_days",
] as const;

const spec: ResourceSpec = {
  name: "AgentNetworkSettings",
  file: "agent-network-settings",
  description:
    "The account's Agent Network gateway (one per account): its endpoint, either allocated under a proxy " +
    "cluster's address (`proxyAddress`: the server picks a label, the endpoint is `<label>.<proxyAddress>`) or " +
    "claimed as it is (`endpoint`), and what it collects. Only the switches the program names are managed. " +
    "Creating the resource bootstraps the settings, or adopts them when the account has them with the same " +
    "address; the address cannot change in place: a new one replaces the settings (and a new endpoint is " +
    "allocated), which the service refuses while providers exist. Destroying the resource releases the " +
    "settings it bootstrapped (again refused while providers exist) and otherwise puts the named switches back " +
    "(`priorSettings`).",
  input: AgentNetworkSettingsCreateSchema,
  output: AgentNetworkSettingsSchema,
  ops: {
    create: "createAgentNetworkSettings",
    read: "getAgentNetworkSettings",
    update: "updateAgentNetworkSettings",
    delete: "deleteAgentNetworkSettings",
  },
  partial: true,
  singleton: true,
  singletonId: `\`${ID}\``,
  replaceOnChange: ["proxyAddress", "endpoint"],
  deleteBeforeReplace: true,
  normalForms: { proxyAddress: normalHostname, endpoint: normalHostname },
  extraOutputs: {
    [PRIOR_SETTINGS]: {
      description:
        "The named switches' values from before this resource managed settings it adopted (API names); " +
        "destroy restores them",
      type: "Record<string, unknown>",
    },
    [BOOTSTRAPPED]: {
      description: "Whether this resource bootstrapped the settings: then destroy releases them",
      type: "boolean",
    },
  },
};

/** The settings as the server holds them (API form); undefined while not bootstrapped. */
async function current(ctx: LifecycleContext): Promise<Props | undefined> {
  const s = expectRecord(await ctx.client.call("getAgentNetworkSettings"), "the Agent Network settings");
  return typeof s.endpoint === "string" && s.endpoint !== "" ? s : undefined;
}

/** The switches a program names (API form). */
function namedSwitches(inputs: Props): Props {
  const api = expectRecord(toApi(inputs, spec.input) ?? {}, "the Agent Network settings named");
  return Object.fromEntries(SWITCHES.filter((k) => api[k] !== undefined).map((k) => [k, api[k]]));
}

/** Replaces the switches: the named ones as the program says, the others as they are. */
async function put(ctx: LifecycleContext, settings: Props, patch: Props): Promise<Props> {
  const whole = overlay(settings, patch);
  const body = {
    endpoint: whole.endpoint,
    proxy_address: whole.proxy_address,
    ...Object.fromEntries(SWITCHES.map((k) => [k, whole[k]])),
  };
  return expectRecord(
    await ctx.client.call("updateAgentNetworkSettings", { body }),
    "the answer to updateAgentNetworkSettings",
  );
}

/** Whether the settings held have the address the program names. */
function sameAddress(settings: Props, inputs: Props): boolean {
  const api = expectRecord(toApi(inputs, spec.input) ?? {}, "the Agent Network settings named");
  if (typeof api.endpoint === "string" && api.endpoint !== "")
    return settings.dedicated === true && settings.endpoint === normalHostname(api.endpoint);
  if (typeof api.proxy_address === "string" && api.proxy_address !== "")
    return settings.dedicated !== true && settings.proxy_address === normalHostname(api.proxy_address);
  return false;
}

const outputs = (
  stored: Props,
  inputs: Props,
  previous: Props | undefined,
  prior: Props,
  mine: boolean,
  phase: "create" | "update" | "read",
) => ({
  ...buildOutputs(spec, stored, inputs, previous, phase),
  [PRIOR_SETTINGS]: prior,
  [BOOTSTRAPPED]: mine,
});

const priorOf = (props: Props): Props => (isRecord(props[PRIOR_SETTINGS]) ? props[PRIOR_SETTINGS] : {});

spec.hooks = {
  async create(ctx, inputs) {
    const existing = await current(ctx);
    if (!existing) {
      const body = toApi(inputs, spec.input);
      const stored = expectRecord(
        await ctx.client.call("createAgentNetworkSettings", { body }),
        "the answer to createAgentNetworkSettings",
      );
      return { id: ID, outs: outputs(stored, inputs, undefined, {}, true, "create") };
    }
    if (!sameAddress(existing, inputs)) {
      const asked = expectRecord(toApi(inputs, spec.input) ?? {}, "the Agent Network settings named");
      throw new Error(
        `privnet: AgentNetworkSettings: the account's Agent Network settings are bootstrapped already, with the ` +
          `endpoint ${String(existing.endpoint)} (${existing.dedicated === true ? "claimed as it is" : `under ${String(existing.proxy_address)}`}); ` +
          `the program asks for ${asked.endpoint ? `the endpoint ${String(asked.endpoint)}` : `an endpoint under ${String(asked.proxy_address)}`}. ` +
          "Name the same address to adopt them, or release them first (DELETE /api/agent-network/settings, once " +
          "no provider is left): agents may be using that endpoint.",
      );
    }
    const patch = namedSwitches(inputs);
    const prior = pickLike(existing, patch);
    const stored = await put(ctx, existing, patch);
    return { id: ID, outs: outputs(stored, inputs, undefined, prior, false, "create") };
  },
  async read(ctx, id, props) {
    const settings = await current(ctx);
    if (!settings || id !== ID) return {};
    const mine = props[BOOTSTRAPPED] === true;
    const outs = outputs(settings, props, props, priorOf(props), mine, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
  async update(ctx, _id, olds, news) {
    const settings = await current(ctx);
    if (!settings)
      throw new Error("privnet: AgentNetworkSettings: the settings are gone (run pulumi refresh)");
    const patch = namedSwitches(news);
    // Switches named before keep their first prior value; newly named ones take the value they have now.
    const prior =
      olds[BOOTSTRAPPED] === true ? {} : overlay(pickLike(settings, patch), pickLike(priorOf(olds), patch));
    const stored = await put(ctx, settings, patch);
    return { outs: outputs(stored, news, olds, prior, olds[BOOTSTRAPPED] === true, "update") };
  },
  async delete(ctx, _id, props) {
    if (props[BOOTSTRAPPED] === true) {
      try {
        await ctx.client.call("deleteAgentNetworkSettings");
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return;
    }
    const prior = priorOf(props);
    if (!Object.keys(prior).length) return;
    const settings = await current(ctx);
    if (settings) await put(ctx, settings, prior);
  },
  async list(ctx) {
    const settings = await current(ctx);
    return settings ? [{ id: ID, object: settings, parents: {} }] : [];
  },
};

export = new PrivnetProvider(spec);
