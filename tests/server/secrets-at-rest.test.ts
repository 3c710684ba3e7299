/**
 * Integration credentials at rest: encrypted (AES-256-GCM) under a key kept in a file of its own, never in the
 * database; the database, its -wal and -shm and the key file are readable by their owner only. A restart with
 * the same key reads the credentials back; a wrong or missing key is a clear startup error that changes nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { MASKED_CREDENTIAL } from "../../api/event-streaming";
import { startServer } from "../../server";
import { startTestServer, tempDir, type TestServer } from "../support/server";

const mode = (f: string) => fs.statSync(f).mode & 0o777;
const sha = (f: string) => createHash("sha256").update(fs.readFileSync(f)).digest("hex");

/** Every database file there is, read as bytes (what `strings` would see). */
function dbBytes(dbFile: string): string {
  return [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString("latin1"))
    .join("\n");
}

let n = 0;
const secret = (label: string) => `AtRest-${label}-${++n}-${randomBytes(6).toString("hex")}`;

/** Creates one of every integration credential; returns the values and how to read each back from the store. */
async function createAll(s: TestServer) {
  const values = {
    idp: secret("idp"),
    edrA: secret("edr-a"),
    edrB: secret("edr-b"),
    edrCId: secret("edr-c-id"),
    edrC: secret("edr-c"),
    dirD: Buffer.from(secret("dir-d")).toString("base64"),
    dirE: Buffer.from(secret("dir-e")).toString("base64"),
    dd: secret("datadog"),
    s3Id: secret("s3-id"),
    s3Key: secret("s3-key"),
    fhKey: secret("firehose-key"),
    http: secret("http"),
    llmKey: secret("llm-api-key"),
  };
  const ok = async (op: string, body: unknown) => {
    const r = await s.call(op, { body });
    if (r.status !== 200) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const idp = await ok("createIdentityProvider", {
    type: "oidc",
    name: "at-rest",
    issuer: "https://sso.example.com",
    client_id: "cid",
    client_secret: values.idp,
  });
  await ok("createEdrVendorA", {
    groups: [],
    last_synced_interval: 24,
    api_token: values.edrA,
    api_url: "https://edr-a.example.com",
    match_attributes: {},
  });
  await ok("createEdrVendorB", {
    groups: [],
    last_synced_interval: 24,
    client_id: "b",
    tenant_id: "t",
    secret: values.edrB,
  });
  await ok("createEdrVendorC", {
    groups: [],
    client_id: values.edrCId,
    secret: values.edrC,
    cloud_id: "c1",
    zta_score_threshold: 10,
  });
  const d = await ok("createVendorDIdp", { service_account_key: values.dirD, customer_id: "C1" });
  const e = await ok("createVendorEIdp", {
    client_secret: values.dirE,
    client_id: "e",
    tenant_id: "t",
    host: "api.example.com",
  });
  const stream = (platform: string, config: Record<string, string>) =>
    ok("createEventStreaming", { platform, config, enabled: true });
  const dd = await stream("datadog", { api_key: values.dd as string });
  await stream("s3", {
    bucket_name: "b",
    region: "eu-west-1",
    access_key_id: values.s3Id as string,
    secret_access_key: values.s3Key as string,
  });
  await stream("firehose", {
    stream_name: "f",
    region: "eu-west-1",
    access_key_id: "AKIAFH",
    secret_access_key: values.fhKey as string,
  });
  await stream("generic_http", { url: "https://hooks.example.com/in", auth_token: values.http as string });
  const llm = await ok("createAgentNetworkProvider", {
    provider_id: "openai_api",
    name: "at-rest",
    upstream_url: "https://api.openai.com",
    api_key: values.llmKey,
  });
  return {
    values,
    ids: { idp: idp.id as string, d: String(d.id), e: String(e.id), dd: String(dd.id), llm: String(llm.id) },
  };
}

/** What the server holds in memory (decrypted), for the values it stored. */
function readBack(s: TestServer, ids: { idp: string; d: string; e: string; dd: string; llm: string }) {
  const st = s.server.state.store;
  return {
    idp: st.get("identity_provider", ids.idp)?.client_secret,
    edrA: (st.get("edr", "vendor-a")?.secrets as Record<string, string>).api_token,
    edrC: (st.get("edr", "vendor-c")?.secrets as Record<string, string>).secret,
    dirD: (st.get("directory_sync", ids.d)?.secrets as Record<string, string>).service_account_key,
    dirE: (st.get("directory_sync", ids.e)?.secrets as Record<string, string>).client_secret,
    dd: (st.get("event_streaming", ids.dd)?.config as Record<string, string>).api_key,
    llmKey: st.get("agent_network_provider", ids.llm)?.api_key,
  };
}

describe("integration credentials at rest", () => {
  test("encrypted in every database file; files 0600; a restart with the same key reads them back", async () => {
    const s = await startTestServer({ cloud: true, embeddedIdp: true });
    const keyFile = `${s.dbFile}.key`;
    let token = s.token;
    const { values, ids } = await createAll(s);
    // While running: the key file next to the database and every database file are the owner's alone.
    expect(fs.existsSync(keyFile)).toBe(true);
    for (const f of [s.dbFile, `${s.dbFile}-wal`, `${s.dbFile}-shm`, keyFile]) {
      expect({ f: path.basename(f), mode: mode(f).toString(8) }).toEqual({
        f: path.basename(f),
        mode: "600",
      });
    }
    const running = dbBytes(s.dbFile);
    for (const [label, v] of Object.entries(values))
      expect({ label, found: running.includes(v) }).toEqual({ label, found: false });
    // The key is not in the database either.
    const key = fs.readFileSync(keyFile, "utf8").trim();
    expect(running.includes(key)).toBe(false);
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    await s.close();
    const closed = dbBytes(s.dbFile);
    for (const v of Object.values(values)) expect(closed.includes(v)).toBe(false);
    expect(mode(s.dbFile)).toBe(0o600);

    // Same database, same (default) key file: everything reads back, and the service still works with it.
    const again = await startTestServer({ cloud: true, embeddedIdp: true, dbFile: s.dbFile, token });
    try {
      expect(readBack(again, ids)).toEqual({
        idp: values.idp,
        edrA: values.edrA,
        edrC: values.edrC,
        dirD: values.dirD,
        dirE: values.dirE,
        dd: values.dd,
        llmKey: values.llmKey,
      });
      // A masked round trip keeps the stored (decrypted) credential.
      const r = await again.call("updateEventStreaming", {
        params: { id: ids.dd },
        body: { config: { api_key: MASKED_CREDENTIAL }, enabled: false },
      });
      expect(r.status).toBe(200);
      expect(
        (again.server.state.store.get("event_streaming", ids.dd)?.config as Record<string, string>).api_key,
      ).toBe(values.dd);
      token = again.token;
    } finally {
      await again.close();
    }
    for (const v of Object.values(values)) expect(dbBytes(s.dbFile).includes(v)).toBe(false);
  });

  test("a wrong key or a missing key file is a clear startup error and changes nothing", async () => {
    const s = await startTestServer({ cloud: true });
    const { values, ids } = await createAll(s);
    await s.close();
    const keyFile = `${s.dbFile}.key`;
    const before = {
      db: sha(s.dbFile),
      key: sha(keyFile),
      files: fs.readdirSync(path.dirname(s.dbFile)).sort(),
    };

    const wrong = path.join(tempDir(), "wrong.key");
    fs.writeFileSync(wrong, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    await expect(startServer({ db: s.dbFile, port: 0, cloud: true, secretsKeyFile: wrong })).rejects.toThrow(
      /secrets key .*wrong\.key.* does not open the integration secrets of .*privnet\.db/,
    );
    const missing = path.join(tempDir(), "missing.key");
    await expect(
      startServer({ db: s.dbFile, port: 0, cloud: true, secretsKeyFile: missing }),
    ).rejects.toThrow(/missing\.key does not exist/);
    expect(fs.existsSync(missing)).toBe(false);
    // The default key file moved away: the same error, and no new key is made beside the database.
    fs.renameSync(keyFile, `${keyFile}.away`);
    await expect(startServer({ db: s.dbFile, port: 0, cloud: true })).rejects.toThrow(/does not exist/);
    expect(fs.existsSync(keyFile)).toBe(false);
    fs.renameSync(`${keyFile}.away`, keyFile);
    expect({
      db: sha(s.dbFile),
      key: sha(keyFile),
      files: fs.readdirSync(path.dirname(s.dbFile)).sort(),
    }).toEqual(before);

    // The right key, given explicitly, still opens it.
    const ok = await startTestServer({
      cloud: true,
      dbFile: s.dbFile,
      token: s.token,
      secretsKeyFile: keyFile,
    });
    try {
      expect(readBack(ok, ids).idp).toBe(values.idp);
    } finally {
      await ok.close();
    }
  });

  test("a key file others can read, or one that is not a key, is refused", async () => {
    const dir = tempDir();
    const loose = path.join(dir, "loose.key");
    fs.writeFileSync(loose, `${randomBytes(32).toString("base64")}\n`, { mode: 0o644 });
    fs.chmodSync(loose, 0o644);
    await expect(startServer({ db: path.join(dir, "a.db"), port: 0, secretsKeyFile: loose })).rejects.toThrow(
      /loose\.key is readable or writable by others.*chmod 600/,
    );
    const short = path.join(dir, "short.key");
    fs.writeFileSync(short, "c2hvcnQ=\n", { mode: 0o600 });
    await expect(startServer({ db: path.join(dir, "b.db"), port: 0, secretsKeyFile: short })).rejects.toThrow(
      /short\.key.*32 bytes/,
    );
  });

  test("a given key file that does not exist is created (0600) for a new database", async () => {
    const dir = tempDir();
    const keyFile = path.join(dir, "keys", "privnet.key");
    fs.mkdirSync(path.dirname(keyFile));
    const s = await startTestServer({ dbFile: undefined, secretsKeyFile: keyFile });
    try {
      expect(mode(keyFile)).toBe(0o600);
      expect(fs.existsSync(`${s.dbFile}.key`)).toBe(false);
    } finally {
      await s.close();
    }
  });

  test("a database written before encryption is encrypted in place on start", async () => {
    const s = await startTestServer({ cloud: true });
    const { values, ids } = await createAll(s);
    const kinds = [
      "identity_provider",
      "edr",
      "directory_sync",
      "event_streaming",
      "agent_network_provider",
    ] as const;
    // The documents as the server holds them: credentials in the clear.
    const docs = kinds.flatMap((kind) => s.server.state.store.all(kind).map((doc) => ({ kind, doc })));
    expect(docs.length).toBe(11);
    await s.close();
    // Make it a database from before encryption: credentials in plain JSON, no key check, no key file.
    const db = new DatabaseSync(s.dbFile);
    const update = db.prepare("UPDATE objects SET data = ? WHERE kind = ? AND id = ?");
    for (const { kind, doc } of docs) update.run(JSON.stringify(doc), kind, doc.id);
    db.exec("DELETE FROM meta; PRAGMA wal_checkpoint(TRUNCATE);");
    db.close();
    fs.rmSync(`${s.dbFile}.key`);
    fs.chmodSync(s.dbFile, 0o644);
    expect(dbBytes(s.dbFile).includes(values.idp)).toBe(true);

    const again = await startTestServer({ cloud: true, dbFile: s.dbFile, token: s.token });
    try {
      expect(readBack(again, ids)).toEqual({
        idp: values.idp,
        edrA: values.edrA,
        edrC: values.edrC,
        dirD: values.dirD,
        dirE: values.dirE,
        dd: values.dd,
        llmKey: values.llmKey,
      });
      expect(mode(`${s.dbFile}.key`)).toBe(0o600);
      expect(mode(s.dbFile)).toBe(0o600);
      const bytes = dbBytes(s.dbFile);
      for (const v of Object.values(values)) expect(bytes.includes(v)).toBe(false);
    } finally {
      await again.close();
    }
    const closed = dbBytes(s.dbFile);
    for (const v of Object.values(values)) expect(closed.includes(v)).toBe(false);
  });

  test(":memory: keeps its key in memory: no key file is written", async () => {
    const dir = tempDir();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const s = await startServer({ db: ":memory:", port: 0 });
      await s.close();
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });
});
