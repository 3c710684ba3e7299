/**
 * Identity providers (spec 2.15, 4.7). `client_secret` is required on every write and stored (the server would
 * need it to talk to the provider), but it is write-only: no response ever carries it.
 */
import type { z } from "../../api/common";
import type { IdentityProviderRequestSchema } from "../../api/identity-provider";
import type { Ctx, Handlers, StoredKinds } from "../context";
import { audit, auditWrite, mustGet, type Reader } from "../domain";
import { newId } from "../ids";
import type { Doc, Tx } from "../store";

type IdpRequest = z.infer<typeof IdentityProviderRequestSchema>;

/** A stored identity provider (kind "identity_provider"). */
export interface IdentityProviderDoc extends Doc {
  type: IdpRequest["type"];
  name: string;
  issuer: string;
  client_id: string;
  /** Write-only; never leaves the server. */
  client_secret: string;
}

/** The IdentityProvider response: every field but the secret. */
export function identityProviderView(d: IdentityProviderDoc) {
  return { id: d.id, type: d.type, name: d.name, issuer: d.issuer, client_id: d.client_id };
}

function getIdp(r: Reader, ctx: Ctx): IdentityProviderDoc {
  return mustGet<IdentityProviderDoc>(
    r,
    "identity_provider",
    ctx.params.idpId as string,
    "identity provider",
  );
}

function write(tx: Tx, ctx: Ctx, existing?: IdentityProviderDoc): IdentityProviderDoc {
  const body = ctx.body as IdpRequest;
  const doc: IdentityProviderDoc = {
    id: existing?.id ?? newId(),
    type: body.type,
    name: body.name,
    issuer: body.issuer,
    client_id: body.client_id,
    client_secret: body.client_secret,
  };
  tx.put("identity_provider", doc);
  // The audit meta names the provider, never its secret.
  auditWrite(tx, ctx, existing, "identityprovider", "Identity provider", doc.id, {
    name: doc.name,
    type: doc.type,
  });
  return doc;
}

/** The documents this module stores (see StoredKind). */
export const kinds = {
  identity_provider: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listIdentityProviders: (ctx) =>
    ctx.state.store.all<IdentityProviderDoc>("identity_provider").map(identityProviderView),

  createIdentityProvider: (ctx) => ctx.state.store.tx((tx) => identityProviderView(write(tx, ctx))),

  getIdentityProvider: (ctx) => identityProviderView(getIdp(ctx.state.store, ctx)),

  updateIdentityProvider: (ctx) =>
    ctx.state.store.tx((tx) => identityProviderView(write(tx, ctx, getIdp(tx, ctx)))),

  deleteIdentityProvider: (ctx) =>
    ctx.state.store.tx((tx) => {
      const idp = getIdp(tx, ctx);
      tx.delete("identity_provider", idp.id);
      audit(tx, ctx, "identityprovider.delete", "Identity provider deleted", idp.id, {
        name: idp.name,
        type: idp.type,
      });
      return {};
    }),
};
