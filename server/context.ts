/** What every handler receives, and the server-wide state behind it. */
import type { ApiRoute } from "../api/routes";
import type { Clock } from "./clock";
import { ApiError } from "./errors";
import type { Actor, AccountDoc } from "./model";
import type { Doc, Kind, Store, Tx } from "./store";

export interface RateLimitOptions {
  perMinute: number;
  burst: number;
}

export interface BearerOptions {
  /** Expected `iss` claim. */
  issuer: string;
  /** Expected `aud` claim, if any. */
  audience?: string;
  /** JSON Web Key Set used to verify signatures. */
  jwks: { keys: Record<string, unknown>[] };
}

/** Seeded fault injection for resilience tests (bench): a share of requests fails or is delayed. */
export interface FaultOptions {
  seed: number;
  /** Share of /api requests answered 429, 0..1. */
  rate429: number;
  /** Share answered 503, 0..1. */
  rate503: number;
  /** Added latency in ms (uniform 0..latencyMs). */
  latencyMs: number;
}

export interface ServerOptions {
  /** Serve the cloud-only operations (ingress, traffic events). */
  cloud: boolean;
  /** Serve the embedded-IdP-only operations (invites, password change). */
  embeddedIdp: boolean;
  /** Serve the simulated agent routes under /sim. */
  simulate: boolean;
  /**
   * Shared proxy clusters (`--proxy-cluster ADDRESS`): always online, as the operator's clusters of the cloud
   * offering are. Services can be published under these addresses without a proxy registering first.
   */
  proxyClusters?: string[];
  /** Token bucket per user (all its credentials together); undefined = off (the default locally). */
  rateLimit?: RateLimitOptions;
  /** Token bucket of failed authentications per client address; undefined = off. */
  authFailLimit?: RateLimitOptions;
  bearer?: BearerOptions;
  faults?: FaultOptions;
  clock: Clock;
  /**
   * HTTP timeouts in ms: how long a client may take to send the request headers (408 after that), and how often
   * connections are checked. Node's defaults (60 s, every 30 s) unless set; tests shorten them.
   */
  httpTimeouts?: { headersMs?: number; checkIntervalMs?: number };
  /** Called once per request, after the response is sent (request log). Never receives bodies or secrets. */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface RequestLogEntry {
  time: string;
  requestId: string;
  method: string;
  /** The route pattern, e.g. /api/routes/{routeId}; secrets in paths never appear. */
  route: string;
  /** The concrete path; a parameter not shaped like an id the service issues (an invite token) reads `***`. */
  path: string;
  status: number;
  durationMs: number;
  credentialId?: string;
}

export interface ServerState {
  store: Store;
  options: ServerOptions;
  clock: Clock;
  /** Every kind of stored document, as the handler modules declare them (handlers/index.ts). */
  kinds: ReadonlyMap<Kind, StoredKind>;
}

export interface Ctx {
  route: ApiRoute;
  params: Record<string, string>;
  /** Validated query (defaults applied). */
  query: Record<string, unknown>;
  /** Validated body. */
  body: unknown;
  /** The caller; undefined only on public routes. */
  actor?: Actor;
  state: ServerState;
  requestId: string;
  /** Request time (ms since epoch), from the injected clock. */
  now: number;
}

export type Handler = (ctx: Ctx) => unknown;
export type Handlers = Partial<Record<string, Handler>>;

/**
 * What a handler module says about one kind of document it stores. Each module exports `kinds` (kind name ->
 * this) next to its `handlers`; the store's kinds are exactly the kinds the modules declare (handlers/index.ts).
 */
export interface StoredKind {
  /**
   * Where a document holds a group's id, as phrases naming the document (`setup key ci (12)`); empty when it
   * does not. A group still named somewhere cannot be deleted, and the refusal names every user. Every kind whose
   * documents hold group ids declares it (tests/provider/group-references.test.ts finds one that does not).
   */
  groupUses?: (doc: Doc, groupId: string) => string[];
}

/** A handler module's `kinds` export: the kinds of document it stores, by kind name (`network_router`). */
export type StoredKinds = Record<string, StoredKind>;

/** The caller of a token-authenticated route (throws if a public route asks for it: a programming error). */
export function actorOf(ctx: Ctx): Actor {
  if (!ctx.actor) throw new Error(`route ${ctx.route.operationId} has no actor`);
  return ctx.actor;
}

/** The account document (one per database). */
export function accountOf(r: Pick<Store | Tx, "all">): AccountDoc {
  const acc = r.all<AccountDoc>("account")[0];
  // Only after the owner deleted the account; every credential is gone by then too.
  if (!acc) throw new ApiError(412, "the account has been deleted");
  return acc;
}
