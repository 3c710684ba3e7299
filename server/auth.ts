/**
 * Authentication: `Authorization: Token <PAT>` (checksum checked before any lookup, stored only as SHA-256,
 * expiry enforced, last_used updated) and `Authorization: Bearer <JWT>` verified against a configured issuer and
 * key set, the user found by its idp_id.
 */
import { iso } from "./clock";
import type { ServerState } from "./context";
import { forbidden, unauthorized } from "./errors";
import { hashSecret, patChecksumValid } from "./ids";
import type { Actor, TokenDoc, UserDoc } from "./model";

/** last_used is persisted at most this often per token, so reads do not turn into disk writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

type BearerVerifier = (jwt: string) => Promise<string>;

let bearerVerifier: { options: unknown; verify: BearerVerifier } | undefined;

async function verifyBearer(state: ServerState, jwt: string): Promise<string> {
  const opts = state.options.bearer;
  if (!opts) throw unauthorized("bearer tokens are not configured on this server");
  if (!bearerVerifier || bearerVerifier.options !== opts) {
    // jose is an ES module; load it only when bearer auth is configured.
    const jose = await import("jose");
    const keySet = jose.createLocalJWKSet(opts.jwks as Parameters<typeof jose.createLocalJWKSet>[0]);
    bearerVerifier = {
      options: opts,
      verify: async (token: string) => {
        const { payload } = await jose.jwtVerify(token, keySet, {
          issuer: opts.issuer,
          audience: opts.audience,
          currentDate: new Date(state.clock.now()),
        });
        if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("no sub claim");
        return payload.sub;
      },
    };
  }
  try {
    return await bearerVerifier.verify(jwt);
  } catch {
    throw unauthorized("invalid bearer token");
  }
}

function checkUser(user: UserDoc | undefined): UserDoc {
  if (!user) throw unauthorized("unknown user");
  if (user.is_blocked || user.status === "blocked") throw forbidden("user is blocked");
  if (user.pending_approval) throw forbidden("user is pending approval");
  return user;
}

/** Resolves the Authorization header to a caller, or throws 401/403. */
export async function authenticate(state: ServerState, header: string | undefined): Promise<Actor> {
  if (!header) throw unauthorized("no credentials: send Authorization: Token <personal access token>");
  const space = header.indexOf(" ");
  const scheme = space > 0 ? header.slice(0, space) : header;
  const value = space > 0 ? header.slice(space + 1).trim() : "";
  if (scheme.toLowerCase() === "token") {
    if (!value || !patChecksumValid(value)) throw unauthorized("invalid token");
    const hashed = hashSecret(value);
    const token = state.store.all<TokenDoc>("token").find((t) => t.hashed_token === hashed);
    if (!token) throw unauthorized("invalid token");
    const now = state.clock.now();
    if (Date.parse(token.expiration_date) <= now) throw unauthorized("token expired");
    const user = checkUser(state.store.get<UserDoc>("user", token.parent));
    const last = token.last_used ? Date.parse(token.last_used) : 0;
    if (now - last >= LAST_USED_RESOLUTION_MS) {
      state.store.tx((tx) => tx.put("token", { ...token, last_used: iso(now) }));
    }
    return { user, via: "token", credentialId: token.id };
  }
  if (scheme.toLowerCase() === "bearer") {
    if (!value) throw unauthorized("invalid bearer token");
    const sub = await verifyBearer(state, value);
    const user = checkUser(state.store.all<UserDoc>("user").find((u) => u.idp_id === sub));
    return { user, via: "bearer", credentialId: `jwt:${sub}` };
  }
  throw unauthorized("unsupported authorization scheme: use Token or Bearer");
}
