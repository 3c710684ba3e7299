/**
 * Batched reads. During a refresh the engine reads every resource of the stack, many at once, each through the
 * provider's `read`: one GET per resource spends a rate-limited account's requests fast (the hosted limit is 120
 * per minute). Here the reads of one kind (of one parent, for kinds that live in a parent: records per zone,
 * resources and routers per network, tokens per user, port allocations per peer) share one list request.
 *
 * What keeps it correct:
 * - A list never decides that an object is gone: an id the list lacks is read by id, and only that GET's 404
 *   means gone. A list that fails (403, 404, a shape that is not a list) serves nothing: its reads GET.
 * - A cached list answers each object once: asking again for an object it already answered (a second read of the
 *   same resource in this process) drops it, and a new list is fetched. A list serves reads for at most
 *   {@link LIST_TTL_MS} after its answer arrived.
 * - Writes: once this process sends anything but a GET (a create, update or delete of any kind, through any
 *   credentials: writes change other kinds' objects too, as a network resource joins its groups), every cached
 *   list is dropped, the reads waiting on a list that was in flight GET instead, and every later read GETs. Lists
 *   serve read passes (refresh, preview --refresh, the refresh before an update); the reads a provider makes
 *   next to its own writes (adopting an object, reading it back after a write, confirming a delete) go by id.
 * - Only kinds whose list answers what their GET answers are batched: the list route returns an array of the
 *   GET's own response schema (api/routes.ts), checked here for every kind. Singletons read their one object.
 *   Peer is read by id: the service's peer list answers `accessible_peers_count`, which its GET leaves out, and
 *   computes reachability for every peer. User and UserInvite have no GET: they have always read from a list;
 *   their reads share one list too, and an id a shared list lacks is looked for in a new list before the object
 *   counts as gone.
 *
 * Configurable off with `privnet:batchReads false` or `PRIVNET_BATCH_READS=0` (config first). The cache
 * lives in this module: one per provider process, which the engine starts once per command (per pass: a plain
 * `pulumi refresh` previews in one process and refreshes in another), shared by every kind's provider in it and
 * keyed by client (API URL and token), list operation and parent.
 */
import { operationById } from "../api/operations";
import type { PrivnetClient } from "../client";
import { idOf, listRouteOf } from "./list";
import {
  isRecord,
  listAnswer,
  parentPathParams,
  type ApiCaller,
  type LifecycleContext,
  type Props,
  type ResourceSpec,
} from "./spec";

/**
 * How long a list answers reads after it arrived: longer than a read pass of a large stack takes (each pass is a
 * process of its own; a pass over 1,000 resources took about 4 s on 2 cores, BENCHMARKS.md section 7, and far
 * longer on a loaded machine), while bounding how old an answer can be.
 */
export const LIST_TTL_MS = 60_000;

/** Kinds read by id although their list route has the GET's schema, and why. */
export const READ_BY_ID: Readonly<Record<string, string>> = {
  Peer:
    "the service's peer list answers accessible_peers_count, which its GET leaves out, and computes " +
    "reachability for every peer",
};

/**
 * Whether reads are batched: `privnet:batchReads` (a provider's argument or stack config) over
 * `PRIVNET_BATCH_READS`, as for the other settings (model/credentials.ts); default on.
 */
export function readBatching(
  get: (key: "batchReads") => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  // Config set with `--type bool` (or a provider's boolean argument) may arrive as a boolean.
  const configured: unknown = get("batchReads");
  const fromConfig = configured === undefined || configured === null ? "" : String(configured);
  const fromEnv = env.PRIVNET_BATCH_READS ?? "";
  const text = fromConfig !== "" ? fromConfig : fromEnv;
  if (text === "") return true;
  const v = text.trim().toLowerCase();
  if (["true", "1", "on", "yes"].includes(v)) return true;
  if (["false", "0", "off", "no"].includes(v)) return false;
  const source = fromConfig !== "" ? "privnet:batchReads" : "PRIVNET_BATCH_READS";
  throw new Error(`privnet: ${source} must be true or false, got ${JSON.stringify(text)}`);
}

const plans = new Map<string, string | null>();

/**
 * The list operation whose answer can stand in for a kind's GET, or undefined when the kind is read by id: the
 * route that lists the GET's collection must answer an array of the GET's own response schema.
 */
export function listOperationOf(spec: ResourceSpec): string | undefined {
  const known = plans.get(spec.name);
  if (known !== undefined) return known ?? undefined;
  let found: string | null = null;
  if (!spec.singleton && !spec.hooks?.read && spec.idParam && !(spec.name in READ_BY_ID)) {
    const get = operationById(spec.ops.read);
    const list = listRouteOf(spec);
    // Both answers named by their object in api/objects.ts (api/operations.ts): the list's elements are the GET's.
    if (get.method === "GET" && get.response && !get.list && list && list !== get && list.list) {
      if (list.response === get.response) found = list.operationId;
    }
  }
  plans.set(spec.name, found);
  return found ?? undefined;
}

interface ListEntry {
  /** The write generation the list was asked for in. */
  generation: number;
  /** When its answer arrived (ms since the epoch); undefined while in flight. */
  answeredAt?: number;
  /** Objects by id; undefined when the list failed. */
  items: Promise<Map<string, Props> | undefined>;
  /** Ids it has answered. */
  served: Set<string>;
}

/** Cached lists per client (API URL and token), by list operation and parent. */
const lists = new WeakMap<ApiCaller, Map<string, ListEntry>>();
/** Every cache that may hold a list, to drop them all at a write. */
const caches = new Set<Map<string, ListEntry>>();
const watched = new WeakSet<PrivnetClient>();
/** Bumped by every write; a list asked for before a write serves nothing after it. */
let generation = 0;
let wrote = false;

function noteWrite(): void {
  wrote = true;
  generation++;
  for (const c of caches) c.clear();
  caches.clear();
}

/**
 * Watches a client for writes (anything but a GET). Call it for every client the provider uses, before its first
 * request: lifecycle's context does.
 */
export function trackWrites(client: PrivnetClient): void {
  if (watched.has(client)) return;
  watched.add(client);
  client.observe({
    request: ({ method }) => {
      if (method !== "GET") noteWrite();
    },
  });
}

/** Whether this process has written through a watched client (then every read goes by id). */
export function hasWritten(): boolean {
  return wrote;
}

function cacheOf(client: ApiCaller): Map<string, ListEntry> {
  let c = lists.get(client);
  if (!c) {
    c = new Map();
    lists.set(client, c);
  }
  caches.add(c);
  return c;
}

/** Asks for a list; its answer as objects by id (`null` is an empty list), undefined when it failed. */
function requestList(ctx: LifecycleContext, operation: string, params: Record<string, string>): ListEntry {
  const entry: ListEntry = { generation, served: new Set(), items: Promise.resolve(undefined) };
  entry.items = ctx.client.call(operation, { params }).then(
    (answer) => {
      entry.answeredAt = Date.now();
      if (answer === null || answer === undefined) return new Map<string, Props>();
      if (!Array.isArray(answer)) return undefined;
      const byId = new Map<string, Props>();
      for (const item of answer) {
        if (!isRecord(item)) continue;
        const id = idOf(item);
        if (id !== undefined) byId.set(id, item);
      }
      return byId;
    },
    () => {
      entry.answeredAt = Date.now();
      return undefined;
    },
  );
  return entry;
}

/**
 * The object `id` from a shared list of `operation` (with `params`), or undefined when the list has no such
 * object, failed, or may predate a write. Starts the list when no usable one is cached.
 */
async function fromSharedList(
  ctx: LifecycleContext,
  operation: string,
  params: Record<string, string>,
  id: string,
): Promise<Props | undefined> {
  const cache = cacheOf(ctx.client);
  const key = `${operation}\u0000${JSON.stringify(params)}`;
  let entry = cache.get(key);
  if (
    entry &&
    (entry.served.has(id) || (entry.answeredAt !== undefined && Date.now() - entry.answeredAt > LIST_TTL_MS))
  ) {
    cache.delete(key);
    entry = undefined;
  }
  if (!entry) {
    entry = requestList(ctx, operation, params);
    cache.set(key, entry);
  }
  const items = await entry.items;
  if (!items || entry.generation !== generation || entry.served.has(id)) return undefined;
  const item = items.get(id);
  if (item) entry.served.add(id);
  return item;
}

/**
 * A read of `id` through a shared list where the kind allows it, else (and for every miss) through `byId`, the
 * GET that decides what is gone.
 */
export async function batchedGet(
  spec: ResourceSpec,
  ctx: LifecycleContext,
  id: string,
  props: Props,
  byId: () => Promise<Props | undefined>,
): Promise<Props | undefined> {
  const operation = ctx.batchReads === false || wrote ? undefined : listOperationOf(spec);
  const params = operation ? parentPathParams(spec, props) : undefined;
  if (!operation || !params) return byId();
  return (await fromSharedList(ctx, operation, params, id)) ?? byId();
}

/**
 * The object `id` of a kind that has no GET, from its list (`listUsers`, `listInvites`); undefined when it is
 * not there. Shared lists serve it when batching allows; an id a shared list lacks is looked for in a new list.
 */
export async function fromList(
  ctx: LifecycleContext,
  operation: string,
  id: string,
): Promise<Props | undefined> {
  if (ctx.batchReads !== false && !wrote) {
    const shared = await fromSharedList(ctx, operation, {}, id);
    if (shared) return shared;
  }
  const items = listAnswer(await ctx.client.call(operation), operation);
  return items.find((x) => idOf(x) === id);
}
