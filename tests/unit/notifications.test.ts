/**
 * The activity codes a notification channel can subscribe to cover every code privnet-server records: each dotted
 * code written in server/ (an audit call's code, or the prefix of an `auditWrite`, which records `<prefix>.update`
 * and `<prefix>.create` or `.add`) is in NOTIFICATION_EVENT_TYPES, so a channel can subscribe to whatever the
 * server's audit log shows.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { NOTIFICATION_EVENT_TYPES } from "../../api/notifications";

const root = path.resolve(__dirname, "..", "..");

/** Dotted lower-case literals in server/ that are not activity codes, with why. */
const NOT_CODES = new Set([
  "privnet.local", // the account's default DNS domain
  "settings.extra.network_traffic_logs_groups", // field paths in messages
  "settings.peer_expose_groups",
  "auth.bearer_auth.distribution_groups",
]);

function serverFiles(dir = path.join(root, "server")): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? serverFiles(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

describe("notification event types", () => {
  const codes = new Set(Object.keys(NOTIFICATION_EVENT_TYPES));

  test("every activity code written in server/ is one a channel can subscribe to", () => {
    const missing: string[] = [];
    let found = 0;
    for (const file of serverFiles()) {
      const text = fs.readFileSync(file, "utf8");
      const rel = path.relative(root, file);
      // auditWrite(tx, ctx, existing, "<prefix>", ..., "add"?): the codes it records.
      for (const m of text.matchAll(/auditWrite\(\s*tx,\s*ctx,\s*\w+,\s*"([a-z_.]+)"([^;]*?)\);/gs)) {
        const verb = /"add",?\s*$/.test((m[2] ?? "").trim()) ? "add" : "create";
        for (const code of [`${m[1]}.${verb}`, `${m[1]}.update`]) {
          found++;
          if (!codes.has(code)) missing.push(`${rel}: ${code} (auditWrite)`);
        }
      }
      for (const m of text.matchAll(/"([a-z]+(?:\.[a-z_]+)+)"/g)) {
        const literal = m[1] as string;
        if (NOT_CODES.has(literal)) continue;
        // An auditWrite prefix stands for its codes (checked above).
        if (codes.has(`${literal}.update`)) continue;
        found++;
        if (!codes.has(literal)) missing.push(`${rel}: ${literal}`);
      }
    }
    expect(missing).toEqual([]);
    // Not vacuous: the server records many codes.
    expect(found).toBeGreaterThan(60);
  });

  test("every code is dotted lower case and has a description", () => {
    for (const [code, description] of Object.entries(NOTIFICATION_EVENT_TYPES)) {
      // The service writes some first segments with an underscore too (`agent_network.policy.create`).
      expect(code).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      expect(description.length).toBeGreaterThan(5);
    }
  });
});
