/** Peer: adopts an enrolled peer and manages the settings the program names. Peers are never created by the API. */
import { PeerSchema, PeerUpdateSchema } from "../../api/peer";
import { buildOutputs, defaultGet, PrivnetProvider } from "../lifecycle";
import { toApi } from "../../model/mapping";
import { overlay } from "../settings";
import { expectRecord, type LifecycleContext, type Props, type ResourceSpec } from "../spec";

const spec: ResourceSpec = {
  name: "Peer",
  file: "peer",
  description:
    "Manages the settings of an enrolled peer (a device that joined with a setup key or a user login). Creating " +
    "the resource adopts the peer named by `peerId`. Only the settings the program names are managed: the " +
    "others keep the values the peer has. Destroying the resource stops managing the peer and leaves the " +
    "device enrolled with its current settings. Remove devices with the API or the dashboard.",
  input: PeerUpdateSchema.partial(),
  output: PeerSchema,
  ops: { read: "getPeer", update: "updatePeer" },
  idParam: "peerId",
  parents: [{ input: "peerId", param: "peerId", description: "Id of the enrolled peer to manage" }],
  replaceOnChange: ["peerId"],
  partial: true,
};

/** The API's PUT takes these whole: members the program leaves out are sent as the peer has them. */
const REQUIRED = ["name", "ssh_enabled", "login_expiration_enabled", "inactivity_expiration_enabled"];

async function put(ctx: LifecycleContext, id: string, inputs: Props, previous: Props | undefined) {
  const current = await defaultGet(spec, ctx, id, inputs);
  if (!current)
    throw new Error(
      `privnet: peer ${id} is not enrolled (peers join with a setup key; they cannot be created)`,
    );
  const base: Props = {};
  for (const k of REQUIRED) if (current[k] !== undefined && current[k] !== null) base[k] = current[k];
  const body = overlay(base, expectRecord(toApi(inputs, spec.input) ?? {}, "the peer's inputs in API form"));
  const stored = await ctx.client.call("updatePeer", { params: { peerId: id }, body });
  const outs =
    stored === null || stored === undefined ? {} : expectRecord(stored, "the answer to updatePeer");
  return buildOutputs(spec, outs, inputs, previous, previous ? "update" : "create");
}

spec.hooks = {
  async create(ctx, inputs: Props) {
    const id = String(inputs.peerId);
    return { id, outs: await put(ctx, id, inputs, undefined) };
  },
  async update(ctx, id, olds, news) {
    return { outs: await put(ctx, id, news, olds) };
  },
  // Destroying stops management only.
  async delete() {},
};

export = new PrivnetProvider(spec);
