/**
 * Garbage in, never a 500: every route of the API gets malformed and mistyped bodies, odd path parameters and
 * odd query strings; each answer is a 4xx (or a 2xx where the input happens to be valid) in the error shape.
 */
import { ROUTES, type ApiRoute } from "../../api/routes";
import { shapeOf } from "../../model/schema";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
});
afterAll(() => s?.close());

const ODD_IDS = [
  "x",
  "0",
  "-1",
  "99999999999999999999",
  "%00",
  "%2e%2e",
  "a".repeat(300),
  "%F0%9F%92%A9",
  "null",
];

function pathWith(route: ApiRoute, value: string): string {
  return route.path.replace(/\{[^}]+\}/g, value);
}

/** Bodies that break the route's schema in every way we can think of. */
function garbageBodies(route: ApiRoute): string[] {
  const bodies = [
    "{not json",
    "[]",
    '"text"',
    "123",
    "null",
    "{}",
    "true",
    '{"a":',
    "\u0000",
    '{"__proto__":{"x":1}}',
  ];
  const shape = route.body ? (shapeOf(route.body) ?? {}) : {};
  const keys = Object.keys(shape);
  const wrong: unknown[] = [
    123,
    "str",
    true,
    null,
    [],
    {},
    [1, "a", null],
    { nested: { deep: [{}] } },
    -1,
    1e308,
    "a".repeat(10000),
  ];
  for (const v of wrong) bodies.push(JSON.stringify(Object.fromEntries(keys.map((k) => [k, v]))));
  // One field wrong at a time, the others plausible strings.
  for (const k of keys)
    bodies.push(JSON.stringify(Object.fromEntries(keys.map((x) => [x, x === k ? { bad: true } : "x"]))));
  return bodies;
}

async function send(method: string, url: string, body?: string) {
  const headers: Record<string, string> = { Authorization: `Token ${s.token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${s.url}${url}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, text };
}

function expectNo500(r: { status: number; text: string }, what: string) {
  if (r.status >= 500 && !(r.status === 501 && process.env.PRIVNET_ALLOW_MISSING_HANDLERS === "1")) {
    throw new Error(`${what} -> ${r.status}: ${r.text.slice(0, 300)}`);
  }
  if (r.status >= 400) {
    const body = JSON.parse(r.text) as { message?: unknown; code?: unknown };
    expect(typeof body.message).toBe("string");
    expect(body.code).toBe(r.status);
  }
}

describe.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))("%s", (_name, route) => {
  test("garbage bodies and path parameters get 4xx, never 5xx", async () => {
    const validishPath = pathWith(route, "nosuchid");
    // fetch cannot send a body with GET; a DELETE body is ignored by the API but must not break it.
    const bodies =
      route.method === "GET" ? [undefined] : route.method === "DELETE" ? ["{not json"] : garbageBodies(route);
    for (const body of bodies) {
      expectNo500(
        await send(route.method, validishPath, body),
        `${route.method} ${validishPath} ${String(body).slice(0, 60)}`,
      );
    }
    if (route.pathParams.length) {
      for (const id of ODD_IDS) {
        const p = pathWith(route, id);
        expectNo500(await send(route.method, p, route.body ? "{}" : undefined), `${route.method} ${p}`);
      }
    }
    const q = `${validishPath}?page=-1&page_size=abc&sort_by=nope&name=%00&service_user=maybe&start_date=yesterday&status_code=9999`;
    expectNo500(await send(route.method, q, route.body ? "{}" : undefined), `${route.method} ${q}`);
  });
});
