/**
 * Figures of one fuzz run: `node bench/fuzz/report.mts --request-log F --skip N --ndjson F [--min-requests 5000]`
 *
 * Counts, from the server's own request log (every request it answered, minus the first --skip lines, which the
 * seeding made), the requests sent and the 5xx answers; from schemathesis's NDJSON report, the test cases, the
 * failed checks by name (response_schema_conformance failures are the schema violations) and schemathesis's own
 * errors. Prints the figures and a JSON summary line; exits 1 when there is a 5xx, a failed check, an error, or
 * fewer requests than --min-requests. Node 24 type stripping; node: modules only.
 */
import * as fs from "node:fs";

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : fallback;
  if (v === undefined) throw new Error(`missing ${name}`);
  return v;
}

const requestLog = arg("--request-log");
const skip = Number(arg("--skip", "0"));
const ndjson = arg("--ndjson");
const minRequests = Number(arg("--min-requests", "5000"));

const entries = fs
  .readFileSync(requestLog, "utf8")
  .split("\n")
  .filter(Boolean)
  .slice(skip)
  .map((l) => JSON.parse(l) as { method: string; route: string; status: number });
const requests = entries.length;
const server5xx = entries.filter((e) => e.status >= 500);
const byStatus = new Map<number, number>();
for (const e of entries) byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
const operations2xx = new Set(entries.filter((e) => e.status < 300).map((e) => `${e.method} ${e.route}`));

/** The parts of schemathesis's NDJSON events read here. */
interface NdjsonEvent {
  ScenarioFinished?: {
    recorder?: {
      label?: string;
      cases?: Record<string, unknown>;
      interactions?: Record<string, unknown>;
      checks?: Record<string, { name: string; status: string }[]>;
    };
  };
  NonFatalError?: { label?: string; phase?: string; value?: { type?: string; message?: string } };
  FatalError?: unknown;
}

let cases = 0;
let interactions = 0;
const failedChecks = new Map<string, Set<string>>();
const errors: string[] = [];
for (const line of fs.readFileSync(ndjson, "utf8").split("\n")) {
  if (!line) continue;
  const event = JSON.parse(line) as NdjsonEvent;
  const finished = event.ScenarioFinished;
  if (finished) {
    const recorder = finished.recorder ?? {};
    cases += Object.keys(recorder.cases ?? {}).length;
    interactions += Object.keys(recorder.interactions ?? {}).length;
    for (const checks of Object.values(recorder.checks ?? {})) {
      for (const c of checks) {
        if (c.status === "success") continue;
        const set = failedChecks.get(c.name) ?? new Set<string>();
        set.add(String(recorder.label));
        failedChecks.set(c.name, set);
      }
    }
  }
  const nonFatal = event.NonFatalError;
  if (nonFatal)
    errors.push(
      `${String(nonFatal.label)} (${String(nonFatal.phase)}): ${String(nonFatal.value?.type)} ${String(nonFatal.value?.message).slice(0, 120)}`,
    );
  if (event.FatalError) errors.push(`fatal: ${JSON.stringify(event.FatalError).slice(0, 300)}`);
}

const schemaViolations = failedChecks.get("response_schema_conformance")?.size ?? 0;
const failures: string[] = [];
if (requests < minRequests) failures.push(`only ${requests} requests (want at least ${minRequests})`);
if (server5xx.length)
  failures.push(
    `${server5xx.length} answers were 5xx: ${[...new Set(server5xx.map((e) => `${e.method} ${e.route}`))].join(", ")}`,
  );
for (const [name, labels] of failedChecks) failures.push(`check ${name} failed on ${[...labels].join(", ")}`);
for (const e of errors) failures.push(`schemathesis error: ${e}`);

const statuses = [...byStatus]
  .sort((a, b) => a[0] - b[0])
  .map(([s, n]) => `${s}:${n}`)
  .join(" ");
process.stdout.write(
  `fuzz: requests=${requests} (server request log, seeding excluded) cases=${cases} interactions=${interactions}\n` +
    `fuzz: statuses ${statuses}\n` +
    `fuzz: operations answered 2xx at least once: ${operations2xx.size}\n`,
);
for (const f of failures) process.stdout.write(`fuzz: FAIL ${f}\n`);
const summary = {
  requests,
  cases,
  r5xx: server5xx.length,
  schemaViolations,
  failedChecks: Object.fromEntries([...failedChecks].map(([k, v]) => [k, v.size])),
  schemathesisErrors: errors.length,
  operations2xx: operations2xx.size,
  pass: failures.length === 0,
};
process.stdout.write(
  `fuzz result: ${summary.pass ? "PASS" : "FAIL"} requests=${requests} 5xx=${summary.r5xx} ` +
    `schema_violations=${schemaViolations} other_failed_checks=${[...failedChecks.keys()].filter((k) => k !== "response_schema_conformance").length} ` +
    `schemathesis_errors=${errors.length}\n`,
);
process.stdout.write(`${JSON.stringify(summary)}\n`);
process.exit(summary.pass ? 0 : 1);
