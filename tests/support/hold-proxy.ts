/**
 * A proxy in front of a local server that holds chosen requests, so that a test can kill `pulumi up` at a known
 * point: a create that reached the server but whose answer never came back (`answer: "never"`: the server
 * processes it, the proxy keeps the answer), or a create that never reached the server (`forward: "never"`).
 * Everything else passes through unchanged (and is logged: method, path, status, for a test against any server
 * to see, for instance, that no create answered 409). Rules match `POST <path>` and, optionally, the body's
 * `name`; each holds at most `count` requests.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface HoldRule {
  /** Request path, e.g. `/api/groups`. */
  path: string;
  /** Only bodies with one of these names (default: any). */
  names?: string[];
  /** How many requests the rule holds, at most. */
  count: number;
  /** `answer`: forward, keep the answer (the object exists); `forward`: never forward (it does not). */
  never: "answer" | "forward";
}

/** A request the proxy holds. */
export interface Held {
  path: string;
  name: string | undefined;
  /** Whether the server has processed it (always false for `never: "forward"`). */
  processed: boolean;
  never: "answer" | "forward";
}

/** A request passed through, with the server's answer's status. */
export interface Passed {
  method: string;
  path: string;
  status: number;
}

export interface HoldProxy {
  url: string;
  /** Requests held so far. */
  held(): Held[];
  /** Requests passed through so far, in order. */
  passed(): Passed[];
  /** Stops holding: later requests pass through; held ones are dropped (their clients are gone). */
  release(): void;
  close(): Promise<void>;
}

export async function startHoldProxy(targetUrl: string, rules: HoldRule[]): Promise<HoldProxy> {
  const held: (Held & { res: http.ServerResponse })[] = [];
  const passed: Passed[] = [];
  const left = rules.map((r) => r.count);
  let holding = true;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const body = chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
        const method = req.method ?? "GET";
        const path = (req.url ?? "/").split("?")[0];
        let name: string | undefined;
        try {
          const parsed = body ? (JSON.parse(body) as { name?: unknown }) : undefined;
          if (typeof parsed?.name === "string") name = parsed.name;
        } catch {
          // Not JSON: no name.
        }
        const i = rules.findIndex(
          (r, k) =>
            holding &&
            method === "POST" &&
            r.path === path &&
            (left[k] ?? 0) > 0 &&
            (!r.names || (name !== undefined && r.names.includes(name))),
        );
        const rule = i >= 0 ? rules[i] : undefined;
        let entry: (typeof held)[number] | undefined;
        if (rule) {
          left[i] = (left[i] ?? 0) - 1;
          entry = { path: path ?? "", name, processed: false, never: rule.never, res };
          held.push(entry);
          if (rule.never === "forward") return;
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) {
          if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers[k] = v;
        }
        const upstream = await fetch(`${targetUrl}${req.url ?? "/"}`, { method, headers, body });
        const text = await upstream.text();
        if (entry) {
          entry.processed = true;
          return; // The answer is kept: the client never learns the id.
        }
        passed.push({ method, path: path ?? "", status: upstream.status });
        res.writeHead(upstream.status, {
          "content-type": upstream.headers.get("content-type") ?? "application/json",
          ...(upstream.headers.get("retry-after")
            ? { "retry-after": upstream.headers.get("retry-after") }
            : {}),
        } as Record<string, string>);
        res.end(text);
      })().catch(() => {
        if (!res.headersSent) res.writeHead(502).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const release = (): void => {
    holding = false;
    for (const h of held) h.res.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    held: () => held.map(({ path, name, processed, never }) => ({ path, name, processed, never })),
    passed: () => [...passed],
    release,
    close: async () => {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
