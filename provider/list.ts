/**
 * Every object of a kind, read the way the provider reads one: what privnet-import adopts. A kind's objects live
 * in the collection of its read route (`GET /api/groups` for `GET /api/groups/{groupId}`), or its read route is
 * the list itself (users, invites: no GET of one); a kind under a parent is listed under every parent, the parents
 * listed the same way (`GET /api/networks`, then `GET /api/networks/{networkId}/resources` for each). Singletons
 * and settings, which are no collection, list through their `list` hook, the same read their refresh uses.
 *
 * Answers are read as the provider reads them: `null` or no body is an empty list, items without an id are
 * skipped, integer ids are their text. A nested list that answers 404 is empty (its parent went away meanwhile),
 * unless the route is cloud-only (then the 404 says the server has no such thing, and the caller hears it).
 */
import { operationById, operations, type Operation } from "../api/operations";
import { isNotFound } from "../client";
import { listAnswer, type LifecycleContext, type Listed, type Props, type ResourceSpec } from "./spec";

/** The GET route listing the collection at `path`, if the table has one. */
function listAt(path: string): Operation | undefined {
  return operations().find((r) => r.method === "GET" && r.path === path && r.list);
}

/**
 * The route that lists a kind's objects: the collection of its read route, or the read route itself when that
 * is a list; undefined for singletons and settings (see the `list` hook).
 */
export function listRouteOf(spec: ResourceSpec): Operation | undefined {
  if (spec.singleton) return undefined;
  const read = operationById(spec.ops.read);
  const suffix = spec.idParam ? `/{${spec.idParam}}` : undefined;
  if (suffix && read.path.endsWith(suffix)) return listAt(read.path.slice(0, -suffix.length));
  return listAt(read.path) === read ? read : undefined;
}

/** An object's id as the resource id (integer ids as their text); undefined when it has none. */
export function idOf(item: Props): string | undefined {
  const id = item.id;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** The objects a list route answers under `params` (see the module comment for 404 and `null`). */
async function listIn(
  ctx: LifecycleContext,
  route: Operation,
  params: Record<string, string>,
): Promise<Props[]> {
  try {
    return listAnswer(await ctx.client.call(route.operationId, { params }), route.operationId);
  } catch (err) {
    if (route.pathParams.length > 0 && !route.cloudOnly && isNotFound(err)) return [];
    throw err;
  }
}

/**
 * Every set of path parameters a nested list route is asked with: one per parent object (per combination, for a
 * route under several), each parent listed from the collection its placeholder follows.
 */
async function scopesOf(ctx: LifecycleContext, route: Operation): Promise<Record<string, string>[]> {
  let scopes: Record<string, string>[] = [{}];
  for (const param of route.pathParams) {
    const base = route.path.slice(0, route.path.indexOf(`/{${param}}`));
    const parents = listAt(base);
    if (!parents) throw new Error(`privnet: no list of the parents of ${route.path} ({${param}})`);
    const next = await Promise.all(
      scopes.map(async (scope) =>
        (await listIn(ctx, parents, scope)).flatMap((p) => {
          const id = idOf(p);
          return id === undefined ? [] : [{ ...scope, [param]: id }];
        }),
      ),
    );
    scopes = next.flat();
  }
  return scopes;
}

/** Every object of a kind (see the module comment). */
export async function listObjects(spec: ResourceSpec, ctx: LifecycleContext): Promise<Listed[]> {
  if (spec.hooks?.list) return spec.hooks.list(ctx);
  const route = listRouteOf(spec);
  if (!route) throw new Error(`privnet: ${spec.name} has no list operation and no list hook`);
  const inputOf = new Map((spec.parents ?? []).map((p) => [p.param, p.input]));
  const lists = await Promise.all(
    (await scopesOf(ctx, route)).map(async (params) => {
      const parents = Object.fromEntries(Object.entries(params).map(([k, v]) => [inputOf.get(k) ?? k, v]));
      return (await listIn(ctx, route, params)).flatMap((object): Listed[] => {
        const id = idOf(object);
        return id === undefined ? [] : [{ id, object, parents }];
      });
    }),
  );
  return lists.flat();
}
