/**
 * Authentication: `Authorization: Token <PAT>` (checksum checked before any lookup, stored only as SHA-256,
 * expiry enforced, last_used updated) and `Authorization: Bearer <JWT>` verified against a configured issuer and
 * key set, the user found by its idp_id.
 */
import type * as JoseModule from "jose";
import * as vm from "node:vm";
import { pathToFileURL } from "node:url";
import { iso } from "./clock";
import type { ServerState } from "./context";
import { forbidden, unauthorized } from "./errors";
import { hashSecret, patChecksumValid } from "./ids";
import type { Actor, TokenDoc, UserDoc } from "./model";

/** last_used / last_login are persisted at most this often per credential, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

type Jose = typeof JoseModule;

let josePromise: Promise<Jose> | undefined;

/**
 * Loads jose (an ES module only) from this CommonJS package.
 *
 * Two paths, because one does not work everywhere:
 * - Compiled to CommonJS (dist, ts-jest), TypeScript turns `import("jose")` into `require("jose")`. Plain Node
 *   >= 22.12 loads an ES module through `require` (require(esm)), so dist takes this path.
 * - Under jest, `require` is jest's own module registry, which refuses ES modules unless node runs with
 *   --experimental-vm-modules, and a native `import()` (even through `new Function`) inside jest's sandbox throws
 *   for the same reason. There we compile a one-line `import()` with Node's main-context loader
 *   (`vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`), which imports jose natively outside the sandbox. Node
 *   prints an ExperimentalWarning for that loader once; it only ever happens in tests.
 */
export function loadJose(): Promise<Jose> {
  josePromise ??= (async () => {
    try {
      return await import("jose");
    } catch (first) {
      try {
        const importer = new vm.Script("(specifier) => import(specifier)", {
          importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
        }).runInThisContext() as (specifier: string) => Promise<Jose>;
        return await importer(pathToFileURL(require.resolve("jose")).href);
      } catch {
        throw first;
      }
    }
  })();
  return josePromise;
}

type BearerVerifier = { options: unknown; verify: (jwt: string) => Promise<string> };

/** One verifier per server (a test process may run several servers with different key sets and clocks). */
const bearerVerifiers = new WeakMap<ServerState, BearerVerifier>();

async function verifierFor(state: ServerState): Promise<BearerVerifier> {
  const opts = state.options.bearer;
  if (!opts) throw unauthorized("bearer tokens are not configured on this server");
  const cached = bearerVerifiers.get(state);
  if (cached && cached.options === opts) return cached;
  const jose = await loadJose();
  const keySet = jose.createLocalJWKSet(opts.jwks as Parameters<Jose["createLocalJWKSet"]>[0]);
  const verifier: BearerVerifier = {
    options: opts,
    verify: async (token) => {
      const { payload } = await jose.jwtVerify(token, keySet, {
        issuer: opts.issuer,
        audience: opts.audience,
        // The server's clock, so tests can expire tokens without sleeping.
        currentDate: new Date(state.clock.now()),
        requiredClaims: ["exp", "sub"],
      });
      if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("no sub claim");
      return payload.sub;
    },
  };
  bearerVerifiers.set(state, verifier);
  return verifier;
}

async function verifyBearer(state: ServerState, jwt: string): Promise<string> {
  const verifier = await verifierFor(state);
  try {
    return await verifier.verify(jwt);
  } catch {
    // Why a token failed (issuer, audience, expiry, signature) is not told to the caller.
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
    // The checksum rejects typos and random guesses without touching the store.
    if (!value || !patChecksumValid(value)) throw unauthorized("invalid token");
    const token = state.store.findBy<TokenDoc>("token", "hashed_token", hashSecret(value));
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
    // Service users have no identity at the IdP (idp_id ""), so no JWT can act as one.
    const found = state.store.all<UserDoc>("user").find((u) => u.idp_id !== "" && u.idp_id === sub);
    const user = checkUser(found);
    // A bearer token is an interactive login at the IdP: record it, at a coarse resolution.
    const now = state.clock.now();
    const last = Date.parse(user.last_login);
    if (!(now - last < LAST_USED_RESOLUTION_MS)) {
      state.store.tx((tx) => tx.put("user", { ...user, last_login: iso(now) }));
    }
    return { user, via: "bearer", credentialId: `jwt:${sub}` };
  }
  throw unauthorized("unsupported authorization scheme: use Token or Bearer");
}
