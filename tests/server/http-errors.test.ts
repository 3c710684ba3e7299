/**
 * Answers the HTTP layer gives before any handler runs (headers too large, a request that never finishes, a
 * request line that is not HTTP, no Host, an Expect the server does not meet, a request during shutdown) leave in
 * the service's error shape `{"message", "code"}` like every other error, over a real socket.
 */
import * as net from "node:net";
import { parseFaults } from "../../server/faults";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  // Short header timeout so the 408 case takes a fraction of a second, not Node's minute.
  s = await startTestServer({ httpTimeouts: { headersMs: 300, checkIntervalMs: 100 } });
});
afterAll(() => s.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses every HTTP/1.1 response in `text` (several when requests were pipelined). */
function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith("HTTP/1.1 ")) {
    const end = rest.indexOf("\r\n\r\n");
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split("\r\n");
    const headers: Record<string, string> = {};
    for (const l of lines)
      headers[l.slice(0, l.indexOf(":")).toLowerCase()] = l.slice(l.indexOf(":") + 1).trim();
    const length = Number(headers["content-length"] ?? 0);
    const body = rest.slice(end + 4, end + 4 + length);
    out.push({ status: Number(statusLine?.split(" ")[1]), headers, body });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

/** Writes `chunks` (with `pauseMs` between them) on a new connection and reads until the server closes it. */
function exchange(chunks: string[], opts: { pauseMs?: number; waitMs?: number } = {}): Promise<string> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(port), "127.0.0.1");
    let data = "";
    const timer = setTimeout(() => {
      sock.destroy();
      resolve(data);
    }, opts.waitMs ?? 3000);
    sock.on("data", (d) => (data += d.toString("latin1")));
    sock.on("close", () => {
      clearTimeout(timer);
      resolve(data);
    });
    sock.on("error", (e) => (data ? undefined : reject(e)));
    sock.on("connect", async () => {
      for (const c of chunks) {
        if (sock.destroyed) break;
        sock.write(c);
        if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
    });
  });
}

function expectShape(r: RawResponse | undefined, status: number): void {
  expect(r?.status).toBe(status);
  expect(r?.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(r?.body ?? "null") as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["code", "message"]);
  expect(body.code).toBe(status);
  expect(typeof body.message).toBe("string");
  expect(String(body.message).length).toBeGreaterThan(0);
}

describe("errors of the HTTP layer use the service's shape", () => {
  test("431: request headers too large", async () => {
    const big = "x".repeat(64 * 1024);
    const [r] = parseResponses(
      await exchange([`GET /api/groups HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}\r\n\r\n`]),
    );
    expectShape(r, 431);
  });

  test("408: the request headers never finish", async () => {
    const [r] = parseResponses(await exchange(["GET /api/groups HTTP/1.1\r\nHost: localhost\r\n"]));
    expectShape(r, 408);
  });

  test("400: a request line that is not HTTP", async () => {
    const [r] = parseResponses(await exchange(["NOT HTTP AT ALL\r\n\r\n"]));
    expectShape(r, 400);
  });

  test("400: an HTTP/1.1 request without Host", async () => {
    const [r] = parseResponses(await exchange([`GET /api/groups HTTP/1.1\r\nConnection: close\r\n\r\n`]));
    expectShape(r, 400);
    expect(JSON.parse(r?.body ?? "{}").message).toMatch(/Host/);
  });

  test("417: an Expect other than 100-continue", async () => {
    const [r] = parseResponses(
      await exchange([
        `GET /api/groups HTTP/1.1\r\nHost: localhost\r\nExpect: teapot\r\nConnection: close\r\n\r\n`,
      ]),
    );
    expectShape(r, 417);
  });

  test("503: a request that arrives while the server shuts down", async () => {
    // Seed 4 delays the first request by 923 ms of the 1000 allowed: it is still in flight when the shutdown
    // starts, so the connection stays open and the second request meets the closing server.
    const slow = await startTestServer({ faults: parseFaults("seed=4,latency=1000") });
    const { port } = new URL(slow.url);
    const sock = net.connect(Number(port), "127.0.0.1");
    let data = "";
    sock.on("data", (d) => (data += d.toString("latin1")));
    const closed = new Promise((r) => sock.on("close", r));
    await new Promise((r) => sock.on("connect", r));
    const get = `GET /api/groups HTTP/1.1\r\nHost: localhost\r\nAuthorization: Token ${slow.token}\r\n\r\n`;
    sock.write(get);
    await new Promise((r) => setTimeout(r, 200));
    const closing = slow.close();
    await new Promise((r) => setTimeout(r, 100));
    sock.write(get);
    await closing;
    await closed;
    const [first, second] = parseResponses(data);
    expect(first?.status).toBe(200);
    expectShape(second, 503);
  });
});
