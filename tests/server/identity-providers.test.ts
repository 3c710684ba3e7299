import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
});
afterAll(() => s.close());

const body = (over: Record<string, unknown> = {}) => ({
  type: "oidc",
  name: "Corporate SSO",
  issuer: "https://sso.example.com",
  client_id: "privnet",
  client_secret: "idp-secret-value-1",
  ...over,
});

function lastAudit() {
  const events = s.server.state.store.auditEvents();
  return events[events.length - 1];
}

describe("identity providers", () => {
  test("create, get, list, replace, delete; the client secret is never returned", async () => {
    const created = await s.call("createIdentityProvider", { body: body() });
    const id = created.body.id as string;
    expect(created.body).toEqual({
      id,
      type: "oidc",
      name: "Corporate SSO",
      issuer: "https://sso.example.com",
      client_id: "privnet",
    });
    expect(lastAudit()).toMatchObject({ activity_code: "identityprovider.create", target_id: id });
    expect(JSON.stringify(lastAudit())).not.toContain("idp-secret-value-1");
    // Stored, because the server would need it to talk to the provider.
    expect(s.server.state.store.get("identity_provider", id)?.client_secret).toBe("idp-secret-value-1");

    expect((await s.call("getIdentityProvider", { params: { idpId: id } })).body).toEqual(created.body);
    const list = await s.call("listIdentityProviders");
    expect(list.body).toContainEqual(created.body);

    const replaced = await s.call("updateIdentityProvider", {
      params: { idpId: id },
      body: body({ type: "okta", name: "Okta", client_secret: "idp-secret-value-2" }),
    });
    expect(replaced.body).toMatchObject({ id, type: "okta", name: "Okta" });
    expect(lastAudit()).toMatchObject({ activity_code: "identityprovider.update", target_id: id });
    expect(s.server.state.store.get("identity_provider", id)?.client_secret).toBe("idp-secret-value-2");

    expect((await s.call("deleteIdentityProvider", { params: { idpId: id } })).body).toEqual({});
    expect(lastAudit()).toMatchObject({ activity_code: "identityprovider.delete", target_id: id });
    expectError(await s.call("getIdentityProvider", { params: { idpId: id } }), 404);
  });

  test("rejections name the field; unknown ids are 404", async () => {
    const { client_secret: _c, ...noSecret } = body();
    expectError(await s.call("createIdentityProvider", { body: noSecret }), 422, "client_secret");
    // An empty secret (a public client) is stored, as the service stores it.
    expect((await s.call("createIdentityProvider", { body: body({ client_secret: "" }) })).status).toBe(200);
    expectError(
      await s.call("createIdentityProvider", { body: body({ issuer: "not a url" }) }),
      422,
      "issuer",
    );
    expectError(await s.call("createIdentityProvider", { body: body({ type: "saml" }) }), 422, "type");
    expectError(await s.call("createIdentityProvider", { body: body({ name: "" }) }), 422, "name");
    expectError(await s.call("createIdentityProvider", { body: body({ client_id: "" }) }), 422, "client_id");
    expectError(await s.call("getIdentityProvider", { params: { idpId: "nope" } }), 404);
    expectError(await s.call("updateIdentityProvider", { params: { idpId: "nope" }, body: body() }), 404);
    expectError(await s.call("deleteIdentityProvider", { params: { idpId: "nope" } }), 404);
    // A replace must carry the secret again (it is required on every write).
    const created = await s.call("createIdentityProvider", { body: body() });
    expectError(
      await s.call("updateIdentityProvider", { params: { idpId: created.body.id }, body: noSecret }),
      422,
      "client_secret",
    );
    expect(s.server.state.store.get("identity_provider", created.body.id)?.client_secret).toBe(
      "idp-secret-value-1",
    );
  });

  test("an auditor reads identity providers but cannot write them", async () => {
    const u = await s.call("createUser", {
      body: { name: "aud", role: "auditor", auto_groups: [], is_service_user: true },
    });
    const token = (
      await s.call("createToken", { params: { userId: u.body.id }, body: { name: "t", expires_in: 1 } })
    ).body.plain_token;
    expect((await s.call("listIdentityProviders", { token })).status).toBe(200);
    expectError(await s.call("createIdentityProvider", { body: body(), token }), 403);
  });
});
