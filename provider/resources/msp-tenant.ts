/**
 * An MSP tenant: an account the MSP account runs for a customer. The API has no delete and no read of one tenant:
 * reads list and pick, and destroying the resource unlinks the tenant (hands it to `unlinkOwner`, who owns it from
 * then on) when `unlinkOwner` is set, else leaves it linked and stops managing it, saying so. The domain is fixed
 * at creation (a change is not applied and replaces nothing: the API cannot delete a tenant).
 */
import { z } from "../../api/common";
import { TenantCreateSchema, TenantSchema, TenantUpdateSchema } from "../../api/msp";
import { isNotFound } from "../../client";
import { warn } from "../diagnostics";
import { buildOutputs, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import { fromList } from "../read-batch";
import type { ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "MspTenant",
  file: "msp-tenant",
  description:
    "An MSP tenant: an account the managed-service-provider account runs for a customer; `groups` of the MSP " +
    "account reach it, each with a role. A new tenant is pending until its domain proves itself: set a DNS TXT " +
    "record to `dnsChallenge` and verify it (the service's `POST .../dns`). The domain is fixed at creation (a " +
    "change is not applied). The API has no delete: destroying the resource unlinks the tenant, handing it to " +
    "the user `unlinkOwner` (who owns it from then on), or, without `unlinkOwner`, leaves it linked and stops " +
    "managing it (a warning says so).",
  input: TenantCreateSchema.extend({
    unlink_owner: z
      .string()
      .optional()
      .describe(
        "Id of the user who owns the tenant account once destroying the resource unlinks it; without it, " +
          "destroying leaves the tenant linked",
      ),
  }),
  createBody: TenantCreateSchema,
  updateBody: TenantUpdateSchema,
  output: TenantSchema,
  ops: { create: "createMspTenant", read: "listMspTenants", update: "updateMspTenant" },
  idParam: "id",
  createOnly: ["domain"],
  writeOnly: ["unlinkOwner"],
};

spec.hooks = {
  // There is no GET of one tenant: read lists and picks (one list shared by the reads of a refresh).
  async read(ctx, id, props) {
    const tenant = await fromList(ctx, "listMspTenants", id);
    if (!tenant) return {};
    const outs = buildOutputs(spec, tenant, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
  async delete(ctx, id, props) {
    const owner = props.unlinkOwner;
    if (typeof owner !== "string" || owner === "") {
      await warn(
        `privnet: MspTenant ${JSON.stringify(props.name ?? id)} (id ${id}) stays linked: the API cannot delete ` +
          "a tenant, and no unlinkOwner names who would own it; it is no longer managed by this stack",
      );
      return;
    }
    try {
      await ctx.client.call("unlinkMspTenant", { params: { id }, body: { owner } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
};

export = new PrivnetProvider(spec);
