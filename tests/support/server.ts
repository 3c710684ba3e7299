/**
 * Server test harness: a real server on port 0 with a temp SQLite file, and a caller that validates every
 * successful response body against its api/ schema (so no test can accept a body outside the contract).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { validate } from "../../api/common";
import { fillPath, routeById } from "../../api/routes";
import { startServer, type RunningServer, type StartOptions } from "../../server";

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Override the credential: a PAT, `null` for no header, or a full header value with `raw:` prefix. */
  token?: string | null;
}

export interface TestServer {
  url: string;
  /** The owner's PAT. */
  token: string;
  server: RunningServer;
  dbFile: string;
  /** Calls an operation by id; 2xx bodies are validated against the route's response schema. */
  call<T = any>(operationId: string, opts?: CallOptions): Promise<CallResult<T>>;
  /** Sends anything (malformed bodies, odd headers). */
  raw(
    method: string,
    urlPath: string,
    init?: { body?: string; headers?: Record<string, string> },
  ): Promise<CallResult>;
  close(): Promise<void>;
}

export function tempDir(prefix = "privnet-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

async function parse(res: Response): Promise<CallResult> {
  const text = await res.text();
  let body: unknown = text;
  if (text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, body, headers: res.headers };
}

/** `dbFile` reopens an existing database; pass the `token` the first start returned. */
export async function startTestServer(
  opts: StartOptions & { dbFile?: string; token?: string } = {},
): Promise<TestServer> {
  const dbFile = opts.dbFile ?? path.join(tempDir(), "privnet.db");
  const server = await startServer({ ...opts, db: dbFile, port: 0 });
  if (!server.ownerToken && !opts.dbFile) throw new Error("new database did not yield an owner token");
  const token = server.ownerToken ?? opts.token ?? "";
  const ts: TestServer = {
    url: server.url,
    token,
    server,
    dbFile,
    async call(operationId, o = {}) {
      const route = routeById(operationId);
      let url = `${server.url}${fillPath(route.path, o.params ?? {})}`;
      const q = Object.entries(o.query ?? {}).filter(([, v]) => v !== undefined);
      if (q.length)
        url += `?${new URLSearchParams(q.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
      const headers: Record<string, string> = { Accept: "application/json" };
      const cred = o.token === undefined ? token : o.token;
      if (cred !== null) headers.Authorization = cred.startsWith("raw:") ? cred.slice(4) : `Token ${cred}`;
      if (o.body !== undefined) headers["Content-Type"] = "application/json";
      const res = await parse(
        await fetch(url, {
          method: route.method,
          headers,
          body: o.body === undefined ? undefined : JSON.stringify(o.body),
        }),
      );
      if (res.status >= 200 && res.status < 300) {
        if (res.status !== route.status)
          throw new Error(`${operationId}: status ${res.status}, expected ${route.status}`);
        if (route.response) {
          const v = validate(route.response, res.body);
          if (!v.ok)
            throw new Error(
              `${operationId}: response outside its schema: ${v.message}\n${JSON.stringify(res.body)}`,
            );
        } else if (res.body !== "") {
          throw new Error(`${operationId}: expected no body, got ${JSON.stringify(res.body)}`);
        }
      } else if (
        typeof res.body !== "object" ||
        res.body === null ||
        typeof (res.body as { message?: unknown }).message !== "string" ||
        (res.body as { code?: unknown }).code !== res.status
      ) {
        throw new Error(
          `${operationId}: error body not in the service's shape: ${res.status} ${JSON.stringify(res.body)}`,
        );
      }
      return res;
    },
    async raw(method, urlPath, init = {}) {
      return parse(
        await fetch(`${server.url}${urlPath}`, { method, headers: init.headers, body: init.body }),
      );
    },
    close: () => server.close(),
  };
  return ts;
}

/** Asserts an error status and that the message names `field` (`field: ...` or `... field ...`). */
export function expectError(res: CallResult, status: number, field?: string | RegExp): void {
  if (res.status !== status) {
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
  if (field !== undefined) {
    const msg = String((res.body as { message?: unknown }).message);
    // The field must stand alone: not preceded or followed by a name character (works for `ranges[0]` too).
    const re =
      typeof field === "string"
        ? new RegExp(`(^|[^\\w])${field.replace(/[.[\]]/g, "\\$&")}(?![\\w])`)
        : field;
    if (!re.test(msg)) throw new Error(`message does not name ${String(field)}: ${msg}`);
  }
}
