import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  s = await startTestServer();
});
afterAll(() => s.close());

const allChecks = {
  nb_version_check: { min_version: "0.28.0" },
  os_version_check: {
    android: { min_version: "13" },
    ios: { min_version: "17.1" },
    darwin: { min_version: "14.0" },
    linux: { min_kernel_version: "5.15" },
    windows: { min_kernel_version: "10.0.19045" },
  },
  geo_location_check: { locations: [{ country_code: "DE", city_name: "Berlin" }], action: "allow" },
  peer_network_range_check: { ranges: ["192.168.0.0/16", "fd00::/8"], action: "deny" },
  process_check: { processes: [{ linux_path: "/usr/bin/agent" }, { windows_path: "C:\\agent.exe" }] },
};

/** The smallest valid checks: a posture check checks something. */
const some = { nb_version_check: { min_version: "0.1.0" } };

const auditCodes = () => s.server.state.store.auditEvents().map((e) => e.activity_code);

async function createGroup(name: string): Promise<string> {
  return (await s.call("createGroup", { body: { name } })).body.id as string;
}

describe("posture checks", () => {
  test("create with all five checks, get, list, replace, delete", async () => {
    const created = await s.call("createPostureCheck", {
      body: { name: "strict", description: "all checks", checks: allChecks },
    });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(created.body).toEqual({ id, name: "strict", description: "all checks", checks: allChecks });
    expect((await s.call("getPostureCheck", { params: { postureCheckId: id } })).body).toEqual(created.body);
    expect((await s.call("listPostureChecks")).body.map((p: { id: string }) => p.id)).toContain(id);

    const replaced = await s.call("updatePostureCheck", {
      params: { postureCheckId: id },
      body: { name: "strict-v2", description: "", checks: { nb_version_check: { min_version: "0.30.1" } } },
    });
    // A replace drops the checks that are not sent again.
    expect(replaced.body).toEqual({
      id,
      name: "strict-v2",
      description: "",
      checks: { nb_version_check: { min_version: "0.30.1" } },
    });

    expect((await s.call("deletePostureCheck", { params: { postureCheckId: id } })).body).toEqual({});
    expectError(await s.call("getPostureCheck", { params: { postureCheckId: id } }), 404, /posture check/);
    const codes = auditCodes();
    expect(codes).toEqual(
      expect.arrayContaining(["posture.check.create", "posture.check.update", "posture.check.delete"]),
    );
  });

  test("names are unique: 422 on create and on rename, a replace may keep its own name", async () => {
    const a = (await s.call("createPostureCheck", { body: { name: "dup-a", description: "", checks: some } }))
      .body;
    await s.call("createPostureCheck", { body: { name: "dup-b", description: "", checks: some } });
    expectError(
      await s.call("createPostureCheck", { body: { name: "dup-a", description: "", checks: some } }),
      422,
      /name: .*dup-a/,
    );
    expectError(
      await s.call("updatePostureCheck", {
        params: { postureCheckId: a.id },
        body: { name: "dup-b", description: "", checks: some },
      }),
      422,
      /name: .*dup-b/,
    );
    const same = await s.call("updatePostureCheck", {
      params: { postureCheckId: a.id },
      body: { name: "dup-a", description: "kept", checks: some },
    });
    expect(same.body.description).toBe("kept");
  });

  test("invalid bodies are 422 naming the field", async () => {
    const post = (body: unknown) => s.call("createPostureCheck", { body });
    expectError(await post({ description: "" }), 422, "name");
    expectError(await post({ name: "x" }), 422, "description");
    expectError(
      await post({ name: "x", description: "", checks: { nb_version_check: { min_version: "latest" } } }),
      422,
      "checks.nb_version_check.min_version",
    );
    expectError(
      await post({
        name: "x",
        description: "",
        checks: { geo_location_check: { locations: [{ country_code: "Germany" }], action: "allow" } },
      }),
      422,
      "checks.geo_location_check.locations[0].country_code",
    );
    expectError(
      await post({
        name: "x",
        description: "",
        checks: { geo_location_check: { locations: [{ country_code: "DE" }], action: "maybe" } },
      }),
      422,
      "checks.geo_location_check.action",
    );
    expectError(
      await post({
        name: "x",
        description: "",
        checks: { peer_network_range_check: { ranges: ["10.0.0.0"], action: "allow" } },
      }),
      422,
      // expectError's word-boundary match cannot end on "]", hence a regex.
      /checks\.peer_network_range_check\.ranges\[0\]:/,
    );
    expectError(
      await post({ name: "x", description: "", checks: { process_check: { processes: [{}] } } }),
      422,
      "checks.process_check.processes[0].linux_path",
    );
    expectError(
      await post({
        name: "x",
        description: "",
        checks: { os_version_check: { linux: { min_version: "5" } } },
      }),
      422,
      "checks.os_version_check.linux.min_kernel_version",
    );
    // Nothing was created by the rejected requests.
    expect((await s.call("listPostureChecks")).body.some((p: { name: string }) => p.name === "x")).toBe(
      false,
    );
  });

  test("unknown ids are 404", async () => {
    const params = { postureCheckId: "nope" };
    expectError(await s.call("getPostureCheck", { params }), 404, /nope/);
    expectError(
      await s.call("updatePostureCheck", { params, body: { name: "n", description: "", checks: some } }),
      404,
      /nope/,
    );
    expectError(await s.call("deletePostureCheck", { params }), 404, /nope/);
  });

  test("a check used by a policy cannot be deleted: 400 naming the policy", async () => {
    const check = (
      await s.call("createPostureCheck", {
        body: { name: "in-use", description: "", checks: { nb_version_check: { min_version: "0.1.0" } } },
      })
    ).body;
    const g = await createGroup("pc-src");
    const policy = await s.call("createPolicy", {
      body: {
        name: "guarded",
        enabled: true,
        source_posture_checks: [check.id],
        rules: [
          {
            name: "r",
            enabled: true,
            action: "accept",
            bidirectional: true,
            protocol: "all",
            sources: [g],
            destinations: [g],
          },
        ],
      },
    });
    expect(policy.status).toBe(200);
    expectError(await s.call("deletePostureCheck", { params: { postureCheckId: check.id } }), 400, /guarded/);
    expect((await s.call("getPostureCheck", { params: { postureCheckId: check.id } })).status).toBe(200);
    await s.call("deletePolicy", { params: { policyId: policy.body.id } });
    expect((await s.call("deletePostureCheck", { params: { postureCheckId: check.id } })).status).toBe(200);
  });
});
