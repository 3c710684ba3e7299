import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
});
afterAll(() => s.close());

describe("groups", () => {
  test("a new account has the built-in All group", async () => {
    const res = await s.call("listGroups", { query: { name: "All" } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ name: "All", issued: "api", peers_count: 0 });
  });

  test("create, get, list by exact name, replace, delete", async () => {
    const created = await s.call("createGroup", { body: { name: "devs" } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({ name: "devs", peers: [], resources: [], peers_count: 0 });
    expect((await s.call("getGroup", { params: { groupId: id } })).body.name).toBe("devs");
    expect((await s.call("listGroups", { query: { name: "dev" } })).body).toHaveLength(0);
    expect((await s.call("listGroups", { query: { name: "devs" } })).body).toHaveLength(1);
    const renamed = await s.call("updateGroup", { params: { groupId: id }, body: { name: "developers" } });
    expect(renamed.body.name).toBe("developers");
    expect((await s.call("deleteGroup", { params: { groupId: id } })).body).toEqual({});
    expectError(await s.call("getGroup", { params: { groupId: id } }), 404);
  });

  test("rejects a missing name, a duplicate name and unknown peers", async () => {
    expectError(await s.call("createGroup", { body: {} }), 422, "name");
    expectError(await s.call("createGroup", { body: { name: "" } }), 422, "name");
    await s.call("createGroup", { body: { name: "ops" } });
    expectError(await s.call("createGroup", { body: { name: "ops" } }), 409, /ops/);
    expectError(await s.call("createGroup", { body: { name: "x", peers: ["nope"] } }), 422, "peers");
    expectError(
      await s.call("createGroup", { body: { name: "x", resources: [{ id: "nope", type: "host" }] } }),
      422,
      /resources\[0\]/,
    );
  });

  test("the All group cannot be changed or deleted", async () => {
    const all = (await s.call("listGroups", { query: { name: "All" } })).body[0];
    expectError(
      await s.call("updateGroup", { params: { groupId: all.id }, body: { name: "Everyone" } }),
      400,
    );
    expectError(await s.call("deleteGroup", { params: { groupId: all.id } }), 400);
  });

  test("a failed request changes nothing", async () => {
    const before = (await s.call("listGroups")).body.length;
    expectError(await s.call("createGroup", { body: { name: "y", peers: ["missing"] } }), 422);
    expect((await s.call("listGroups")).body.length).toBe(before);
  });

  test("malformed JSON is a 400 in the error shape", async () => {
    const res = await s.raw("POST", "/api/groups", {
      body: "{not json",
      headers: { Authorization: `Token ${s.token}`, "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "couldn't parse JSON request", code: 400 });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("no credentials: 401", async () => {
    expectError(await s.call("listGroups", { token: null }), 401);
  });
});
