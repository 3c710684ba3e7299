/**
 * Proxy token: what a self-hosted reverse proxy registers with. The value is answered once, by create, and kept
 * as a secret output. Delete revokes the token (the API keeps it listed, revoked): a revoked token reads as gone.
 */
import { ProxyTokenRequestSchema, ProxyTokenSchema } from "../../api/reverse-proxy";
import { buildOutputs, inputsFromOutputs, PrivnetProvider } from "../lifecycle";
import { fromList } from "../read-batch";
import { listAnswer, type Props, type ResourceSpec } from "../spec";

/** A token's lifetime in seconds from its answer (0: it does not expire). */
function lifetime(outs: Props): number {
  const created = Date.parse(String(outs.createdAt ?? ""));
  const expires = Date.parse(String(outs.expiresAt ?? ""));
  return Number.isFinite(created) && Number.isFinite(expires) ? Math.round((expires - created) / 1000) : 0;
}

const spec: ResourceSpec = {
  name: "ProxyToken",
  file: "proxy-token",
  description:
    "A token a self-hosted reverse proxy registers with (its cluster then appears in `getProxyClusters`). " +
    "`plainToken` is the value to give the proxy; it exists only in the create response and is kept in state as a " +
    "secret output. A token cannot be changed: a new `name` or `expiresIn` makes a new token before the old one is " +
    "revoked (so a proxy can move over); `pulumi up --replace` rotates it. Destroying the resource revokes the " +
    "token; one revoked elsewhere reads as deleted. An adopted token (`adoptId`) has no `plainToken`. " +
    "`expiresIn` is read back from the token's expiry, so an imported token states its lifetime.",
  input: ProxyTokenRequestSchema,
  output: ProxyTokenSchema,
  ops: { create: "createProxyToken", read: "listProxyTokens", delete: "deleteProxyToken" },
  idParam: "tokenId",
  replaceOnChange: ["name", "expiresIn"],
  // Not write-only: the answer's expires_at less created_at is the lifetime asked for, to the second (both
  // servers), so an imported or adopted token states it too. 0 is no expiry, as absent.
  defaults: { expiresIn: 0 },
  mergeOutputs: (outs: Props) => ({ ...outs, expiresIn: lifetime(outs) }),
  adoptAsIs: true,
  secretOutputs: ["plainToken"],
  createOnlyOutputs: ["plainToken"],
  unwrapCreate: (response: Props) => {
    const { plain_token, ...object } = response;
    return { object, extra: { plain_token } };
  },
  extraOutputs: {
    plainToken: { description: "The token value (secret); only known after create", type: "string" },
  },
};

spec.hooks = {
  // No GET of one token: read lists and picks. A revoked token is gone for good (it cannot be un-revoked).
  async read(ctx, id, props: Props) {
    const found = await fromList(ctx, "listProxyTokens", id);
    if (!found || found.revoked === true) return {};
    const outs = buildOutputs(spec, found, props, props, "read");
    return { id, props: outs, inputs: inputsFromOutputs(spec, outs) };
  },
  // Tokens still in force: revoked ones stay listed by the API but are nothing to manage.
  async list(ctx) {
    const all = listAnswer(await ctx.client.call("listProxyTokens"), "listProxyTokens");
    return all
      .filter((t) => t.revoked !== true && typeof t.id === "string")
      .map((t) => ({ id: String(t.id), object: t, parents: {} }));
  },
};

export = new PrivnetProvider(spec);
