/**
 * Prints what the acceptance tier found, kind by kind, and stops the privnet-server the setup started. The
 * summary is also written next to the probe (summary.txt) and, with PRIVNET_ACCEPTANCE_REPORT=FILE, to FILE.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROVIDERS } from "../../provider/registry";
import type { Probe } from "./probe";
import type { KindResult } from "./target";

function summary(probe: Probe, results: KindResult[]): string {
  const lines = [
    `acceptance summary — target: ${probe.label}`,
    `kinds served: ${probe.served.length} of ${PROVIDERS.length}; enrolled peers found: ${probe.peers.length}`,
    "",
  ];
  const width = Math.max(...PROVIDERS.map((p) => p.spec.name.length));
  const cell = (r: KindResult) => `${r.check} ${r.status}${r.detail ? ` (${r.detail})` : ""}`;
  for (const { spec } of PROVIDERS) {
    const mine = results.filter((x) => x.kind === spec.name);
    lines.push(`  ${spec.name.padEnd(width)}  ${mine.length ? mine.map(cell).join("; ") : "no check ran"}`);
  }
  const other = results.filter((r) => !PROVIDERS.some((p) => p.spec.name === r.kind));
  for (const r of other)
    lines.push(`  ${r.kind}: ${r.check}: ${r.status}${r.detail ? ` (${r.detail})` : ""}`);
  if (probe.notServed.length) {
    lines.push("", "not served:");
    for (const n of probe.notServed) lines.push(`  ${n.kind}: ${n.evidence}`);
  }
  return lines.join("\n");
}

export default async function globalTeardown(): Promise<void> {
  const server = globalThis.__privnetAcceptanceServer;
  const probeFile = process.env.PRIVNET_ACCEPTANCE_PROBE;
  const resultsFile = process.env.PRIVNET_ACCEPTANCE_RESULTS;
  try {
    if (probeFile && fs.existsSync(probeFile)) {
      const probe = JSON.parse(fs.readFileSync(probeFile, "utf8")) as Probe;
      const results =
        resultsFile && fs.existsSync(resultsFile)
          ? fs
              .readFileSync(resultsFile, "utf8")
              .split("\n")
              .filter(Boolean)
              .map((l) => JSON.parse(l) as KindResult)
          : [];
      const text = summary(probe, results);
      process.stdout.write(`\n${text}\n`);
      fs.writeFileSync(path.join(path.dirname(probeFile), "summary.txt"), `${text}\n`);
      if (process.env.PRIVNET_ACCEPTANCE_REPORT)
        fs.writeFileSync(process.env.PRIVNET_ACCEPTANCE_REPORT, `${text}\n`);
    }
  } finally {
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((resolve) => server.once("exit", resolve));
    }
  }
}
