/** Peer: adopts an enrolled peer and manages its settings. Peers are never created by the API. */
import { PeerSchema, PeerUpdateSchema } from "../../api/peer";
import { buildOutputs, defaultGet, defaultUpdate, PrivnetProvider } from "../lifecycle";
import type { Props, ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "Peer",
  file: "peer",
  description:
    "Manages the settings of an enrolled peer (a device that joined with a setup key or a user login). Creating " +
    "the resource adopts the peer named by `peerId`; destroying it stops managing the peer and leaves the device " +
    "enrolled with its current settings. Remove devices with the API or the dashboard.",
  input: PeerUpdateSchema,
  output: PeerSchema,
  ops: { read: "getPeer", update: "updatePeer" },
  idParam: "peerId",
  parents: [{ input: "peerId", param: "peerId", description: "Id of the enrolled peer to manage" }],
  replaceOnChange: ["peerId"],
  computedIfAbsent: ["ip"],
  defaults: { sshEnabled: false, loginExpirationEnabled: false, inactivityExpirationEnabled: false },
};

spec.hooks = {
  async create(ctx, inputs: Props) {
    const id = String(inputs.peerId);
    const existing = await defaultGet(spec, ctx, id, inputs);
    if (!existing)
      throw new Error(
        `privnet: peer ${id} is not enrolled (peers join with a setup key; they cannot be created)`,
      );
    const { outs } = await defaultUpdate(
      spec,
      ctx,
      id,
      buildOutputs(spec, existing, inputs, undefined, "create"),
      inputs,
    );
    return { id, outs };
  },
  // Destroying stops management only.
  async delete() {},
};

export = new PrivnetProvider(spec);
