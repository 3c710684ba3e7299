/**
 * EDR bypasses (the service's v0.77.1 document; not in the spec): an administrator lets a peer through the EDR
 * compliance checks. privnet-server runs no EDR check, so a bypass is a record on the peer: made by
 * `POST /api/peers/{peerId}/edr/bypass` (again: the same record, 200), removed by `DELETE` (404 when there is
 * none) and by deleting the peer, listed by `GET /api/peers/edr/bypassed`.
 *
 * Stored kind "edr_bypass": `{id: peerId, created_at, created_by}`.
 */
import { iso } from "../clock";
import type { Handlers, StoredKinds } from "../context";
import { audit, mustGet } from "../domain";
import { notFound } from "../errors";
import type { PeerDoc } from "../model";
import type { Doc } from "../store";

export interface EdrBypassDoc extends Doc {
  created_at: string;
  created_by: string;
}

export const kinds = { edr_bypass: {} } satisfies StoredKinds;

export const handlers: Handlers = {
  listPeerEdrBypasses: (ctx) => {
    const { store } = ctx.state;
    // A bypass of a peer deleted since is gone with it (deletePeer removes it; this only reads defensively).
    return store
      .all<EdrBypassDoc>("edr_bypass")
      .filter((b) => store.get("peer", b.id) !== undefined)
      .map((b) => ({ peer_id: b.id }));
  },

  createPeerEdrBypass: (ctx) =>
    ctx.state.store.tx((tx) => {
      const peer = mustGet<PeerDoc>(tx, "peer", ctx.params.peerId as string, "peer");
      if (!tx.get("edr_bypass", peer.id)) {
        tx.put<EdrBypassDoc>("edr_bypass", {
          id: peer.id,
          created_at: iso(ctx.now),
          created_by: ctx.actor?.user.id ?? "",
        });
        audit(tx, ctx, "peer.edr.bypass.create", "Peer EDR compliance bypassed", peer.id, {
          name: peer.name,
        });
      }
      return { peer_id: peer.id };
    }),

  deletePeerEdrBypass: (ctx) =>
    ctx.state.store.tx((tx) => {
      const peer = mustGet<PeerDoc>(tx, "peer", ctx.params.peerId as string, "peer");
      if (!tx.get("edr_bypass", peer.id)) throw notFound(`peer ${peer.id} has no EDR bypass`);
      tx.delete("edr_bypass", peer.id);
      audit(tx, ctx, "peer.edr.bypass.delete", "Peer EDR compliance bypass revoked", peer.id, {
        name: peer.name,
      });
      return undefined;
    }),
};
