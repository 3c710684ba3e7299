/**
 * Notification channels: the activity codes, email and webhook channels, validation naming the field with
 * nothing changed, webhook header values write-only (masked in answers, a masked value keeps the stored one only
 * while the URL stays), the target encrypted at rest and never in the audit log.
 */
import * as fs from "node:fs";
import { MASKED_HEADER_VALUE, NOTIFICATION_EVENT_TYPES } from "../../api/notifications";
import type { NotificationChannelDoc } from "../../server/handlers/notifications";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

function dbBytes(): string {
  return [s.dbFile, `${s.dbFile}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString("latin1"))
    .join("\n");
}

const SECRET = "hook-secret-6a1f0c";
const URL_TOKEN = "T0KEN-in-the-path-93be";
const webhook = (headers: Record<string, string> = { "X-Hook-Secret": SECRET }) => ({
  type: "webhook",
  target: { url: `https://hooks.example.com/services/${URL_TOKEN}`, headers },
  event_types: ["peer.add", "policy.update"],
  enabled: true,
});
const email = () => ({
  type: "email",
  target: { emails: ["ops@example.com", "sec@example.com"] },
  event_types: ["user.invite"],
  enabled: true,
});

describe("notification channels", () => {
  test("the types route lists every activity code with what it means", async () => {
    const r = await s.call("listNotificationEventTypes");
    expect(r.status).toBe(200);
    expect(r.body).toEqual(NOTIFICATION_EVENT_TYPES);
    expect(r.body["policy.update"]).toEqual(expect.any(String));
    expect(Object.keys(r.body).length).toBeGreaterThan(60);
  });

  test("an email channel: create, get, list, replace, delete", async () => {
    const created = await s.call("createNotificationChannel", { body: email() });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(id).toMatch(/^[0-9a-v]{20}$/);
    expect(created.body).toEqual({ id, ...email() });
    expect((await s.call("getNotificationChannel", { params: { channelId: id } })).body).toEqual(
      created.body,
    );
    expect((await s.call("listNotificationChannels")).body).toContainEqual(created.body);
    const replaced = await s.call("updateNotificationChannel", {
      params: { channelId: id },
      body: { ...email(), event_types: [], enabled: false },
    });
    expect(replaced.body).toEqual({ id, ...email(), event_types: [], enabled: false });
    expect((await s.call("deleteNotificationChannel", { params: { channelId: id } })).body).toEqual({});
    expectError(await s.call("getNotificationChannel", { params: { channelId: id } }), 404, /channel/);
    const codes = ((await s.call("listAuditEvents")).body as { activity_code: string; target_id: string }[])
      .filter((e) => e.target_id === id)
      .map((e) => e.activity_code);
    expect(codes).toEqual(
      expect.arrayContaining([
        "notification.channel.create",
        "notification.channel.update",
        "notification.channel.delete",
      ]),
    );
  });

  test("a webhook's header values are masked in every answer, and sealed with the URL in the database", async () => {
    const created = await s.call("createNotificationChannel", { body: webhook() });
    const id = created.body.id as string;
    expect(created.body.target).toEqual({
      url: `https://hooks.example.com/services/${URL_TOKEN}`,
      headers: { "X-Hook-Secret": MASKED_HEADER_VALUE },
    });
    for (const r of [
      await s.call("getNotificationChannel", { params: { channelId: id } }),
      await s.call("listNotificationChannels"),
      await s.call("listAuditEvents"),
    ])
      expect(JSON.stringify(r.body)).not.toContain(SECRET);
    expect(dbBytes()).not.toContain(SECRET);
    expect(dbBytes()).not.toContain(URL_TOKEN);
    const doc = s.server.state.store.get<NotificationChannelDoc>("notification_channel", id)!;
    expect(doc.target.headers).toEqual({ "X-Hook-Secret": SECRET });
  });

  test("a masked header value keeps the stored one while the URL stays; a new value replaces it", async () => {
    const id = (await s.call("createNotificationChannel", { body: webhook() })).body.id as string;
    const stored = () =>
      s.server.state.store.get<NotificationChannelDoc>("notification_channel", id)!.target.headers;
    const round = await s.call("updateNotificationChannel", {
      params: { channelId: id },
      body: webhook({ "X-Hook-Secret": MASKED_HEADER_VALUE, "X-Extra": "plain" }),
    });
    expect(round.status).toBe(200);
    expect(stored()).toEqual({ "X-Hook-Secret": SECRET, "X-Extra": "plain" });
    // Another URL: the stored secret is not sent there.
    const moved = { ...webhook({ "X-Hook-Secret": MASKED_HEADER_VALUE }) };
    moved.target = { ...moved.target, url: "https://elsewhere.example.com/in" };
    expectError(
      await s.call("updateNotificationChannel", { params: { channelId: id }, body: moved }),
      422,
      /target\.headers\.X-Hook-Secret: must be the value itself: target\.url changes/,
    );
    // A header the channel never had.
    expectError(
      await s.call("updateNotificationChannel", {
        params: { channelId: id },
        body: webhook({ "X-Other": MASKED_HEADER_VALUE }),
      }),
      422,
      /target\.headers\.X-Other/,
    );
    expect(stored()).toEqual({ "X-Hook-Secret": SECRET, "X-Extra": "plain" });
    await s.call("updateNotificationChannel", {
      params: { channelId: id },
      body: webhook({ "X-Hook-Secret": "rotated-value" }),
    });
    expect(stored()).toEqual({ "X-Hook-Secret": "rotated-value" });
    // The type may change in place: the target follows it.
    const asEmail = await s.call("updateNotificationChannel", { params: { channelId: id }, body: email() });
    expect(asEmail.body).toEqual({ id, ...email() });
  });

  test("bad input is a 422 naming the field and changes nothing", async () => {
    const before = (await s.call("listNotificationChannels")).body;
    const bad: [unknown, string | RegExp][] = [
      [{ ...email(), type: "sms" }, "type"],
      [{ ...email(), target: undefined }, /target: is required/],
      [{ ...email(), target: { emails: [] } }, /target\.emails: must name at least one address/],
      [
        { ...email(), target: { emails: ["not-an-address"] } },
        /target\.emails\[0\]: must be an email address/,
      ],
      [{ ...email(), target: { emails: ["a@example.com"], url: "https://x.example.com" } }, "target.url"],
      [{ ...webhook(), target: { headers: {} } }, /target\.url: is required for a webhook channel/],
      [{ ...webhook(), target: { url: "ftp://x.example.com" } }, /target\.url: must be an http\(s\) URL/],
      [
        { ...webhook(), target: { url: "https://x.example.com", emails: ["a@example.com"] } },
        "target.emails",
      ],
      [webhook({ "Bad Name": "v" }), /target\.headers\.Bad Name: must be an HTTP header name/],
      [webhook({ "X-A": "v\r\nX-Injected: 1" }), /target\.headers\.X-A: must not contain a line break/],
      [webhook({ "X-A": "1", "x-a": "2" }), /target\.headers\.x-a: is the same header as X-A/],
      [webhook({ "X-A": MASKED_HEADER_VALUE }), /target\.headers\.X-A: must be the value itself/],
      [
        { ...email(), event_types: ["peer.add", "pear.add"] },
        /event_types\[1\]: "pear\.add" is not an activity code/,
      ],
      [{ ...email(), event_types: "peer.add" }, "event_types"],
      [{ ...email(), enabled: undefined }, /enabled: is required/],
    ];
    for (const [body, field] of bad) {
      const r = await s.call("createNotificationChannel", { body });
      expectError(r, 422, field);
      // The unknown code's message names the route that lists the codes, not all of them.
      expect(String(r.body.message).length).toBeLessThan(300);
    }
    expect((await s.call("listNotificationChannels")).body).toEqual(before);
    expectError(
      await s.call("updateNotificationChannel", { params: { channelId: "nope" }, body: email() }),
      404,
    );
  });
});
