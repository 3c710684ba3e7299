/**
 * The HTTP layer: one fastify route per entry of the API route table, each wrapped with authentication, the
 * role check, the cloud / embedded-IdP switches, rate limiting and validation against the api/ schemas. Errors
 * leave in the service's shape `{"message", "code"}`; no input produces a 500.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { validate } from "../api/common";
import { ROUTES, type ApiRoute } from "../api/routes";
import { authenticate } from "./auth";
import { iso } from "./clock";
import type { Ctx, Handlers, ServerState } from "./context";
import { ApiError, badRequest, forbidden, invalid, isApiError, notFound, preconditionFailed } from "./errors";
import { newId } from "./ids";
import { FaultInjector } from "./faults";
import { INTERNAL_ROUTES } from "./internal-routes";
import { RateLimiter } from "./rate-limit";
import { allowed } from "./roles";

/** fastify path syntax for an API path (`{id}` -> `:id`). */
function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

/** Path parameters that carry secrets by definition. */
const SECRET_PARAMS = new Set(["token"]);

/** The shapes of the ids the service issues: {@link newId}'s 20 base32hex characters, or a sequence number. */
const ID_SHAPE = /^(?:[0-9a-v]{20}|\d{1,15})$/;

/**
 * The path for the request log. A parameter is written as sent only when it has the shape of an id the service
 * issues; anything else becomes `***`. A secret (an invite token) can arrive in any parameter, not only in one
 * named `token`: a client may send it to `DELETE /api/users/invites/{inviteId}` (unauthenticated, too) or to
 * `POST .../{inviteId}/regenerate`, and the router matches those routes first.
 */
function redactedPath(route: ApiRoute, params: Record<string, string>): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name] ?? "";
    return SECRET_PARAMS.has(name) || !ID_SHAPE.test(value) ? "***" : encodeURIComponent(value);
  });
}

/**
 * The declared methods of every API path, for 405 answers. HEAD comes with every GET (fastify serves it).
 * `params` ranks the paths for OpenAPI's matching rule: a concrete path is matched before a templated one.
 */
const PATH_METHODS: { pattern: RegExp; params: number; methods: string[] }[] = (() => {
  const byPath = new Map<string, Set<string>>();
  for (const r of [...ROUTES, ...INTERNAL_ROUTES]) {
    const set = byPath.get(r.path) ?? new Set<string>();
    set.add(r.method);
    if (r.method === "GET") set.add("HEAD");
    byPath.set(r.path, set);
  }
  return [...byPath].map(([p, methods]) => ({
    pattern: new RegExp(
      `^${p
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]+")}/?$`,
    ),
    params: (p.match(/\{/g) ?? []).length,
    methods: [...methods],
  }));
})();

/**
 * The methods the document declares for `pathname`, sorted: those of the most specific API paths that match it
 * (`/api/users/invites` rather than `/api/users/{userId}`; paths of the same shape together). None when no API
 * path matches.
 */
function declaredMethods(pathname: string): string[] {
  let best = Infinity;
  const methods = new Set<string>();
  for (const { pattern, params, methods: m } of PATH_METHODS) {
    if (!pattern.test(pathname)) continue;
    if (params < best) {
      best = params;
      methods.clear();
    }
    if (params === best) for (const x of m) methods.add(x);
  }
  return [...methods].sort();
}

/**
 * What Node's HTTP parser refuses before there is a request (fastify's default answer for these is its own
 * `{error, message, statusCode}`): the same statuses Node would give, in the service's shape. The connection is
 * closed afterwards, as Node does, since the rest of its bytes cannot be trusted.
 */
function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] =
    err.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "request timeout: the request headers did not arrive in time"]
      : err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "request header fields too large"]
        : err.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW"
          ? [413, "request chunk extensions too large"]
          : [400, "malformed HTTP request"];
  const body = JSON.stringify({ message, code: status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

function sendError(
  reply: FastifyReply,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(status).type("application/json").send({ message, code: status });
}

export interface BuiltApp {
  app: FastifyInstance;
  /** Operation ids that have no handler yet (should be empty). */
  missing: string[];
}

/** Builds the fastify app for `state` with the given handlers (and optional extra routes, e.g. /sim). */
export function buildApp(
  state: ServerState,
  handlers: Handlers,
  extra?: (app: FastifyInstance, state: ServerState) => void,
): BuiltApp {
  /** One request-log line (route pattern and redacted path only: never the raw URL, never a body). */
  const log = state.options.onRequest;
  const logRequest = log
    ? (req: FastifyRequest, reply: FastifyReply): void => {
        const meta = req.routeOptions?.config as { apiRoute?: ApiRoute } | undefined;
        const route = meta?.apiRoute;
        const params = (req.params ?? {}) as Record<string, string>;
        log({
          time: iso(state.clock.now()),
          requestId: req.id,
          method: req.method,
          route: route?.path ?? req.routeOptions?.url ?? "(unknown)",
          path: route ? redactedPath(route, params) : (req.routeOptions?.url ?? "(unknown)"),
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 100) / 100,
          credentialId: (req as FastifyRequest & { credentialId?: string }).credentialId,
        });
      }
    : undefined;
  const timeouts = state.options.httpTimeouts;
  const app = Fastify({
    logger: false,
    http: {
      // A request without Host is answered by the onRequest hook below, in the service's shape (Node's own
      // answer has no body).
      requireHostHeader: false,
      ...(timeouts?.headersMs !== undefined ? { headersTimeout: timeouts.headersMs } : {}),
      ...(timeouts?.checkIntervalMs !== undefined
        ? { connectionsCheckingInterval: timeouts.checkIntervalMs }
        : {}),
    },
    clientErrorHandler,
    // Requests that arrive during shutdown are answered 503 by the onRequest hook below (fastify's own 503 has
    // its body shape).
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
    genReqId: () => newId(),
    // Behind nothing: the request id is ours, not the client's.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // What the router itself refuses, answered in the service's error shape (fastify's own body has a string
    // `code`, and its 414 is a status the API does not document).
    frameworkErrors: (err, req, reply) => {
      // Neither the onSend nor the onResponse hook below runs for these: the router answered before any route.
      reply.header("X-Request-Id", req.id);
      if (logRequest) reply.raw.once("finish", () => logRequest(req, reply));
      if (err.code === "FST_ERR_BAD_URL")
        return sendError(reply, 400, "malformed URL: a path segment is not valid percent-encoding");
      // No id is anywhere near this long: an unknown object, like any other id nobody has.
      if (err.code === "FST_ERR_MAX_PARAM_LENGTH")
        return sendError(reply, 404, "not found: a path parameter is longer than any id");
      return sendError(reply, 400, "bad request");
    },
  });
  const limiter = state.options.rateLimit ? new RateLimiter(state.options.rateLimit, state.clock) : undefined;
  const authFailures = state.options.authFailLimit
    ? new RateLimiter(
        state.options.authFailLimit,
        state.clock,
        "too many failed authentications from this address",
      )
    : undefined;
  const faults = state.options.faults ? new FaultInjector(state.options.faults) : undefined;

  // Every body is JSON, whatever the Content-Type says; an empty body is "no body".
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest("couldn't parse JSON request"), undefined);
    }
  });

  app.addHook("onSend", async (req, reply) => {
    reply.header("X-Request-Id", req.id);
  });

  if (logRequest) app.addHook("onResponse", async (req, reply) => logRequest(req, reply));

  app.setErrorHandler((err, _req, reply) => {
    if (isApiError(err)) return sendError(reply, err.status, err.message, err.headers);
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") return sendError(reply, 413, "request body too large");
    if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
      return sendError(
        reply,
        e.statusCode,
        e.code?.startsWith("FST_ERR_CTP") ? "couldn't parse JSON request" : (e.message ?? "bad request"),
      );
    }
    process.stderr.write(
      `privnet-server: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return sendError(reply, 500, "internal error");
  });

  // Set once shutdown begins: requests that still arrive (on kept-alive connections) are answered 503 below.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // An Expect the server does not meet (anything but 100-continue): Node answers 417 without a body.
  app.server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      message: "expectation failed: only Expect: 100-continue is supported",
      code: 417,
    });
    res.writeHead(417, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      Connection: "close",
    });
    res.end(body);
  });

  // Routing before anything else (authentication, the body): a method the document does not declare for the
  // path is 405 with Allow, whether or not the router found a handler. It would otherwise reach a templated
  // sibling (PUT /api/users/invites -> PUT /api/users/{userId}), the not-found handler, or fail body parsing
  // first (QUERY without a Content-Type); and an unknown path is 404 whatever its body. Before all that: the
  // shutdown and a missing Host.
  app.addHook("onRequest", async (req, reply) => {
    if (closing) {
      reply.header("Connection", "close");
      sendError(reply, 503, "the server is shutting down");
      return reply;
    }
    // HTTP/1.1 requires Host (RFC 9112, 3.2).
    if (req.raw.httpVersion === "1.1" && req.headers.host === undefined) {
      reply.header("Connection", "close");
      sendError(reply, 400, "bad request: an HTTP/1.1 request needs a Host header");
      return reply;
    }
    const pathname = req.url.split("?")[0] ?? "";
    const methods = pathname.startsWith("/api/") ? declaredMethods(pathname) : [];
    if (methods.length && !methods.includes(req.method)) {
      // The message names the methods, not the path: a path may carry an invite token.
      sendError(reply, 405, `method ${req.method} is not allowed here; allowed: ${methods.join(", ")}`, {
        Allow: methods.join(", "),
      });
      return reply;
    }
    if (req.is404) {
      sendError(reply, 404, `no route for ${req.method} ${pathname}`);
      return reply;
    }
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(reply, 404, `no route for ${req.method} ${req.url.split("?")[0]}`),
  );

  const missing: string[] = [];
  for (const route of [...ROUTES, ...INTERNAL_ROUTES]) {
    const handler = handlers[route.operationId];
    if (!handler) missing.push(route.operationId);
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      config: { apiRoute: route },
      handler: async (req, reply) => {
        if (faults) await faults.maybeFail(req.url);
        const params = (req.params ?? {}) as Record<string, string>;
        let actor: Ctx["actor"];
        if (route.auth === "public") {
          // The public invite routes carry no credential: limit them per client address. Their invite token
          // is one, though: an unknown token counts as a failed authentication (below).
          limiter?.take(`ip:${req.ip}`);
          authFailures?.check(req.ip);
        } else {
          const header = req.headers.authorization;
          // An address over its budget of failed authentications gets no credential looked at, not even a good
          // one: a guess must learn nothing. A request without any credential is no guess.
          if (header) authFailures?.check(req.ip);
          try {
            actor = await authenticate(state, header);
          } catch (err) {
            if (header && isApiError(err) && err.status === 401) authFailures?.spend(req.ip);
            throw err;
          }
          (req as FastifyRequest & { credentialId?: string }).credentialId = actor.credentialId;
          // One bucket per user, whichever of its credentials is used.
          limiter?.take(`user:${actor.user.id}`);
          if (!allowed(actor.user.role, route, actor.user.id, params)) {
            throw forbidden(
              `permission denied: role ${actor.user.role} may not ${route.method} ${route.path}`,
            );
          }
        }
        if (route.cloudOnly && !state.options.cloud) {
          throw notFound(
            `${route.path} is available in the cloud offering only (start privnet-server with --cloud)`,
          );
        }
        if (route.embeddedIdpOnly && !state.options.embeddedIdp) {
          throw preconditionFailed(
            "the embedded identity provider is not enabled (start privnet-server with --embedded-idp)",
          );
        }
        let query: Record<string, unknown> = {};
        if (route.query) {
          const q = validate(route.query, req.query ?? {});
          if (!q.ok) throw invalid(q.message);
          query = q.value as Record<string, unknown>;
        }
        let body: unknown;
        if (route.body) {
          // No body at all is fine when every field is optional (regenerating an invite).
          if (req.body === undefined && validate(route.body, {}).ok) req.body = {};
          if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
            throw badRequest("request body must be a JSON object");
          }
          const b = validate(route.body, req.body);
          if (!b.ok) throw invalid(b.message);
          body = b.value;
        }
        if (!handler) throw new ApiError(501, `${route.operationId} is not implemented`);
        const ctx: Ctx = {
          route,
          params,
          query,
          body,
          actor,
          state,
          requestId: req.id,
          now: state.clock.now(),
        };
        let result: unknown;
        try {
          result = await handler(ctx);
        } catch (err) {
          // An invite token nobody has (public routes answer 404 for it).
          if (route.auth === "public" && isApiError(err) && err.status === 404) authFailures?.spend(req.ip);
          throw err;
        }
        reply.code(route.status);
        if (!route.response) return reply.send();
        return reply.type("application/json").send(result ?? {});
      },
    });
  }
  extra?.(app, state);
  return { app, missing };
}
