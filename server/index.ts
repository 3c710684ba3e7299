/**
 * The local management server, programmatically: `startServer()` opens (or creates) the database, bootstraps a
 * new one, and listens. The CLI (`privnet-server`) is a thin layer over it.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app";
import { bootstrap } from "./bootstrap";
import { systemClock, type Clock } from "./clock";
import type {
  BearerOptions,
  FaultOptions,
  RateLimitOptions,
  RequestLogEntry,
  ServerOptions,
  ServerState,
} from "./context";
import { KINDS, allHandlers } from "./handlers";
import { registerSimulator } from "./sim";
import { registerLlmSimulator } from "./sim-llm";
import { registerProxySimulator } from "./sim-proxy";
import { resolveSecretsKey } from "./secrets";
import { registerEventFeed } from "./sim-events";
import { applySeed, type Seed } from "./seed";
import { Store, type Synchronous } from "./store";

export interface StartOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** SQLite file, or ":memory:" (default). */
  db?: string;
  /**
   * The key integration credentials are encrypted with (base64, 32 bytes, mode 0600); created when missing on a
   * database that has no credentials yet. Default `<db>.key`; an in-memory key for ":memory:".
   */
  secretsKeyFile?: string;
  /** SQLite `synchronous` for a database file: "full" (default, survives power loss) or "normal". */
  synchronous?: Synchronous;
  cloud?: boolean;
  embeddedIdp?: boolean;
  simulate?: boolean;
  /** Shared reverse-proxy clusters, always online (see ServerOptions.proxyClusters). */
  proxyClusters?: string[];
  rateLimit?: RateLimitOptions;
  /** Failed authentications per client address (the CLI defaults it when --rate-limit is on). */
  authFailLimit?: RateLimitOptions;
  bearer?: BearerOptions;
  faults?: FaultOptions;
  clock?: Clock;
  httpTimeouts?: ServerOptions["httpTimeouts"];
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Objects to load into the new database (server/seed.ts: the offline twin of `privnet-access diff`), ids kept.
   * Off by default; refused on a database that already holds an account.
   */
  seed?: Seed;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  state: ServerState;
  app: FastifyInstance;
  /** The owner PAT's plain value when this start created the database; undefined otherwise. */
  ownerToken?: string;
  close(): Promise<void>;
}

/** Builds the app without listening (for in-process tests with `app.inject`). */
export function createServer(opts: StartOptions = {}): {
  app: FastifyInstance;
  state: ServerState;
  ownerToken?: string;
} {
  const clock = opts.clock ?? systemClock;
  const db = opts.db ?? ":memory:";
  const store = new Store(db, resolveSecretsKey(db, opts.secretsKeyFile), { synchronous: opts.synchronous });
  let ownerToken: string | undefined;
  try {
    if (store.isEmpty()) ownerToken = bootstrap(store, clock, opts.embeddedIdp ?? false);
    if (opts.seed) {
      if (ownerToken === undefined)
        throw new Error("--seed loads only into a new database; this one has an account");
      applySeed(store, clock, opts.seed);
    }
  } catch (err) {
    store.close();
    throw err;
  }
  const state: ServerState = {
    store,
    clock,
    kinds: KINDS,
    options: {
      cloud: opts.cloud ?? false,
      embeddedIdp: opts.embeddedIdp ?? false,
      simulate: opts.simulate ?? false,
      proxyClusters: opts.proxyClusters,
      rateLimit: opts.rateLimit,
      authFailLimit: opts.authFailLimit,
      bearer: opts.bearer,
      faults: opts.faults,
      clock,
      httpTimeouts: opts.httpTimeouts,
      onRequest: opts.onRequest,
    },
  };
  const { app, missing } = buildApp(
    state,
    allHandlers,
    opts.simulate
      ? (a, st) => {
          registerSimulator(a, st);
          registerProxySimulator(a, st);
          registerLlmSimulator(a, st);
          registerEventFeed(a, st);
        }
      : undefined,
  );
  if (missing.length && process.env.PRIVNET_ALLOW_MISSING_HANDLERS !== "1") {
    store.close();
    throw new Error(`operations without a handler: ${missing.join(", ")}`);
  }
  app.addHook("onClose", async () => store.close());
  return { app, state, ownerToken };
}

/** Starts listening; resolves once the port is bound. */
export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? "127.0.0.1";
  const { app, state, ownerToken } = createServer(opts);
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === "object" && addr ? addr.port : (opts.port ?? 0);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    state,
    app,
    ownerToken,
    close: () => app.close(),
  };
}

export { Store } from "./store";
export { SEED_KINDS, validateSeed, type Seed, type SeedObject } from "./seed";
export { ManualClock, systemClock } from "./clock";
