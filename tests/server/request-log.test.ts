/**
 * The request log never records a secret that arrives in a path: an invite token is redacted whichever route the
 * request lands on (the public invite routes name the parameter `token`; the authenticated invite routes name it
 * `inviteId`, and nothing stops a client from sending a token there), with or without credentials.
 */
import type { RequestLogEntry } from "../../server/context";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;
const lines: RequestLogEntry[] = [];

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer({ embeddedIdp: true, onRequest: (e) => lines.push(e) });
});
afterAll(() => s.close());

async function invite(): Promise<{ id: string; token: string }> {
  const res = await s.call("createInvite", {
    body: { email: `log-${Math.random()}@example.com`, name: "Log", role: "user", auto_groups: [] },
  });
  expect(res.status).toBe(200);
  return { id: res.body.id, token: res.body.invite_token };
}

/** Lets the server write the log line of the last response (it is written once the response is sent). */
const settle = () => new Promise((r) => setTimeout(r, 20));

describe("request log redaction", () => {
  test("an invite token in any path is logged as ***, with or without credentials", async () => {
    const { token } = await invite();
    const auth = { Authorization: `Token ${s.token}` };
    const json = { "Content-Type": "application/json" };
    const requests: [string, string, Record<string, string>, string?][] = [
      ["GET", `/api/users/invites/${token}`, {}],
      ["DELETE", `/api/users/invites/${token}`, {}],
      ["DELETE", `/api/users/invites/${token}`, auth],
      ["POST", `/api/users/invites/${token}/regenerate`, json, "{}"],
      ["POST", `/api/users/invites/${token}/regenerate`, { ...auth, ...json }, "{}"],
      ["POST", `/api/users/invites/${token}/accept`, json, '{"password":"x"}'],
      ["PUT", `/api/users/invites/${token}`, json, "{}"],
      ["PUT", `/api/users/${token}`, json, "{}"],
      ["GET", `/api/users/${token}/tokens`, auth],
    ];
    const before = lines.length;
    for (const [method, path, headers, body] of requests) {
      const res = await s.raw(method, path, { headers, body });
      expect(res.status).toBeGreaterThanOrEqual(200);
    }
    await settle();
    const logged = lines.slice(before);
    expect(logged).toHaveLength(requests.length);
    const text = JSON.stringify(logged);
    expect(text).not.toContain(token);
    // The secret part alone (a client may leave the prefix out) is not logged either.
    expect(text).not.toContain(token.slice(4));
    expect(logged.filter((l) => l.path.includes("***")).length).toBeGreaterThanOrEqual(6);
  });

  test("the invite's id is not a secret: it stays in the logged path", async () => {
    const { id } = await invite();
    const before = lines.length;
    const res = await s.call("regenerateInvite", { params: { inviteId: id }, body: {} });
    expect(res.status).toBe(200);
    await settle();
    expect(lines.slice(before).map((l) => l.path)).toEqual([`/api/users/invites/${id}/regenerate`]);
  });
});
