/**
 * Singletons exist once per account (EDR integrations, DNS settings, account settings). Creating the resource
 * adopts the existing object (or creates it where the API can); deleting it removes the object where the API
 * has a delete, else restores the defaults.
 */
import { isNotFound, isPrivnetApiError } from "../client";
import { buildOutputs, defaultUpdate, withDefaults } from "./lifecycle";
import { toApi } from "../model/mapping";
import { expectRecord, type LifecycleContext, type Props, type ResourceSpec } from "./spec";

/** Hooks for a singleton whose routes are POST/GET/PUT/DELETE on one path (the EDR integrations). */
export function singletonHooks(spec: ResourceSpec, id: string): ResourceSpec["hooks"] {
  return {
    // The object; none when it is not configured: the service's own 404. Any other 404 is an unknown path (a
    // server without the integration answers it in plain text): passed on, so the caller hears it is not served.
    async list(ctx: LifecycleContext) {
      try {
        const answer = await ctx.client.call(spec.ops.read);
        if (answer === null || answer === undefined) return [];
        return [{ id, object: expectRecord(answer, `the answer to ${spec.ops.read}`), parents: {} }];
      } catch (err) {
        if (isNotFound(err) && isPrivnetApiError(err) && err.serviceShaped) return [];
        throw err;
      }
    },
    async create(ctx: LifecycleContext, inputs: Props) {
      let exists = true;
      try {
        await ctx.client.call(spec.ops.read);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        exists = false;
      }
      if (exists) {
        // Adopt: the object is there already; make it match the inputs.
        const { outs } = await defaultUpdate(spec, ctx, id, {}, inputs);
        return { id, outs };
      }
      if (!spec.ops.create) throw new Error(`privnet: ${spec.name} cannot be created through the API`);
      const response = expectRecord(
        await ctx.client.call(spec.ops.create, { body: toApi(withDefaults(spec, inputs), spec.input) }),
        `the answer to ${spec.ops.create}`,
      );
      return { id, outs: buildOutputs(spec, response, inputs, undefined, "create") };
    },
  };
}
