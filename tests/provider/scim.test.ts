/**
 * The SCIM kinds' token through the provider: create keeps the full token (reads answer it masked and never
 * replace it); changing `rotateToken` calls the token route in an update in place, alone without a PUT; removing
 * it rotates nothing; an imported integration has no token in state, and adopts with no change but the one the
 * program names. And a notification channel keeps its webhook header values though the API masks them.
 */
import { isMaskedScimToken } from "../../api/scim";
import type { ScimDoc } from "../../server/handlers/scim";
import { hashSecret } from "../../server/ids";
import type { Props } from "../../provider/spec";
import { configureAll, providerFor } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  await configureAll(s);
});
afterAll(() => s?.close());

/** The audit codes recorded for an object, oldest first. */
async function codesFor(id: string): Promise<string[]> {
  const events = (await s.call("listAuditEvents")).body as { activity_code: string; target_id: string }[];
  return events
    .filter((e) => e.target_id === id)
    .map((e) => e.activity_code)
    .reverse();
}

const tokenHash = (id: string) => s.server.state.store.get<ScimDoc>("scim_integration", id)?.token_hash;

describe.each(["ScimIntegration", "OktaScimIntegration"])("%s token", (kind) => {
  const p = providerFor(kind);
  const base: Props =
    kind === "ScimIntegration"
      ? { prefix: `p-${kind}`, provider: "jumpcloud" }
      : { connectionName: `okta-${kind}` };

  test("create keeps the full token; reads keep it; rotateToken replaces it in place", async () => {
    const created = await p.create(base);
    const token = created.outs.authToken as string;
    expect(token).toMatch(/^pns_[0-9A-Za-z]{40}$/);
    expect(tokenHash(created.id)).toBe(hashSecret(token));
    const read = await p.read(created.id, created.outs);
    expect(read.props?.authToken).toBe(token);

    // Setting rotateToken is a change in place (never a replacement) that calls the token route only.
    const news = { ...base, rotateToken: "2026-05" };
    const d = await p.compare(created.id, read.props as Props, news);
    expect(d.changed).toEqual(["rotateToken"]);
    expect(d.replaces).toEqual([]);
    const rotated = await p.update(created.id, read.props as Props, news);
    const fresh = rotated.outs.authToken as string;
    expect(fresh).toMatch(/^pns_[0-9A-Za-z]{40}$/);
    expect(fresh).not.toBe(token);
    expect(tokenHash(created.id)).toBe(hashSecret(fresh));
    expect(rotated.outs.rotateToken).toBe("2026-05");
    expect(await codesFor(created.id)).toEqual(["integration.create", "integration.token.regenerate"]);
    expect((await p.compare(created.id, rotated.outs, news)).changed).toEqual([]);

    // A change with a rotation: one PUT, one rotation.
    const both = { ...news, enabled: false, rotateToken: "2026-06" };
    const after = await p.update(created.id, rotated.outs, both);
    expect(after.outs.enabled).toBe(false);
    expect(after.outs.authToken).not.toBe(fresh);
    expect(tokenHash(created.id)).toBe(hashSecret(after.outs.authToken as string));
    expect((await codesFor(created.id)).slice(2)).toEqual([
      "integration.update",
      "integration.token.regenerate",
    ]);

    // Removing rotateToken rotates nothing.
    const dropped = await p.update(created.id, after.outs, { ...both, rotateToken: undefined });
    expect(dropped.outs.authToken).toBe(after.outs.authToken);
    expect(await codesFor(created.id)).toHaveLength(4);

    // Import: the token is not in state (the API answers it masked), and the program adopts with no change.
    const imported = await p.importRead(created.id);
    expect(imported.props?.authToken).toBeUndefined();
    expect(JSON.stringify(imported)).not.toMatch(/pns_/);
    expect(Object.keys(imported.inputs ?? {})).not.toContain("rotateToken");
    const program = { ...base, enabled: false };
    expect((await p.compare(created.id, imported.props as Props, program)).changed).toEqual([]);
    // Rotating an imported integration puts a token in its state.
    const adopted = await p.update(created.id, imported.props as Props, { ...program, rotateToken: "1" });
    expect(isMaskedScimToken(adopted.outs.authToken)).toBe(false);
    expect(tokenHash(created.id)).toBe(hashSecret(adopted.outs.authToken as string));

    await p.delete(created.id, adopted.outs);
    expect((await p.read(created.id, adopted.outs)).id).toBeUndefined();
  });
});

test("OktaScimIntegration: a new connection name replaces; an imported one (no name in state) does not", async () => {
  const p = providerFor("OktaScimIntegration");
  const created = await p.create({ connectionName: "okta-a" });
  expect((await p.compare(created.id, created.outs, { connectionName: "okta-b" })).replaces).toEqual([
    "connectionName",
  ]);
  const imported = await p.importRead(created.id);
  expect(imported.props?.connectionName).toBeUndefined();
  expect(
    (await p.compare(created.id, imported.props as Props, { connectionName: "okta-b" })).changed,
  ).toEqual([]);
  await p.delete(created.id, created.outs);
});

test("ScimIntegration: a field the program drops is cleared on the server, not kept", async () => {
  const p = providerFor("ScimIntegration");
  const created = await p.create({
    prefix: "drop",
    provider: "x",
    groupPrefixes: ["a-"],
    connectorId: "dex",
  });
  const updated = await p.update(created.id, created.outs, { prefix: "drop", provider: "x" });
  const onServer = (await s.call("getScimIntegration", { params: { id: created.id } })).body;
  expect(onServer.group_prefixes).toEqual([]);
  expect(onServer.connector_id).toBeUndefined();
  expect((await p.compare(created.id, updated.outs, { prefix: "drop", provider: "x" })).changed).toEqual([]);
  await p.delete(created.id, updated.outs);
});

test("NotificationChannel: header values stay as the program set them though the API masks them", async () => {
  const p = providerFor("NotificationChannel");
  const inputs = {
    type: "webhook",
    target: { url: "https://hooks.example.com/x", headers: { Authorization: "Bearer hook-1" } },
    eventTypes: ["peer.add"],
    enabled: true,
  };
  const created = await p.create(inputs);
  expect(created.outs.target).toEqual(inputs.target);
  const read = await p.read(created.id, created.outs);
  expect(read.props?.target).toEqual(inputs.target);
  expect((await p.compare(created.id, read.props as Props, inputs)).changed).toEqual([]);
  const rotated = { ...inputs, target: { ...inputs.target, headers: { Authorization: "Bearer hook-2" } } };
  expect((await p.compare(created.id, read.props as Props, rotated)).changed).toEqual(["target"]);
  await p.update(created.id, read.props as Props, rotated);
  expect(s.server.state.store.get("notification_channel", created.id)?.target).toMatchObject({
    headers: { Authorization: "Bearer hook-2" },
  });
  // The check refuses what the server would: a webhook without a URL, an unknown code is left to the server.
  expect((await p.check({}, { ...inputs, target: { headers: {} } })).failures).toEqual([
    { property: "target.url", reason: "target.url: is required for a webhook channel" },
  ]);
  expect((await p.check({}, { ...inputs, eventTypes: ["some.future.code"] })).failures).toEqual([]);
  await p.delete(created.id, read.props as Props);
});
