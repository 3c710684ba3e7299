/**
 * Client test harness: a real node:http server on 127.0.0.1, port 0, that answers from a script (status
 * sequences, headers, raw bodies, delays, dropped connections) and records every request and connection; plus
 * a fake clock and a sleep that records the requested waits and resolves at once.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { PrivnetClient, type ClientOptions } from "../../client";

/** One scripted answer. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is (HTML, truncated JSON); anything else as JSON. Omit for `{}`; `null` for no body. */
  body?: unknown;
  /** Wait this long (real time) before answering; for timeout tests only, keep it short. */
  delayMs?: number;
  /** Destroy the socket instead of answering (a reset after the request was received). */
  destroy?: boolean;
}

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  /** Path and query string as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ScriptServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  /** Number of TCP connections accepted so far. */
  connections(): number;
  /** Requests seen for `method path` (path without query). */
  count(method: string, path: string): number;
  /** Queues answers for `method path`; once used up, the route's fallback answers. */
  script(method: string, path: string, ...replies: Reply[]): void;
  /** Answer used when nothing is queued (default: 200 echoing the request). */
  fallback(method: string, path: string, reply: Reply): void;
  close(): Promise<void>;
}

export async function startScriptServer(): Promise<ScriptServer> {
  const queues = new Map<string, Reply[]>();
  const fallbacks = new Map<string, Reply>();
  const requests: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      const path = url.split("?")[0] as string;
      const method = req.method ?? "GET";
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method, path, url, headers: req.headers, body });
      const key = `${method} ${path}`;
      const reply = queues.get(key)?.shift() ??
        fallbacks.get(key) ?? {
          body: { echo: { method, url, body: body === "" ? null : JSON.parse(body) } },
        };
      const answer = () => {
        if (reply.destroy) {
          req.socket.destroy();
          return;
        }
        const status = reply.status ?? 200;
        const text =
          reply.body === null
            ? ""
            : typeof reply.body === "string"
              ? reply.body
              : JSON.stringify(reply.body ?? {});
        const headers: Record<string, string> = { "x-request-id": `req-${requests.length}` };
        if (text !== "") headers["content-type"] = "application/json";
        for (const [k, v] of Object.entries(reply.headers ?? {})) headers[k.toLowerCase()] = v;
        res.writeHead(status, headers);
        res.end(text);
      };
      if (reply.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          answer();
        }, reply.delayMs);
        timers.add(t);
      } else {
        answer();
      }
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    count: (method, path) => requests.filter((r) => r.method === method && r.path === path).length,
    script(method, path, ...replies) {
      const key = `${method} ${path}`;
      queues.set(key, [...(queues.get(key) ?? []), ...replies]);
    },
    fallback(method, path, reply) {
      fallbacks.set(`${method} ${path}`, reply);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port with nothing listening (bound, then released): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A fake clock whose time only moves when the fake sleep is called. */
export interface FakeTime {
  clock: { now(): number };
  /** Records the wait, advances the clock by it and resolves at once. */
  sleep: (ms: number) => Promise<void>;
  /** Every wait requested, in order. */
  sleeps: number[];
  advance(ms: number): void;
}

/** Starts at a whole second, so HTTP dates (second resolution) convert to exact waits. */
export function fakeTime(start = Date.UTC(2030, 0, 1, 12, 0, 0)): FakeTime {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: { now: () => now },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
    advance: (ms) => {
      now += ms;
    },
  };
}

export const TEST_TOKEN = "nbp_Zq3xS9vLw2Kd8Rt5Yp1Mb7Nc4Hf6Gj0Aa1B2C";

/** A client on `srv` with fake time, no rate limit and fixed jitter unless overridden. */
export function testClient(
  srv: { url: string },
  time: FakeTime,
  opts: Partial<ClientOptions> = {},
): PrivnetClient {
  return new PrivnetClient({
    apiUrl: srv.url,
    token: TEST_TOKEN,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    rateLimit: false,
    ...opts,
  });
}

/** The rejection of `p`, failing when it resolves. */
export async function rejectionOf(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the promise to reject");
}
