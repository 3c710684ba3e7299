/**
 * The secrets sweep (bench/secrets/sweep.mts) finds what it is there to find: a known secret in a log line, the
 * shape of a personal access token, a secret in a base64-encoded captured response. And it stays quiet about a
 * value the fuzzer itself sent and the server echoed back. A sweep that cannot fail proves nothing.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { newPersonalAccessToken } from "../../server/ids";
import { repoRoot } from "../support/package-copy";
import { tempDir } from "../support/server";

function sweep(args: string[]): Promise<{ code: number; result: any }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, "bench", "secrets", "sweep.mts"), "--no-api", "--json", ...args],
      { timeout: 30_000 },
      (err, stdout) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code, result: JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") });
      },
    );
  });
}

const b64 = (v: unknown) => ({ $base64: Buffer.from(JSON.stringify(v)).toString("base64") });

/** One schemathesis NDJSON report with one captured response per entry of `responses`. */
function ndjson(responses: { uri: string; sent?: unknown; answer: unknown }[]): string {
  const interactions = Object.fromEntries(
    responses.map((r, i) => [
      `c${i}`,
      {
        request: { method: "POST", uri: r.uri, headers: {}, ...(r.sent ? { body: b64(r.sent) } : {}) },
        response: { status_code: 200, headers: {}, content: b64(r.answer) },
      },
    ]),
  );
  return [
    JSON.stringify({ Initialize: { schemathesis_version: "4.32.5" } }),
    JSON.stringify({ ScenarioFinished: { recorder: { label: "x", interactions } } }),
    "",
  ].join("\n");
}

test("finds known secrets, secret shapes and leaks in captured responses; ignores echoes", async () => {
  const dir = tempDir("privnet-sweep-test-");
  const secret = "pvs-idp-0123456789abcdef01234567";
  fs.writeFileSync(path.join(dir, "secrets.tsv"), `idp client_secret\t${secret}\n`);
  const scan = path.join(dir, "scan");
  fs.mkdirSync(scan);
  fs.writeFileSync(path.join(scan, "request.log"), `{"path":"/api/x","note":"${secret}"}\n`);
  fs.writeFileSync(path.join(scan, "server.stderr"), `token ${newPersonalAccessToken()}\n`);
  const setupKey = "6B7782D5-3C57-4A5B-8F2A-CF44741BE54A";
  fs.writeFileSync(
    path.join(scan, "report.ndjson"),
    ndjson([
      { uri: "http://h/api/identity-providers", answer: [{ client_secret: secret }] },
      // The fuzzer named a group after a key it saw: the answer echoes the request, no leak.
      { uri: "http://h/api/groups", sent: { name: setupKey }, answer: { name: setupKey } },
      // A setup key shown once in its create answer is by design.
      { uri: "http://h/api/setup-keys", answer: { key: setupKey } },
    ]),
  );
  const found = await sweep(["--secrets-file", path.join(dir, "secrets.tsv"), "--scan", scan]);
  expect(found.code).toBe(1);
  const where = (found.result.details as { what: string; where: string }[]).map(
    (d) => `${d.what.split(" (")[0]} @ ${path.basename(d.where.split(":")[0] ?? "")}`,
  );
  expect(where.sort()).toEqual([
    "idp client_secret @ report.ndjson",
    "idp client_secret @ request.log",
    "something shaped like a personal access token @ server.stderr",
  ]);
  expect(found.result.capturedResponses).toBe(3);
  // Nothing the report prints holds a secret in full.
  expect(JSON.stringify(found.result)).not.toContain(secret);

  fs.writeFileSync(path.join(scan, "request.log"), `{"path":"/api/x"}\n`);
  fs.writeFileSync(path.join(scan, "server.stderr"), "");
  fs.writeFileSync(path.join(scan, "report.ndjson"), ndjson([{ uri: "http://h/api/groups", answer: [] }]));
  const clean = await sweep(["--secrets-file", path.join(dir, "secrets.tsv"), "--scan", scan]);
  expect([clean.code, clean.result.findings]).toEqual([0, 0]);
});

test("--db reads a database and its -wal as bytes for known secrets and wants them owner-only", async () => {
  const dir = tempDir("privnet-sweep-db-");
  const secret = "pvs-edr-0123456789abcdef01234567";
  fs.writeFileSync(path.join(dir, "secrets.tsv"), `edr api_token\t${secret}\n`);
  const db = path.join(dir, "privnet.db");
  // A NUL byte first, as in any SQLite page: the --scan pass would skip it as a binary.
  fs.writeFileSync(db, Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(`{"api_token":"${secret}"}`)]), {
    mode: 0o600,
  });
  fs.writeFileSync(`${db}-wal`, Buffer.from([0, 0]), { mode: 0o644 });
  fs.chmodSync(`${db}-wal`, 0o644);
  const found = await sweep(["--secrets-file", path.join(dir, "secrets.tsv"), "--db", db]);
  expect(found.code).toBe(1);
  expect((found.result.details as { what: string }[]).map((d) => d.what.split(" (")[0]).sort()).toEqual([
    "a database file readable by others",
    "edr api_token",
  ]);
  expect(found.result.databaseFiles).toBe(2);

  fs.writeFileSync(db, Buffer.from([0, 1, 2, 3]));
  fs.chmodSync(`${db}-wal`, 0o600);
  const clean = await sweep(["--secrets-file", path.join(dir, "secrets.tsv"), "--db", db]);
  expect([clean.code, clean.result.findings]).toEqual([0, 0]);
});
