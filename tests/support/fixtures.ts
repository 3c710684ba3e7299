/**
 * Test fixtures. Peers are never created by the API: real ones come from agents (the simulated agent's
 * enrollment). `addPeer` creates one directly in the store for tests of other families.
 */
import { randomBytes } from "node:crypto";
import { iso } from "../../server/clock";
import { hashSecret, newId, newPersonalAccessToken } from "../../server/ids";
import type { TokenDoc, UserDoc } from "../../server/model";
import { createPeerDoc } from "../../server/peer-factory";
import type { TestServer } from "./server";

/** Creates a peer in the store (as if an agent had enrolled it); `userId` makes it a user's peer. */
export function addPeer(
  s: TestServer,
  hostname = `peer-${randomBytes(3).toString("hex")}`,
  opts: { userId?: string } = {},
): { id: string; ip: string; name: string } {
  const { state } = s.server;
  const doc = state.store.tx((tx) =>
    createPeerDoc(tx, {
      hostname,
      wgPubKey: randomBytes(32).toString("base64"),
      now: state.clock.now(),
      userId: opts.userId,
    }),
  );
  return { id: doc.id, ip: doc.ip, name: doc.name };
}

/**
 * Creates an active user with `role` and a personal access token directly in the store (independent of the users
 * and tokens API); returns the user id and the plain token.
 */
export function addUserWithToken(s: TestServer, role: string): { id: string; token: string } {
  const { state } = s.server;
  const now = iso(state.clock.now());
  const id = newId();
  const token = newPersonalAccessToken();
  state.store.tx((tx) => {
    const user: UserDoc = {
      id,
      email: `${role}-${id}@example.test`,
      name: `${role} ${id}`,
      role,
      status: "active",
      last_login: now,
      auto_groups: [],
      is_service_user: false,
      is_blocked: false,
      pending_approval: false,
      issued: "api",
      idp_id: id,
      created_at: now,
    };
    tx.put("user", user);
    const t: TokenDoc = {
      id: newId(),
      parent: id,
      name: "test token",
      hashed_token: hashSecret(token),
      expiration_date: iso(state.clock.now() + 30 * 86400_000),
      created_by: id,
      created_at: now,
      last_used: null,
    };
    tx.put("token", t);
  });
  return { id, token };
}
