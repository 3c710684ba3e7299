/**
 * The route table's operations without their schemas, for whatever only calls the API: the client (method, path,
 * credentials), the provider (a kind's list route, whether a list answers what a GET does) and the lookups' docs.
 * api/routes.ts builds every request and response schema of the API when it loads (about 60 ms of zod in a
 * provider process that needs one kind's); this builds none. The table itself, ./operation-table.ts, is generated
 * from api/routes.ts by `npm run gen`, so the two cannot drift apart.
 */
import type { ApiRoute, Method } from "./routes";
import { OPERATION_TABLE } from "./operation-table";

/** One operation as ./operation-table.ts writes it (defaults left out: status 200, auth by token). */
export interface OperationEntry {
  method: Method;
  path: string;
  family: ApiRoute["family"];
  status?: ApiRoute["status"];
  auth?: ApiRoute["auth"];
  cloudOnly?: true;
  embeddedIdpOnly?: true;
  /** The object the answer is (its name in api/objects.ts); absent when the answer has no schema or is empty. */
  response?: string;
  /** The answer is an array of `response`. */
  list?: true;
}

/** An operation of the route table, as {@link operationById} answers it: an {@link ApiRoute} without schemas. */
export interface Operation extends Pick<
  ApiRoute,
  | "operationId"
  | "method"
  | "path"
  | "family"
  | "pathParams"
  | "status"
  | "auth"
  | "cloudOnly"
  | "embeddedIdpOnly"
> {
  /** The object the answer is (its name in api/objects.ts), or undefined. */
  response: string | undefined;
  /** The answer is an array of {@link response}. */
  list: boolean;
}

function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

let all: Map<string, Operation> | undefined;

function table(): Map<string, Operation> {
  all ??= new Map(
    Object.entries(OPERATION_TABLE).map(([operationId, e]) => [
      operationId,
      {
        operationId,
        method: e.method,
        path: e.path,
        family: e.family,
        pathParams: paramsOf(e.path),
        status: e.status ?? 200,
        auth: e.auth ?? "token",
        ...(e.cloudOnly ? { cloudOnly: true } : {}),
        ...(e.embeddedIdpOnly ? { embeddedIdpOnly: true } : {}),
        response: e.response,
        list: e.list === true,
      },
    ]),
  );
  return all;
}

/** Every operation, in the route table's order. */
export function operations(): Operation[] {
  return [...table().values()];
}

/** An operation by its operationId; throws for an unknown id (a programming error). */
export function operationById(operationId: string): Operation {
  const r = table().get(operationId);
  if (!r) throw new Error(`unknown operation ${operationId}`);
  return r;
}

/** Fills `{param}` placeholders, URL-encoding each value. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === "") throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(v));
  });
}
