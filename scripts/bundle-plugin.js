#!/usr/bin/env node
/**
 * Bundles the resource plugin into one file, dist/plugin/bundle.js, after `tsc` (part of `npm run build`).
 *
 * Why: the engine waits for the plugin at every command (spawn to port, then the first call loads the provider),
 * and CPU the plugin spends competes with the engine on small machines. Loaded from ~360 separate modules
 * (gRPC, protobuf stubs, zod, undici, the provider), start-up cost about 400 ms of CPU; from one file, module
 * resolution and file reads go (bench/README.md, "plugin start-up"). The code is the same compiled code: modules
 * the plugin loads lazily (the provider, the lookups, the HTTP client) stay lazy inside the bundle.
 *
 * Third-party licence comments are kept at the end of the file. Usage: node scripts/bundle-plugin.js
 */
"use strict";
const path = require("node:path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const pluginDir = path.join(root, "dist", "plugin");

const result = esbuild.buildSync({
  stdin: {
    contents: 'require("./main.js").start();\n',
    resolveDir: pluginDir,
    sourcefile: "bundle-entry.js",
    loader: "js",
  },
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  outfile: path.join(pluginDir, "bundle.js"),
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: "eof",
  logLevel: "warning",
  metafile: true,
});
const inputs = Object.keys(result.metafile.inputs).length;
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
process.stdout.write(
  `bundle-plugin: dist/plugin/bundle.js from ${inputs} modules, ${(bytes / 1e6).toFixed(1)} MB\n`,
);
