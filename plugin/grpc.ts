/**
 * A small gRPC server for the resource plugin, on its own small HTTP/2 server (./h2.ts): what the Pulumi engine
 * (Go gRPC) and the tests (a grpc-js client) need of gRPC, and nothing more. It replaces a general gRPC library
 * (and then node:http2) whose per-call machinery cost the plugin more CPU than the calls themselves; the engine
 * shares the machine's cores.
 *
 * What it implements:
 * - Unary calls over cleartext HTTP/2 (prior knowledge, as gRPC clients connect to `127.0.0.1:<port>`), routed by
 *   `:path` with a generated service definition (each method's `path`, `requestDeserialize`, `responseSerialize`,
 *   `requestStream`/`responseStream`), so this module knows no method of its own.
 * - Length-prefixed messages (1 byte compressed flag, 4 bytes big-endian length), the request's DATA in any number
 *   of chunks, up to a receive limit (RESOURCE_EXHAUSTED above it).
 * - Responses: `:status 200`, `content-type: application/grpc`, the message, then trailers `grpc-status` and
 *   `grpc-message` (percent-encoded as the gRPC HTTP/2 spec requires). An error is a trailers-only response: a
 *   {@link GrpcError} keeps its code, any other error is UNKNOWN, both with their message.
 * - Refusals: an unknown method and a streaming method are UNIMPLEMENTED; a compressed message is UNIMPLEMENTED
 *   (no `grpc-encoding` is supported; `grpc-accept-encoding: identity` says so); a request other than POST is
 *   HTTP 405 and a content-type other than `application/grpc[+proto|;...]` HTTP 415 (gRPC clients map both to a
 *   status); no message, or more than one, is INTERNAL.
 * - A client that resets a stream, or drops its connection, mid-call: the call's answer is dropped, nothing throws.
 * - Graceful shutdown: no new connection or call; calls in flight finish, then the server closes.
 *
 * What it does not: streaming of any kind, compression, TLS, deadlines (`grpc-timeout` is not enforced: the
 * engine cancels by resetting the stream), metadata to handlers (request headers are not passed, no response
 * headers but the required ones), keepalive policy, health checking and reflection.
 */
import { serveH2, type H2Stream } from "./h2";

/** gRPC status codes (those the plugin and this module use, and the rest for completeness). */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** An error a handler throws to answer with a given status code (its message is the status message). */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** One method of a generated service definition (grpc-tools' `*_grpc_pb.js`), as far as a server needs it. */
export interface MethodDefinition {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestDeserialize(bytes: Buffer): unknown;
  responseSerialize(message: never): Buffer;
}

/** A unary handler: the request message in, the response message out (or a thrown error). */
export type UnaryHandler = (request: never) => Promise<unknown>;

export interface ServeOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The largest request message accepted, in bytes (default 4 MiB, as gRPC's). */
  maxReceiveBytes?: number;
}

export interface GrpcServer {
  port: number;
  /** Stops accepting connections and calls; resolves when the calls in flight have finished. */
  shutdown(): Promise<void>;
}

/** A `grpc-message` value: UTF-8, with every byte outside printable ASCII, and `%`, percent-encoded. */
export function encodeGrpcMessage(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const GRPC_CONTENT_TYPE = /^application\/grpc(?:$|[+;])/;

const GRPC_HEADERS = [
  ["content-type", "application/grpc"],
  ["grpc-accept-encoding", "identity"],
] as const;
const OK_TRAILERS = [
  ["grpc-status", "0"],
  ["grpc-message", ""],
] as const;

/** A trailers-only answer: the status and its message in the one header block. */
function fail(stream: H2Stream, code: number, message: string): void {
  stream.respond({
    status: 200,
    headers: [...GRPC_HEADERS, ["grpc-status", String(code)], ["grpc-message", encodeGrpcMessage(message)]],
  });
}

/** Not a gRPC request: an HTTP status and a line of text. */
function refuse(stream: H2Stream, status: number, message: string): void {
  stream.respond({
    status,
    headers: [["content-type", "text/plain"]],
    body: Buffer.from(message, "utf8"),
  });
}

function answer(stream: H2Stream, message: Buffer): void {
  const framed = Buffer.allocUnsafe(5 + message.length);
  framed[0] = 0;
  framed.writeUInt32BE(message.length, 1);
  message.copy(framed, 5);
  stream.respond({ status: 200, headers: GRPC_HEADERS, body: framed, trailers: OK_TRAILERS });
}

function unaryMessage(body: Buffer): Buffer | { code: number; message: string } {
  if (body.length < 5) {
    return { code: Status.INTERNAL, message: body.length ? "truncated message" : "no request message" };
  }
  const length = body.readUInt32BE(1);
  if (body.length < 5 + length) return { code: Status.INTERNAL, message: "truncated message" };
  if (body.length > 5 + length) return { code: Status.INTERNAL, message: "more than one request message" };
  if (body[0] !== 0) {
    return {
      code: Status.UNIMPLEMENTED,
      message: "compressed messages are not supported (grpc-accept-encoding: identity)",
    };
  }
  return body.subarray(5);
}

/**
 * Serves the unary methods of `service` that `handlers` has (by the definition's method names) on a cleartext
 * HTTP/2 port; resolves once listening.
 */
export async function serveGrpc(
  service: Record<string, MethodDefinition>,
  handlers: Record<string, UnaryHandler | undefined>,
  options: ServeOptions = {},
): Promise<GrpcServer> {
  const maxReceive = options.maxReceiveBytes ?? 4 * 1024 * 1024;
  const routes = new Map<string, { method: MethodDefinition; handler: UnaryHandler | undefined }>();
  for (const [name, method] of Object.entries(service)) {
    routes.set(method.path, { method, handler: handlers[name] });
  }

  const onStream = (stream: H2Stream) => {
    const headers = stream.headers;
    if (headers[":method"] !== "POST") {
      refuse(stream, 405, "gRPC requests are POST");
      return;
    }
    const contentType = headers["content-type"] ?? "";
    if (!GRPC_CONTENT_TYPE.test(contentType)) {
      refuse(stream, 415, `not a gRPC content-type: ${JSON.stringify(contentType)}`);
      return;
    }
    const path = headers[":path"] ?? "";
    const route = routes.get(path);
    if (!route || !route.handler || route.method.requestStream || route.method.responseStream) {
      const why = !route
        ? "unknown method"
        : route.handler
          ? "streaming is not supported"
          : "not implemented";
      fail(stream, Status.UNIMPLEMENTED, `${path}: ${why}`);
      return;
    }

    const { method, handler } = route;
    const chunks: Buffer[] = [];
    let received = 0;
    let tooLarge = false;
    let prefixSeen = false;
    stream.onData = (chunk: Buffer) => {
      if (tooLarge) return;
      received += chunk.length;
      chunks.push(chunk);
      // Too large as announced by the prefix (refused before the message arrives), or as sent.
      let over = received > maxReceive + 5;
      if (!prefixSeen && received >= 5) {
        prefixSeen = true;
        const head = chunks.length === 1 ? chunk : Buffer.concat(chunks, received);
        over ||= head.readUInt32BE(1) > maxReceive;
      }
      if (over) {
        tooLarge = true;
        chunks.length = 0;
        fail(stream, Status.RESOURCE_EXHAUSTED, `request message larger than ${maxReceive} bytes`);
      }
    };
    stream.onEnd = () => {
      if (tooLarge) return;
      const message = unaryMessage(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
      chunks.length = 0;
      if (!Buffer.isBuffer(message)) {
        fail(stream, message.code, message.message);
        return;
      }
      let request: unknown;
      try {
        request = method.requestDeserialize(message);
      } catch (err) {
        fail(stream, Status.INTERNAL, `cannot parse the request message: ${(err as Error).message}`);
        return;
      }
      Promise.resolve()
        .then(() => handler(request as never))
        .then(
          (response) => {
            if (!stream.open) return; // reset by the client: nobody is listening
            let bytes: Buffer;
            try {
              bytes = method.responseSerialize(response as never);
            } catch (err) {
              fail(stream, Status.INTERNAL, `cannot serialize the response: ${(err as Error).message}`);
              return;
            }
            answer(stream, bytes);
          },
          (err: unknown) => {
            const code = err instanceof GrpcError ? err.code : Status.UNKNOWN;
            fail(stream, code, err instanceof Error ? err.message : String(err));
          },
        )
        .catch(() => undefined); // nothing above throws; this keeps a surprise from becoming an unhandled rejection
    };
  };

  const server = await serveH2(onStream, options.host ?? "127.0.0.1", options.port ?? 0);
  return { port: server.port, shutdown: () => server.close() };
}
