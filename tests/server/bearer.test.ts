import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { loadJose } from "../../server/auth";
import { ManualClock } from "../../server/clock";
import { expectError, startTestServer, tempDir, type TestServer } from "../support/server";

type Jose = Awaited<ReturnType<typeof loadJose>>;
/** A private key as jose's generateKeyPair returns it. */
type SigningKey = Awaited<ReturnType<Jose["generateKeyPair"]>>["privateKey"];

const ISSUER = "https://idp.example.test";
const AUDIENCE = "privnet-api";
let jose: Jose;
let s: TestServer;
let clock: ManualClock;
let key: SigningKey;
let otherKey: SigningKey;
let ownerIdpId: string;

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  jose = await loadJose();
  const pair = await jose.generateKeyPair("ES256", { extractable: true });
  key = pair.privateKey;
  otherKey = (await jose.generateKeyPair("ES256")).privateKey;
  const jwk = { ...(await jose.exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  clock = new ManualClock();
  s = await startTestServer({
    clock,
    bearer: { issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [jwk as Record<string, unknown>] } },
  });
  ownerIdpId = (await s.call("getCurrentUser")).body.idp_id;
});
afterAll(() => s.close());

async function jwt(
  over: { sub?: string; iss?: string; aud?: string; expIn?: number; signWith?: SigningKey } = {},
): Promise<string> {
  const now = Math.floor(clock.now() / 1000);
  return new jose.SignJWT({ email: "owner@privnet.local" })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setSubject(over.sub ?? ownerIdpId)
    .setIssuer(over.iss ?? ISSUER)
    .setAudience(over.aud ?? AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + (over.expIn ?? 3600))
    .sign(over.signWith ?? key);
}

const bearer = (token: string) => `raw:Bearer ${token}`;

describe("bearer tokens", () => {
  test("a valid JWT authenticates the user whose idp_id is its sub, and records the login", async () => {
    const res = await s.call("getCurrentUser", { token: bearer(await jwt()) });
    expect(res.body).toMatchObject({ idp_id: ownerIdpId, role: "owner", is_current: true });
    expect((await s.call("listGroups", { token: bearer(await jwt()) })).status).toBe(200);
    clock.advance(120_000);
    await s.call("getCurrentUser", { token: bearer(await jwt()) });
    const owner = s.server.state.store.all("user").find((u) => u.idp_id === ownerIdpId);
    expect(owner?.last_login).toBe(new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z"));
  });

  test.each([
    ["a wrong issuer", { iss: "https://evil.example.test" }],
    ["a wrong audience", { aud: "someone-else" }],
    ["an unknown sub", { sub: "nobody" }],
    ["an expired token", { expIn: -60 }],
  ])("%s is a 401", async (_name, over) => {
    expectError(await s.call("getCurrentUser", { token: bearer(await jwt(over)) }), 401);
  });

  test("a bad signature is a 401", async () => {
    expectError(await s.call("getCurrentUser", { token: bearer(await jwt({ signWith: otherKey })) }), 401);
    // A valid token with its payload swapped keeps a signature that no longer matches.
    const [h, , sig] = (await jwt()).split(".");
    const forged = Buffer.from(
      JSON.stringify({ sub: ownerIdpId, iss: ISSUER, aud: AUDIENCE, exp: 9e9 }),
    ).toString("base64url");
    expectError(await s.call("getCurrentUser", { token: bearer(`${h}.${forged}.${sig}`) }), 401);
  });

  test("a token that expires by the server clock stops working", async () => {
    const token = await jwt({ expIn: 60 });
    expect((await s.call("getCurrentUser", { token: bearer(token) })).status).toBe(200);
    clock.advance(61_000);
    expectError(await s.call("getCurrentUser", { token: bearer(token) }), 401);
  });

  test("garbage, an unsigned token and an empty value are 401", async () => {
    for (const v of ["not-a-jwt", "a.b.c", ""]) {
      expectError(await s.call("getCurrentUser", { token: bearer(v) }), 401);
    }
    const unsigned = new jose.UnsecuredJWT({})
      .setSubject(ownerIdpId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(Math.floor(clock.now() / 1000) + 60)
      .encode();
    expectError(await s.call("getCurrentUser", { token: bearer(unsigned) }), 401);
  });

  test("a blocked user's JWT is a 403; a server without bearer configuration answers 401", async () => {
    const u = await s.call("createUser", {
      body: { email: "jwt-user@example.com", role: "user", auto_groups: [], is_service_user: false },
    });
    const token = await jwt({ sub: u.body.idp_id });
    expect((await s.call("getCurrentUser", { token: bearer(token) })).body.id).toBe(u.body.id);
    await s.call("updateUser", {
      params: { userId: u.body.id },
      body: { role: "user", auto_groups: [], is_blocked: true },
    });
    expectError(await s.call("getCurrentUser", { token: bearer(token) }), 403, /blocked/);
    // Service users have no IdP identity: no JWT can act as one.
    const svc = await s.call("createUser", {
      body: { name: "bot", role: "admin", auto_groups: [], is_service_user: true },
    });
    expectError(await s.call("getCurrentUser", { token: bearer(await jwt({ sub: svc.body.idp_id })) }), 401);

    const plain = await startTestServer();
    try {
      expectError(await plain.call("getCurrentUser", { token: bearer(await jwt()) }), 401, /not configured/);
    } finally {
      await plain.close();
    }
  });

  test("compiled to CommonJS and run by plain Node (as dist is), the loader imports jose without the sandbox fallback", () => {
    // Transpile auth.ts and its runtime imports exactly as tsc does for dist (module commonjs).
    const root = path.resolve(__dirname, "..", "..");
    const out = tempDir("privnet-cjs-");
    fs.mkdirSync(path.join(out, "server"));
    const config = JSON.parse(fs.readFileSync(path.join(root, "tsconfig.json"), "utf8"));
    const compilerOptions = ts.convertCompilerOptionsFromJson(config.compilerOptions, root).options;
    for (const f of ["auth", "clock", "errors", "ids"]) {
      const src = fs.readFileSync(path.join(root, "server", `${f}.ts`), "utf8");
      const js = ts.transpileModule(src, { compilerOptions, fileName: `${f}.ts` }).outputText;
      fs.writeFileSync(path.join(out, "server", `${f}.js`), js);
    }
    expect(fs.readFileSync(path.join(out, "server", "auth.js"), "utf8")).toMatch(/require\("jose"\)/);
    const script = `
      require(${JSON.stringify(path.join(out, "server", "auth.js"))}).loadJose().then(async (jose) => {
        const { publicKey, privateKey } = await jose.generateKeyPair("ES256");
        const t = await new jose.SignJWT({}).setProtectedHeader({ alg: "ES256" }).setSubject("u").sign(privateKey);
        const { payload } = await jose.jwtVerify(t, publicKey);
        process.stdout.write("verified " + payload.sub);
      });`;
    const result = spawnSync(process.execPath, ["-e", script], {
      env: { ...process.env, NODE_PATH: path.join(root, "node_modules"), NODE_OPTIONS: "" },
      encoding: "utf8",
    });
    expect(result.stdout).toBe("verified u");
    expect(result.status).toBe(0);
    // The vm fallback would announce itself with an ExperimentalWarning; require(esm) does not.
    expect(result.stderr).not.toMatch(/ExperimentalWarning/);
  });
});
