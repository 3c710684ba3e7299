/**
 * Secrets sweep: `node bench/secrets/sweep.mts [options] [--scan PATH]...`
 *
 * Looks for secret values where they must never be: request logs, server stdout/stderr, captured API responses,
 * a Pulumi backend directory, anything given with --scan (files, or directories walked recursively, without
 * node_modules/ and .git/; binary files, those with a NUL byte in their first 8 KiB, are skipped and counted).
 *
 * After the fuzz run:  node bench/secrets/sweep.mts --scan DIR/scan --token-file DIR/private/owner-token \
 *                        --secrets-file DIR/private/seed-secrets.tsv        (bench/robustness.sh does this)
 * After the e2e run:   PRIVNET_KEEP_E2E=1 npx jest --selectProjects e2e, then
 *                      node bench/secrets/sweep.mts --no-api --scan /tmp/privnet-e2e-<name>-<id>   (each kept dir:
 *                        its state/ backend, the projects' Pulumi.<stack>.yaml, pulumi-home/ logs)
 *
 * What it looks for:
 *  - known values: every --token-file (the owner token of a run), every `label<TAB>value` line of every
 *    --secrets-file (bench/fuzz/seed.mts writes one), and the secrets this sweep creates itself (below);
 *  - shapes that are secrets whoever made them: a personal access token (`pnp_` + 30 base62 + a valid 6-character
 *    CRC32 checksum), an invite token (`pni_` + 40 base62), a setup key (an upper-case UUID).
 *
 * The API pass (unless --no-api): against --url with the owner token of --token-file, or, without --url, against
 * a server it starts itself (temp database, --cloud --embedded-idp --simulate, request log and stdout/stderr in
 * --out, all scanned afterwards). It creates one of every secret-bearing object with recognisable values
 * (`pvsweep-<label>-<random>`): a personal access token, a setup key, an invite, an embedded-IdP user with its
 * initial password, an identity provider, the three EDR integrations, both directory syncs, the four event
 * streaming platforms and an Agent Network provider's API key (created, replaced, used by a simulated request). Then it reads back every GET operation of docs/openapi.json with the ids it made, and
 * scans every answer (saved to --out/responses.ndjson). A create response may show a value once (the spec says
 * so for tokens, keys, invite links and initial passwords); no other answer may.
 *
 * Database files (the API pass's own server, running and stopped, and every --db FILE with its -wal and -shm) are
 * read as bytes for the known values (tokens and keys are hashed there, integration credentials encrypted) and
 * must be mode 0600.
 *
 * Captured responses in schemathesis's NDJSON report (bench/fuzz/run.sh) are read structurally: bodies there are
 * base64, so they are decoded; only what the server answered is scanned, and a value the fuzzer itself sent in
 * that request does not count (echoing a name back is no leak). A shape match in the answer to an operation that
 * shows the value once by design is not a finding either.
 *
 * Prints one line per finding (the value masked) and a result line; exits 1 on any finding, 2 on an error.
 * Node 24 type stripping; node: modules only.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(path.dirname(process.argv[1] ?? "."), "..", "..");

interface Options {
  url?: string;
  tokenFiles: string[];
  secretsFiles: string[];
  scan: string[];
  /** Database files to read as bytes (with their -wal and -shm). */
  dbs: string[];
  out: string;
  api: boolean;
  json: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { tokenFiles: [], secretsFiles: [], scan: [], dbs: [], out: "", api: true, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--url") o.url = value();
    else if (a === "--token-file") o.tokenFiles.push(value());
    else if (a === "--secrets-file") o.secretsFiles.push(value());
    else if (a === "--scan") o.scan.push(value());
    else if (a === "--db") o.dbs.push(value());
    else if (a === "--out") o.out = value();
    else if (a === "--no-api") o.api = false;
    else if (a === "--json") o.json = true;
    else if (a === "-h" || a === "--help") {
      process.stdout.write(
        "usage: sweep.mts [--url URL --token-file F] [--token-file F]... [--secrets-file TSV]... " +
          "[--scan PATH]... [--db FILE]... [--out DIR] [--no-api] [--json]\n",
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (o.url && !o.tokenFiles.length) throw new Error("--url needs --token-file (the owner token)");
  return o;
}

// ---------------------------------------------------------------------------------------------------------------
// What to look for

interface Known {
  label: string;
  value: string;
  /** Also found in these spellings (base64 of the value, for logs that encode). */
  variants: string[];
}

const known: Known[] = [];
function addKnown(label: string, value: string): void {
  // Short values would match by chance; every secret of this API is longer.
  if (value.length < 12 || known.some((k) => k.value === value)) return;
  const b64 = Buffer.from(value).toString("base64").replace(/=+$/, "");
  known.push({ label, value, variants: b64 === value ? [] : [b64] });
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
let crcTable: Uint32Array | undefined;
function crc32(text: string): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[i] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function base62(n: number, width: number): string {
  let out = "";
  let v = n >>> 0;
  do {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  } while (v > 0);
  return out.padStart(width, "0");
}

/** Secret shapes; `valid` weeds out look-alikes (the checksum of a personal access token). */
const SHAPES: { name: string; re: RegExp; valid?: (m: string) => boolean }[] = [
  {
    name: "a personal access token",
    re: /pnp_[0-9A-Za-z]{36}/g,
    valid: (m) => base62(crc32(m.slice(4, 34)), 6) === m.slice(34),
  },
  { name: "an invite token", re: /pni_[0-9A-Za-z]{40}/g },
  { name: "a setup key", re: /\b[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\b/g },
];

/** Operations whose answer shows a secret once, by design (spec 2.x): shapes there are expected. */
const SHOWN_ONCE = [
  /^POST \/api\/users\/[^/]+\/tokens$/,
  /^POST \/api\/users\/invites$/,
  /^POST \/api\/users\/invites\/[^/]+\/regenerate$/,
  /^POST \/api\/setup-keys$/,
  /^POST \/api\/users$/,
];

interface Finding {
  what: string;
  where: string;
  context: string;
}
const findings: Finding[] = [];

const mask = (v: string) => `${v.slice(0, 6)}…(${v.length} chars)`;

/** The text around a match, with every secret in it (not only the match) replaced. */
function context(text: string, at: number, length: number): string {
  let around = text.slice(Math.max(0, at - 60), at + length + 60);
  for (const k of known) for (const n of [k.value, ...k.variants]) around = around.split(n).join("<SECRET>");
  for (const shape of SHAPES) around = around.replace(shape.re, "<SECRET>");
  return around.replace(/\s+/g, " ");
}

/** Scans `text`; `where` names it; values in `echoed` (what the client sent) are not findings. */
function scanText(
  text: string,
  where: string,
  opts: { shapes: boolean; echoed?: string } = { shapes: true },
) {
  for (const k of known) {
    for (const needle of [k.value, ...k.variants]) {
      const at = text.indexOf(needle);
      if (at < 0 || opts.echoed?.includes(needle)) continue;
      findings.push({
        what: `${k.label} (${mask(k.value)})${needle === k.value ? "" : " base64-encoded"}`,
        where,
        context: context(text, at, needle.length),
      });
      break;
    }
  }
  if (!opts.shapes) return;
  for (const shape of SHAPES) {
    for (const m of text.matchAll(shape.re)) {
      const v = m[0];
      if (shape.valid && !shape.valid(v)) continue;
      if (opts.echoed?.includes(v)) continue;
      findings.push({
        what: `something shaped like ${shape.name} (${mask(v)})`,
        where,
        context: context(text, m.index ?? 0, v.length),
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Files

const stats = { files: 0, binaries: 0, bytes: 0, responses: 0, apiResponses: 0, dbFiles: 0 };

/**
 * A database and its -wal and -shm, read as bytes (what `strings` sees): no known secret may be there, hashed
 * or encrypted as they are, and the files must be the owner's alone. Shapes are not looked for: random bytes of
 * ciphertext and pages would match by chance.
 */
function scanDatabase(db: string, when: string): void {
  if (!fs.existsSync(db)) throw new Error(`--db ${db}: no such file`);
  for (const f of [db, `${db}-wal`, `${db}-shm`]) {
    if (!fs.existsSync(f)) continue;
    stats.dbFiles++;
    const mode = fs.statSync(f).mode & 0o777;
    if (mode & 0o077)
      findings.push({
        what: `a database file readable by others (mode ${mode.toString(8)})`,
        where: f,
        context: when,
      });
    scanText(fs.readFileSync(f).toString("latin1"), `${f} (${when})`, { shapes: false });
  }
}

function decode64(v: unknown): string {
  if (v && typeof v === "object" && typeof (v as { $base64?: unknown }).$base64 === "string") {
    return Buffer.from((v as { $base64: string }).$base64, "base64").toString("utf8");
  }
  return typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v);
}

/** schemathesis NDJSON: scan each recorded response, minus what its own request carried. */
function scanSchemathesisNdjson(file: string, lines: string[]): void {
  lines.forEach((line, n) => {
    if (!line.includes('"interactions"')) return;
    let event: any;
    try {
      event = JSON.parse(line);
    } catch {
      scanText(line, `${file}:${n + 1}`);
      return;
    }
    const recorder = event?.ScenarioFinished?.recorder;
    for (const [caseId, it] of Object.entries((recorder?.interactions ?? {}) as Record<string, any>)) {
      const req = it?.request ?? {};
      const res = it?.response;
      if (!res) continue;
      stats.responses++;
      const op = `${String(req.method)} ${new URL(String(req.uri ?? "http://x/")).pathname}`;
      const echoed = `${decodeURIComponent(String(req.uri ?? ""))}\n${decode64(req.body)}\n${JSON.stringify(req.headers ?? {})}`;
      const answer = `${JSON.stringify(res.headers ?? {})}\n${decode64(res.content)}`;
      scanText(answer, `${file}:${n + 1} response to ${op} (case ${caseId})`, {
        shapes: !SHOWN_ONCE.some((re) => re.test(op)),
        echoed,
      });
    }
  });
}

function scanFile(file: string): void {
  const st = fs.statSync(file);
  if (st.size > 512 * 1024 * 1024) throw new Error(`${file}: larger than 512 MiB`);
  const bytes = fs.readFileSync(file);
  // Binaries (engine plugins in a PULUMI_HOME, a database) are not where a secret leaks as text.
  if (bytes.subarray(0, 8192).includes(0)) {
    stats.binaries++;
    return;
  }
  const text = bytes.toString("utf8");
  stats.files++;
  stats.bytes += st.size;
  const lines = text.split("\n");
  if (lines[0]?.startsWith('{"Initialize":') && lines[0].includes("schemathesis_version")) {
    scanSchemathesisNdjson(file, lines);
    return;
  }
  lines.forEach((line, n) => scanText(line, `${file}:${n + 1}`));
}

function scanPath(p: string): void {
  if (!fs.existsSync(p)) throw new Error(`--scan ${p}: no such file or directory`);
  const st = fs.statSync(p);
  if (st.isDirectory()) {
    for (const e of fs.readdirSync(p).sort()) {
      if (e === "node_modules" || e === ".git") continue;
      scanPath(path.join(p, e));
    }
  } else if (st.isFile()) scanFile(p);
}

// ---------------------------------------------------------------------------------------------------------------
// The API pass

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<number | string | null>;
}

/** What the API pass writes into --out; removed first, so a rerun starts on a new database. */
const OWN_FILES = [
  "privnet.db",
  "privnet.db-wal",
  "privnet.db-shm",
  "privnet.db.key",
  "owner-token",
  "request.log",
  "server.stdout",
  "server.stderr",
  "responses.ndjson",
];

async function startServer(dir: string): Promise<{ server: Server; tokenFile: string }> {
  for (const f of OWN_FILES) fs.rmSync(path.join(dir, f), { force: true });
  const tokenFile = path.join(dir, "owner-token");
  const out = fs.openSync(path.join(dir, "server.stdout"), "w");
  const err = fs.openSync(path.join(dir, "server.stderr"), "w");
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "bin", "privnet-server"),
      ...["--db", path.join(dir, "privnet.db"), "--port", "0", "--bootstrap-token-file", tokenFile],
      ...["--request-log", path.join(dir, "request.log"), "--cloud", "--embedded-idp", "--simulate"],
    ],
    { stdio: ["ignore", out, err] },
  );
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = /listening on (http:\/\/\S+)/.exec(fs.readFileSync(path.join(dir, "server.stdout"), "utf8"));
    if (m?.[1] && fs.existsSync(tokenFile)) return { server: { child, url: m[1], exited }, tokenFile };
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`server did not start: ${fs.readFileSync(path.join(dir, "server.stderr"), "utf8")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function apiPass(url: string, token: string, out: string): Promise<{ read: number; missed: string[] }> {
  const responses = fs.createWriteStream(path.join(out, "responses.ndjson"));
  const call = async (method: string, p: string, body?: unknown, auth: string | null = token) => {
    const headers: Record<string, string> = {};
    if (auth) headers.Authorization = `Token ${auth}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${url}${p}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? (JSON.parse(text) as any) : undefined };
  };
  const must = async (method: string, p: string, body?: unknown, auth: string | null = token) => {
    const r = await call(method, p, body, auth);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
    return r.json;
  };
  const made = (label: string) => {
    const v = `pvsweep-${label}-${randomBytes(12).toString("hex")}`;
    addKnown(label, v);
    return v;
  };
  const made64 = (label: string) => {
    const v = Buffer.from(`pvsweep-${label}-${randomBytes(12).toString("hex")}`).toString("base64");
    addKnown(label, v);
    return v;
  };

  // Creates: values the server generates are returned once; the ones we choose are recognisable.
  const owner = await must("GET", "/api/users/current");
  const ownerPat = await must("POST", `/api/users/${owner.id}/tokens`, { name: "sweep", expires_in: 1 });
  addKnown("personal access token (owner)", ownerPat.plain_token);
  const svc = await must("POST", "/api/users", {
    name: "sweep-service",
    role: "admin",
    auto_groups: [],
    is_service_user: true,
  });
  const svcPat = await must("POST", `/api/users/${svc.id}/tokens`, { name: "sweep", expires_in: 1 });
  addKnown("personal access token (service user)", svcPat.plain_token);
  const key = await must("POST", "/api/setup-keys", {
    name: "sweep",
    type: "reusable",
    expires_in: 86400,
    auto_groups: [],
    usage_limit: 0,
  });
  addKnown("setup key", key.key);
  const peer = await must("POST", "/sim/enroll", { setup_key: key.key, hostname: "sweep-peer" }, null);
  const user = await must("POST", "/api/users", {
    email: "sweep-user@example.com",
    name: "Sweep User",
    role: "user",
    auto_groups: [],
    is_service_user: false,
  });
  if (typeof user.password === "string") addKnown("initial password", user.password);
  const invite = await must("POST", "/api/users/invites", {
    email: "sweep-invite@example.com",
    name: "Sweep Invite",
    role: "user",
    auto_groups: [],
  });
  addKnown("invite token", invite.invite_token);
  const regenerated = await must("POST", `/api/users/invites/${invite.id}/regenerate`, {});
  addKnown("invite token (regenerated)", regenerated.invite_token);
  const idp = await must("POST", "/api/identity-providers", {
    type: "oidc",
    name: "sweep",
    issuer: "https://sso.example.com",
    client_id: "sweep-client",
    client_secret: made("idp-client_secret"),
  });
  await must("POST", "/api/integrations/edr/vendor-a", {
    groups: [],
    last_synced_interval: 24,
    api_token: made("edr-a-api_token"),
    api_url: "https://edr-a.example.com",
    match_attributes: { firewall_enabled: true },
  });
  await must("POST", "/api/integrations/edr/vendor-b", {
    groups: [],
    last_synced_interval: 24,
    client_id: "b-client",
    tenant_id: "b-tenant",
    secret: made("edr-b-secret"),
  });
  await must("POST", "/api/integrations/edr/vendor-c", {
    groups: [],
    client_id: made("edr-c-client_id"),
    secret: made("edr-c-secret"),
    cloud_id: "c-cloud",
    zta_score_threshold: 50,
  });
  const dsyncD = await must("POST", "/api/integrations/vendor-d-idp", {
    service_account_key: made64("vendor-d-service_account_key"),
    customer_id: "C0sweep",
  });
  const dsyncE = await must("POST", "/api/integrations/vendor-e-idp", {
    client_secret: made64("vendor-e-client_secret"),
    client_id: "e-client",
    tenant_id: "e-tenant",
    host: "api.example.com",
  });
  await must("POST", `/api/integrations/vendor-d-idp/${dsyncD.id}/sync`);
  await must("POST", `/api/integrations/vendor-e-idp/${dsyncE.id}/sync`);
  const streams: string[] = [];
  for (const [platform, config] of [
    ["datadog", { api_key: made("datadog-api_key"), site: "datadoghq.eu" }],
    [
      "s3",
      {
        bucket_name: "audit",
        region: "eu-central-1",
        access_key_id: made("s3-access_key_id"),
        secret_access_key: made("s3-secret_access_key"),
      },
    ],
    [
      "firehose",
      {
        stream_name: "audit",
        region: "eu-central-1",
        access_key_id: made("firehose-access_key_id"),
        secret_access_key: made("firehose-secret_access_key"),
      },
    ],
    ["generic_http", { url: "https://hooks.example.com/in", auth_token: made("http-auth_token") }],
  ] as const) {
    streams.push((await must("POST", "/api/event-streaming", { platform, config, enabled: true })).id);
  }
  // An LLM provider's API key: on create, replaced by an update, and used by a simulated request.
  await must("POST", "/api/agent-network/settings", { proxy_address: "gw.sweep.example.com" });
  const llm = await must("POST", "/api/agent-network/providers", {
    provider_id: "openai_api",
    name: "sweep",
    upstream_url: "https://api.openai.com",
    api_key: made("agent-network-api_key"),
    enabled: true,
  });
  await must("PUT", `/api/agent-network/providers/${llm.id}`, {
    provider_id: "openai_api",
    name: "sweep",
    upstream_url: "https://api.openai.com",
    api_key: made("agent-network-api_key (replaced)"),
    enabled: true,
  });
  const everyone = (await must("GET", "/api/groups")).find((g: { name: string }) => g.name === "All");
  await must("POST", "/api/agent-network/policies", {
    name: "sweep",
    source_groups: [everyone.id],
    destination_provider_ids: [llm.id],
  });
  await must(
    "POST",
    "/sim/llm",
    { peer: peer.id, provider: llm.id, model: "gpt-4o-mini", input_tokens: 10, output_tokens: 5 },
    null,
  );
  // Use the new credentials once, so logs get a chance to record them.
  await must("GET", "/api/users/current", undefined, svcPat.plain_token);
  await call("GET", `/api/users/invites/${invite.invite_token}`, undefined, null);
  await call("GET", `/api/users/invites/${regenerated.invite_token}`, undefined, null);

  // Read back every GET operation of the API with the ids made above.
  const doc = JSON.parse(fs.readFileSync(path.join(ROOT, "docs", "openapi.json"), "utf8")) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const candidates = (p: string, param: string): string[] => {
    switch (param) {
      case "userId":
        return [owner.id, svc.id, user.id];
      case "tokenId":
        return [ownerPat.personal_access_token.id, svcPat.personal_access_token.id];
      case "token":
        return [regenerated.invite_token];
      case "keyId":
        return [String(key.id)];
      case "idpId":
        return [idp.id];
      case "peerId":
        return [peer.id];
      case "providerId":
        return [String(llm.id)];
      case "id":
        if (p.startsWith("/api/event-streaming")) return streams.map(String);
        if (p.startsWith("/api/integrations/vendor-d-idp")) return [String(dsyncD.id)];
        if (p.startsWith("/api/integrations/vendor-e-idp")) return [String(dsyncE.id)];
        return [];
      default:
        return [];
    }
  };
  let read = 0;
  const missed: string[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    if (!methods.get) continue;
    // Every combination of the candidate ids (a user's token only under that user answers 200).
    let fills: Record<string, string>[] = [{}];
    for (const param of [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string)) {
      const values = candidates(p, param);
      fills = fills.flatMap((f) => (values.length ? values : ["none"]).map((v) => ({ ...f, [param]: v })));
    }
    let ok = false;
    for (const fill of fills) {
      const filled = p.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(fill[name] ?? "none"));
      const auth = p === "/api/users/invites/{token}" ? null : token;
      const r = await call("GET", filled, undefined, auth);
      if (r.status === 200) ok = true;
      read++;
      stats.apiResponses++;
      // The log of answers names the operation, not the URL (the invite-info URL holds the token).
      responses.write(`${JSON.stringify({ operation: `GET ${p}`, status: r.status, body: r.text })}\n`);
      scanText(r.text, `GET ${p} (status ${r.status})`);
    }
    // An operation every parameter of which had a real id, yet nothing answered 200: worth a note.
    if (!ok && fills.every((f) => Object.values(f).every((v) => v !== "none"))) missed.push(p);
  }
  await new Promise<void>((resolve) => responses.end(resolve));
  return { read, missed };
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const out = opts.out || (opts.api ? fs.mkdtempSync(path.join(os.tmpdir(), "privnet-sweep-")) : "");
  if (out) fs.mkdirSync(out, { recursive: true });
  for (const f of opts.tokenFiles)
    addKnown(`owner token (${path.basename(f)})`, fs.readFileSync(f, "utf8").trim());
  for (const f of opts.secretsFiles) {
    for (const line of fs.readFileSync(f, "utf8").split("\n")) {
      const tab = line.indexOf("\t");
      if (tab > 0) addKnown(line.slice(0, tab), line.slice(tab + 1).trim());
    }
  }

  let api: { read: number; missed: string[] } | undefined;
  const ownFiles: string[] = [];
  if (opts.api) {
    if (opts.url) {
      api = await apiPass(opts.url, fs.readFileSync(opts.tokenFiles[0] as string, "utf8").trim(), out);
    } else {
      const { server, tokenFile } = await startServer(out);
      try {
        addKnown("owner token (sweep server)", fs.readFileSync(tokenFile, "utf8").trim());
        api = await apiPass(server.url, fs.readFileSync(tokenFile, "utf8").trim(), out);
        scanDatabase(path.join(out, "privnet.db"), "server running");
      } finally {
        server.child.kill("SIGTERM");
        await server.exited;
      }
      scanDatabase(path.join(out, "privnet.db"), "server stopped");
      ownFiles.push(...["request.log", "server.stdout", "server.stderr"].map((f) => path.join(out, f)));
    }
    ownFiles.push(path.join(out, "responses.ndjson"));
  }
  // responses.ndjson was scanned answer by answer already; scanning it again as text double-counts nothing
  // new, but it is what a reader of --out would look at, so it is scanned like any file.
  for (const p of [...ownFiles, ...opts.scan]) scanPath(p);
  for (const db of opts.dbs) scanDatabase(db, "given with --db");

  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const result = {
    knownSecrets: known.length,
    shapes: SHAPES.length,
    files: stats.files,
    binariesSkipped: stats.binaries,
    databaseFiles: stats.dbFiles,
    megabytes: Math.round((stats.bytes / 1048576) * 10) / 10,
    capturedResponses: stats.responses,
    apiReads: api?.read ?? 0,
    apiMissed: api?.missed ?? [],
    findings: findings.length,
    seconds,
    out,
  };
  if (opts.json) process.stdout.write(`${JSON.stringify({ ...result, details: findings.slice(0, 50) })}\n`);
  else {
    for (const f of findings.slice(0, 50))
      process.stdout.write(`sweep: FINDING ${f.what} in ${f.where}: ${f.context}\n`);
    if (findings.length > 50) process.stdout.write(`sweep: ... and ${findings.length - 50} more\n`);
    if (api?.missed.length) process.stdout.write(`sweep: note: no 200 from ${api.missed.join(", ")}\n`);
    process.stdout.write(
      `sweep result: ${findings.length ? "FAIL" : "PASS"} findings=${findings.length} ` +
        `known_secrets=${known.length} shapes=${SHAPES.length} files=${stats.files} (${result.megabytes} MB, ` +
        `${stats.binaries} binaries skipped) db_files=${stats.dbFiles} ` +
        `captured_responses=${stats.responses} api_reads=${result.apiReads} time=${seconds}s out=${out}\n`,
    );
  }
  return findings.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`sweep: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
