/**
 * Preloaded into privnet-server by the memory benchmark (`node --require .../heap-report.js bin/privnet-server`,
 * BENCH_HEAP_REPORT=<file>): on SIGUSR2 it appends one JSON line with process.memoryUsage() and V8's heap space
 * sizes, so the benchmark can say where resident memory goes without changing the server.
 */
"use strict";
const fs = require("node:fs");
const v8 = require("node:v8");

const file = process.env.BENCH_HEAP_REPORT;
if (file) {
  process.on("SIGUSR2", () => {
    const mb = (v) => Math.round((v / 1048576) * 10) / 10;
    const u = process.memoryUsage();
    const spaces = {};
    for (const s of v8.getHeapSpaceStatistics()) {
      if (s.space_size > 0)
        spaces[s.space_name] = { sizeMb: mb(s.space_size), usedMb: mb(s.space_used_size) };
    }
    const line = {
      rssMb: mb(u.rss),
      heapTotalMb: mb(u.heapTotal),
      heapUsedMb: mb(u.heapUsed),
      externalMb: mb(u.external),
      spaces,
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
}
