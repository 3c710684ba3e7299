/**
 * Test fixtures. Peers are never created by the API: real ones come from agents (the simulated agent's
 * enrollment). `addPeer` creates one directly in the store for tests of other families.
 */
import { randomBytes } from "node:crypto";
import { createPeerDoc } from "../../server/peer-factory";
import type { TestServer } from "./server";

export function addPeer(
  s: TestServer,
  hostname = `peer-${randomBytes(3).toString("hex")}`,
): { id: string; ip: string; name: string } {
  const { state } = s.server;
  const doc = state.store.tx((tx) =>
    createPeerDoc(tx, { hostname, wgPubKey: randomBytes(32).toString("base64"), now: state.clock.now() }),
  );
  return { id: doc.id, ip: doc.ip, name: doc.name };
}
