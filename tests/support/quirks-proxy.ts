/**
 * A proxy in front of a local server that answers the way an independent implementation of the API was seen to
 * answer (see README, "Proven against an independent server"), so the provider's tolerance is tested on every
 * run, not only when that server is at hand:
 * - empty lists are `null`;
 * - `GET /api/dns/settings` answers the plain object, not `{items}`;
 * - setup-key ids are strings;
 * - a network resource's host address comes back as its /32 (/128) prefix, domains in lower case (routes,
 *   network resources, nameserver groups, zones);
 * - a domain route comes back with a placeholder `network`, `network_type: "Domain"` and `peer: ""`;
 * - account settings have a member the provider does not know, which a PUT without it resets;
 * - a policy with several rules is answered as sent, but reads show the second rule without its sources;
 * - deleting a group that is gone answers 400.
 * Requests pass through unchanged, except that the unknown settings member is kept by the proxy.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface QuirksProxy {
  url: string;
  /** The value of the settings member the provider does not know, as the proxy holds it. */
  unknownSetting(): unknown;
  close(): Promise<void>;
}

type Json = unknown;

const UNKNOWN_MEMBER = "experimental_mesh_mode";
const UNKNOWN_DEFAULT = "off";

function nullLists(v: Json): Json {
  if (Array.isArray(v)) return v.length === 0 ? null : v.map(nullLists);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Record<string, Json>).map(([k, x]) => [k, nullLists(x)]));
  }
  return v;
}

const isIPv4Host = (a: string) => /^\d+\.\d+\.\d+\.\d+$/.test(a);

type Obj = Record<string, Json>;

export async function startQuirksProxy(targetUrl: string): Promise<QuirksProxy> {
  let unknownSetting: Json = "on-by-someone";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const method = req.method ?? "GET";
        const path = req.url ?? "/";
        let body = chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
        const isAccountPut = method === "PUT" && /^\/api\/accounts\/[^/]+$/.test(path);
        if (isAccountPut && body) {
          // A PUT replaces the settings whole: a member left out is reset.
          const parsed = JSON.parse(body) as { settings?: Obj };
          const settings = parsed.settings ?? {};
          unknownSetting = UNKNOWN_MEMBER in settings ? settings[UNKNOWN_MEMBER] : UNKNOWN_DEFAULT;
          delete settings[UNKNOWN_MEMBER];
          body = JSON.stringify(parsed);
        }
        const headers: Record<string, string> = {};
        for (const h of ["authorization", "content-type", "accept"]) {
          const v = req.headers[h];
          if (typeof v === "string") headers[h] = v;
        }
        const upstream = await fetch(`${targetUrl}${path}`, { method, headers, body });
        const text = await upstream.text();
        let status = upstream.status;
        let out: Json = text === "" ? undefined : (JSON.parse(text) as Json);
        if (status === 404 && method === "DELETE" && path.startsWith("/api/groups/")) status = 400;
        if (status >= 200 && status < 300 && out !== undefined) out = rewrite(method, path, out);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(out === undefined ? "" : JSON.stringify(out));
      })().catch((err: unknown) => {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: String(err), code: 502 }));
      });
    });
  });

  function rewrite(method: string, path: string, body: Json): Json {
    const p = path.split("?")[0]!;
    if (p === "/api/dns/settings" && method === "GET") body = (body as { items: Json }).items;
    if (p.startsWith("/api/setup-keys")) body = each(body, (k) => ({ ...k, id: String(k.id) }));
    if (/^\/api\/networks\/[^/]+\/resources/.test(p)) {
      body = each(body, (r) => {
        const a = String(r.address);
        return { ...r, address: isIPv4Host(a) ? `${a}/32` : a.includes("/") ? a : a.toLowerCase() };
      });
    }
    if (p.startsWith("/api/routes")) {
      body = each(body, (r) =>
        Array.isArray(r.domains) && r.domains.length > 0
          ? {
              ...r,
              domains: (r.domains as string[]).map((d) => d.toLowerCase()),
              network: "192.0.2.0/32",
              network_type: "Domain",
              peer: r.peer ?? "",
            }
          : r,
      );
    }
    if (p.startsWith("/api/dns/nameservers")) {
      body = each(body, (n) => ({
        ...n,
        domains: ((n.domains as string[]) ?? []).map((d) => d.toLowerCase()),
      }));
    }
    if (p.startsWith("/api/dns/zones") && !p.includes("/records")) {
      body = each(body, (z) => ({ ...z, domain: String(z.domain).toLowerCase() }));
    }
    if (p.startsWith("/api/accounts")) {
      body = each(body, (a) => ({
        ...a,
        settings: { ...(a.settings as Obj), [UNKNOWN_MEMBER]: unknownSetting },
      }));
    }
    if (p.startsWith("/api/policies") && method === "GET") {
      body = each(body, (pol) => {
        const rules = (pol.rules as Obj[] | undefined) ?? [];
        return rules.length < 2
          ? pol
          : { ...pol, rules: rules.map((r, i) => (i === 1 ? { ...r, sources: [] } : r)) };
      });
    }
    return nullLists(body);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    unknownSetting: () => unknownSetting,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Applies `f` to an object, or to each object of a list. */
function each(body: Json, f: (o: Obj) => Obj): Json {
  if (Array.isArray(body)) return body.map((x) => (x && typeof x === "object" ? f(x as Obj) : x));
  if (body && typeof body === "object") return f(body as Obj);
  return body;
}
