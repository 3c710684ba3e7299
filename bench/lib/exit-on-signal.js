/**
 * Preloaded (`NODE_OPTIONS=--require .../exit-on-signal.js --cpu-prof`) only by profiling runs: the engine stops
 * the dynamic-provider host with SIGINT, which by default ends Node without writing its --cpu-prof profile. In
 * the host process only, a signal becomes a normal exit, so the profile is written.
 */
"use strict";
if (/dynamic-provider/.test(process.argv[1] || "")) {
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
}
