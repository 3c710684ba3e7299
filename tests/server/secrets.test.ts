/**
 * The secrets sweep: every secret field of the spec, table-driven. After the create, no response of get, list or
 * update carries the secret (the create response neither, except where the spec returns the value once), no
 * audit event carries it, no request-log line and nothing written to stderr/stdout carries it, and no database
 * file holds it: secrets the server only needs to recognise (tokens, keys, passwords) are hashed, integration
 * credentials encrypted (tests/server/secrets-at-rest.test.ts covers the key).
 */
import * as fs from "node:fs";
import type { RequestLogEntry } from "../../server/context";
import { startTestServer, type CallOptions, type CallResult, type TestServer } from "../support/server";

let s: TestServer;
const logLines: string[] = [];
const written: string[] = [];
let spies: jest.SpyInstance[] = [];

beforeAll(async () => {
  process.env.PRIVNET_ALLOW_MISSING_HANDLERS = "1";
  for (const stream of [process.stderr, process.stdout]) {
    const original = stream.write.bind(stream);
    spies.push(
      jest.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write),
    );
  }
  s = await startTestServer({
    embeddedIdp: true,
    cloud: true,
    onRequest: (e: RequestLogEntry) => logLines.push(JSON.stringify(e)),
  });
});
afterAll(async () => {
  await s.close();
  for (const spy of spies) spy.mockRestore();
  spies = [];
});

let n = 0;
/** A recognisable secret value. */
const secretValue = (label: string) => `Sx-${label}-${++n}-${Math.random().toString(36).slice(2)}`;
/** The same, base64-encoded (for fields the schema wants base64). */
const base64Secret = (label: string) => Buffer.from(secretValue(label)).toString("base64");

type Call = [operationId: string, opts?: CallOptions];

interface Created {
  /** The secret values to look for. */
  secrets: string[];
  create: CallResult;
  /** Reads and updates made after the create. */
  after: Call[];
}

interface SecretCase {
  name: string;
  /** The spec returns the value once, in the create response. */
  shownOnCreate: boolean;
  make(): Promise<Created>;
}

async function ownerId(): Promise<string> {
  return (await s.call("getCurrentUser")).body.id;
}

const edr = (vendor: "A" | "B" | "C", body: Record<string, unknown>): Promise<Created> =>
  (async () => {
    const create = await s.call(`createEdrVendor${vendor}`, { body });
    return {
      secrets: [],
      create,
      after: [
        [`getEdrVendor${vendor}`, {}],
        [`updateEdrVendor${vendor}`, { body }],
        [`getEdrVendor${vendor}`, {}],
      ],
    };
  })();

async function streaming(platform: string, config: Record<string, string>, secrets: string[]) {
  const create = await s.call("createEventStreaming", { body: { platform, config, enabled: true } });
  const id = create.body?.id;
  return {
    secrets,
    create,
    after: [
      ["getEventStreaming", { params: { id } }],
      ["listEventStreamings", {}],
      ["updateEventStreaming", { params: { id }, body: { config, enabled: false } }],
      ["getEventStreaming", { params: { id } }],
    ] as Call[],
  };
}

async function directorySync(vendor: "D" | "E", body: Record<string, unknown>, secret: string) {
  const create = await s.call(`createVendor${vendor}Idp`, { body });
  const id = create.body?.id;
  return {
    secrets: [secret],
    create,
    after: [
      [`getVendor${vendor}Idp`, { params: { id } }],
      [`listVendor${vendor}Idps`, {}],
      [`updateVendor${vendor}Idp`, { params: { id }, body: { sync_interval: 600 } }],
      [`syncVendor${vendor}Idp`, { params: { id } }],
      [`listVendor${vendor}IdpLogs`, { params: { id } }],
    ] as Call[],
  };
}

async function scim(variant: "" | "Okta", body: Record<string, unknown>, regenerate: boolean) {
  const name = `${variant}ScimIntegration`;
  let create = await s.call(`create${name}`, { body });
  const id = create.body?.id;
  if (regenerate) create = await s.call(`regenerate${name}Token`, { params: { id } });
  return {
    secrets: [create.body?.auth_token as string],
    create,
    after: [
      [`get${name}`, { params: { id } }],
      [`list${name}s`, {}],
      [`update${name}`, { params: { id }, body: { enabled: false } }],
      [`list${name}Logs`, { params: { id } }],
    ] as Call[],
  };
}

const CASES: SecretCase[] = [
  {
    name: "personal access token plain_token",
    shownOnCreate: true,
    async make() {
      const userId = await ownerId();
      const create = await s.call("createToken", {
        params: { userId },
        body: { name: "sweep", expires_in: 5 },
      });
      const tokenId = create.body.personal_access_token.id;
      return {
        secrets: [create.body.plain_token],
        create,
        after: [
          ["listTokens", { params: { userId } }],
          ["getToken", { params: { userId, tokenId } }],
          // Use it: the log must not record the credential, only its id.
          ["getCurrentUser", { token: create.body.plain_token }],
        ],
      };
    },
  },
  {
    name: "setup key value",
    shownOnCreate: true,
    async make() {
      const body = { name: "sweep", type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 };
      const create = await s.call("createSetupKey", { body });
      const keyId = create.body.id;
      return {
        secrets: [create.body.key],
        create,
        after: [
          ["listSetupKeys", {}],
          ["getSetupKey", { params: { keyId } }],
          ["updateSetupKey", { params: { keyId }, body: { revoked: false, auto_groups: [] } }],
        ],
      };
    },
  },
  {
    name: "invite token",
    shownOnCreate: true,
    async make() {
      const create = await s.call("createInvite", {
        body: { email: "sweep@example.com", name: "Sweep", role: "user", auto_groups: [] },
      });
      const token = create.body.invite_token;
      return {
        secrets: [token],
        create,
        after: [
          ["listInvites", {}],
          // The public route carries the token in its path: the request log must redact it.
          ["getInviteInfo", { params: { token }, token: null }],
          ["regenerateInvite", { params: { inviteId: create.body.id }, body: {} }],
          ["listInvites", {}],
        ],
      };
    },
  },
  {
    name: "user initial password",
    shownOnCreate: true,
    async make() {
      const create = await s.call("createUser", {
        body: { email: "pw@example.com", role: "user", auto_groups: [], is_service_user: false },
      });
      return {
        secrets: [create.body.password],
        create,
        after: [
          ["listUsers", {}],
          ["listUsers", { query: { service_user: "false" } }],
          [
            "updateUser",
            {
              params: { userId: create.body.id },
              body: { role: "auditor", auto_groups: [], is_blocked: false },
            },
          ],
        ],
      };
    },
  },
  {
    name: "identity provider client_secret",
    shownOnCreate: false,
    async make() {
      const secret = secretValue("idp");
      const body = {
        type: "oidc",
        name: "sweep",
        issuer: "https://sso.example.com",
        client_id: "cid",
        client_secret: secret,
      };
      const create = await s.call("createIdentityProvider", { body });
      const idpId = create.body.id;
      return {
        secrets: [secret],
        create,
        after: [
          ["getIdentityProvider", { params: { idpId } }],
          ["listIdentityProviders", {}],
          ["updateIdentityProvider", { params: { idpId }, body: { ...body, name: "sweep-2" } }],
        ],
      };
    },
  },
  {
    name: "EDR vendor-a api_token",
    shownOnCreate: false,
    async make() {
      const secret = secretValue("vendor-a");
      const made = await edr("A", {
        groups: [],
        last_synced_interval: 24,
        api_token: secret,
        api_url: "https://edr-a.example.com",
        match_attributes: { firewall_enabled: true },
      });
      return { ...made, secrets: [secret] };
    },
  },
  {
    name: "EDR vendor-b secret",
    shownOnCreate: false,
    async make() {
      const secret = secretValue("vendor-b");
      const made = await edr("B", {
        groups: [],
        last_synced_interval: 24,
        client_id: "b-client",
        tenant_id: "b-tenant",
        secret,
      });
      return { ...made, secrets: [secret] };
    },
  },
  {
    name: "EDR vendor-c client_id and secret",
    shownOnCreate: false,
    async make() {
      const clientId = secretValue("vendor-c-id");
      const secret = secretValue("vendor-c-secret");
      const made = await edr("C", {
        groups: [],
        client_id: clientId,
        secret,
        cloud_id: "c-cloud",
        zta_score_threshold: 50,
      });
      return { ...made, secrets: [clientId, secret] };
    },
  },
  {
    name: "directory sync vendor-d service_account_key",
    shownOnCreate: false,
    async make() {
      const key = base64Secret("vendor-d");
      return directorySync("D", { service_account_key: key, customer_id: "C0123" }, key);
    },
  },
  {
    name: "directory sync vendor-e client_secret",
    shownOnCreate: false,
    async make() {
      const secret = base64Secret("vendor-e");
      return directorySync(
        "E",
        { client_secret: secret, client_id: "e-client", tenant_id: "e-tenant", host: "api.example.com" },
        secret,
      );
    },
  },
  {
    name: "event streaming datadog api_key",
    shownOnCreate: false,
    async make() {
      const apiKey = secretValue("dd");
      return streaming("datadog", { api_key: apiKey, site: "datadoghq.eu" }, [apiKey]);
    },
  },
  {
    name: "event streaming s3 access_key_id and secret_access_key",
    shownOnCreate: false,
    async make() {
      const id = secretValue("s3-id");
      const key = secretValue("s3-key");
      return streaming(
        "s3",
        { bucket_name: "audit", region: "eu-central-1", access_key_id: id, secret_access_key: key },
        [id, key],
      );
    },
  },
  {
    name: "event streaming firehose access_key_id and secret_access_key",
    shownOnCreate: false,
    async make() {
      const id = secretValue("fh-id");
      const key = secretValue("fh-key");
      return streaming(
        "firehose",
        { stream_name: "audit", region: "eu-central-1", access_key_id: id, secret_access_key: key },
        [id, key],
      );
    },
  },
  {
    name: "event streaming generic_http auth_token",
    shownOnCreate: false,
    async make() {
      const token = secretValue("http");
      return streaming("generic_http", { url: "https://hooks.example.com/in", auth_token: token }, [token]);
    },
  },
  {
    name: "SCIM integration auth_token",
    shownOnCreate: true,
    make: () => scim("", { prefix: "sweep", provider: "jumpcloud" }, false),
  },
  {
    name: "SCIM integration auth_token, regenerated",
    shownOnCreate: true,
    make: () => scim("", { prefix: "sweep-2", provider: "jumpcloud" }, true),
  },
  {
    name: "Okta SCIM integration auth_token, and regenerated",
    shownOnCreate: true,
    make: () => scim("Okta", { connection_name: "sweep" }, true),
  },
  {
    name: "notification channel webhook header values",
    shownOnCreate: false,
    async make() {
      const secret = secretValue("hook");
      const body = {
        type: "webhook",
        target: { url: "https://hooks.example.com/in", headers: { "X-Hook-Secret": secret } },
        event_types: ["peer.add"],
        enabled: true,
      };
      const create = await s.call("createNotificationChannel", { body });
      const channelId = create.body?.id;
      const masked = { ...body, target: { ...body.target, headers: { "X-Hook-Secret": "********" } } };
      return {
        secrets: [secret],
        create,
        after: [
          ["getNotificationChannel", { params: { channelId } }],
          ["listNotificationChannels", {}],
          ["updateNotificationChannel", { params: { channelId }, body: masked }],
          ["getNotificationChannel", { params: { channelId } }],
        ] as Call[],
      };
    },
  },
];

function dbText(): string {
  return [s.dbFile, `${s.dbFile}-wal`, `${s.dbFile}-shm`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString("latin1"))
    .join("\n");
}

describe("secrets sweep", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const made = await c.make();
    expect(made.create.status).toBe(200);
    expect(made.secrets.length).toBeGreaterThan(0);
    for (const secret of made.secrets) expect(typeof secret === "string" && secret.length >= 8).toBe(true);
    const createText = JSON.stringify(made.create.body);
    for (const secret of made.secrets) {
      if (c.shownOnCreate) expect(createText).toContain(secret);
      else expect(createText).not.toContain(secret);
    }
    for (const [operationId, opts] of made.after) {
      const res = await s.call(operationId, opts);
      expect({ operationId, status: res.status }).toEqual({ operationId, status: 200 });
      for (const secret of made.secrets) expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    const audit = await s.call("listAuditEvents");
    expect(audit.status).toBe(200);
    const auditText = JSON.stringify(audit.body) + JSON.stringify(s.server.state.store.auditEvents());
    const logs = logLines.join("\n");
    const out = written.join("");
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of made.secrets) {
      expect(auditText).not.toContain(secret);
      expect(logs).not.toContain(secret);
      expect(out).not.toContain(secret);
    }
    // In no database file: hashed where the server only recognises the value, encrypted where it reads it back.
    const db = dbText();
    for (const secret of made.secrets) expect(db).not.toContain(secret);
  });

  test("the request log names credentials by id and redacts invite tokens in paths", () => {
    const logs = logLines.join("\n");
    expect(logs).not.toContain(s.token);
    expect(logs).toContain('"path":"/api/users/invites/***"');
    const ownerToken = s.server.state.store.all("token").find((t) => t.name === "bootstrap owner token");
    expect(ownerToken).toBeDefined();
    expect(logLines.some((l) => JSON.parse(l).credentialId === ownerToken?.id)).toBe(true);
  });
});
