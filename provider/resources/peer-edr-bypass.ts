/**
 * A peer let through the EDR compliance checks (`POST /api/peers/{peerId}/edr/bypass`) until the resource is
 * destroyed (the bypass is revoked) or the device complies by itself (the service then drops the bypass: a
 * refresh finds it gone, and the next up makes it again). The resource's id is the peer's id; there is nothing to
 * change in place: another peer is another bypass. `adoptId` (the peer's id) takes an existing bypass over.
 */
import { idString, z } from "../../api/common";
import { EdrBypassSchema } from "../../api/edr";
import { isNotFound } from "../../client";
import { buildOutputs, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import { expectRecord, listAnswer, type LifecycleContext, type Props, type ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "PeerEdrBypass",
  file: "peer-edr-bypass",
  description:
    "A peer let through the EDR compliance checks by an administrator, until the resource is destroyed (the " +
    "bypass is revoked) or the peer's device complies by itself, when the service drops the bypass (a refresh " +
    "then finds it gone). The resource's id is the peer's id; changing `peerId` replaces it (a bypass of the " +
    "other peer).",
  input: z
    .object({ peer_id: idString().describe("Id of the peer to let through") })
    .describe("The peer to let through"),
  output: EdrBypassSchema,
  ops: { create: "createPeerEdrBypass", read: "listPeerEdrBypasses", delete: "deletePeerEdrBypass" },
  replaceOnChange: ["peerId"],
  // Nothing to change in place: an existing bypass (adoptId: the peer's id) is taken as it is.
  adoptAsIs: true,
};

/** Every bypass: one list, each by its peer's id. */
async function bypasses(ctx: LifecycleContext): Promise<Props[]> {
  return listAnswer(await ctx.client.call("listPeerEdrBypasses"), "listPeerEdrBypasses");
}

spec.hooks = {
  async create(ctx, inputs) {
    const peerId = String(inputs.peerId);
    const answer = expectRecord(
      await ctx.client.call("createPeerEdrBypass", { params: { peerId } }),
      "the answer to createPeerEdrBypass",
    );
    return { id: peerId, outs: buildOutputs(spec, answer, inputs, undefined, "create") };
  },
  async read(ctx, id, props) {
    const found = (await bypasses(ctx)).find((b) => String(b.peer_id) === id);
    if (!found) return {};
    const outs = buildOutputs(spec, found, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
  async delete(ctx, id) {
    try {
      await ctx.client.call("deletePeerEdrBypass", { params: { peerId: id } });
    } catch (err) {
      // No bypass (revoked, or the device complied) or no peer: what delete wants.
      if (!isNotFound(err)) throw err;
    }
  },
  async list(ctx) {
    return (await bypasses(ctx)).map((object) => ({ id: String(object.peer_id), object, parents: {} }));
  },
};

export = new PrivnetProvider(spec);
