/**
 * Keep-alive connection pools shared by every client of one origin in this process: the dynamic provider
 * creates a client per resource operation, and sharing the pool lets them all reuse warm connections.
 */
import type { Dispatcher, Pool } from "undici";

/**
 * undici's Pool and its `request`, loaded on the first pool, not with the module: every Pulumi program and provider
 * host loads this package, and most of them (a program without lookups, a preview) never send a request. Their own
 * modules, not the package's index: the index also loads fetch, cookies, WebSocket and the rest of undici's web
 * API, and through them Node's built-in copy of undici, which the first request would wait for (40 ms more in a
 * Node without a code cache; 5 ms more on the plugin's first call, which has one). The index is also what puts
 * `request` on every dispatcher's prototype; here it goes on our pools only.
 */
function newPool(origin: string, connectTimeoutMs: number): Pool {
  /* eslint-disable @typescript-eslint/no-require-imports -- deliberate lazy load, see above */
  const UndiciPool = require("undici/lib/dispatcher/pool") as typeof Pool;
  const request = require("undici/lib/api/api-request") as Dispatcher["request"];
  /* eslint-enable @typescript-eslint/no-require-imports */
  const pool = new UndiciPool(origin, { connect: { timeout: connectTimeoutMs } });
  if (typeof pool.request !== "function") Object.defineProperty(pool, "request", { value: request });
  return pool;
}

interface SharedPool {
  pool: Pool;
  users: number;
}

const pools = new Map<string, SharedPool>();

/** A client's hold on a shared pool. */
export interface PoolLease {
  dispatcher: Dispatcher;
  /** Gives the pool back; the last holder closes it. Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Takes a lease on the pool for `origin`. Idle sockets are unref'd by undici, so a forgotten lease does not keep
 * the process alive; releasing is still what lets tests end without open handles.
 *
 * The keep-alive time is undici's default (4 s unless the server sends a `Keep-Alive` hint), below Node's
 * server default of 5 s: a socket the server has already closed would otherwise be picked for the next request,
 * and a POST failing that way cannot be repeated.
 */
export function acquirePool(origin: string, connectTimeoutMs: number): PoolLease {
  const key = `${origin}#${connectTimeoutMs}`;
  let shared = pools.get(key);
  if (!shared) {
    shared = { pool: newPool(origin, connectTimeoutMs), users: 0 };
    pools.set(key, shared);
  }
  const held = shared;
  held.users += 1;
  let released = false;
  return {
    dispatcher: held.pool,
    async release() {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users === 0) {
        if (pools.get(key) === held) pools.delete(key);
        await held.pool.close();
      }
    },
  };
}
