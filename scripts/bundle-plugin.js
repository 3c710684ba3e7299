#!/usr/bin/env node
/**
 * Bundles the resource plugin into one file, dist/plugin/bundle.js, after `tsc` (part of `npm run build`), and
 * writes the process's entry, dist/plugin/start.js, which turns on Node's compile cache before loading it.
 *
 * Why: the engine waits for the plugin at every command (spawn to port, then the first call loads the provider),
 * and CPU the plugin spends competes with the engine on small machines. Loaded from ~360 separate modules
 * (gRPC, protobuf stubs, zod, undici, the provider), start-up cost about 400 ms of CPU; from one file, module
 * resolution and file reads go (bench/README.md, "plugin start-up"). The code is the same compiled code: modules
 * the plugin loads lazily (the provider, the lookups, the HTTP client) stay lazy inside the bundle.
 *
 * The gRPC server (@grpc/grpc-js) and the SDK's generated service definition and messages are bundled like the
 * rest, one copy of each (package.json pins the gRPC library to the version the SDK resolves).
 * dist/plugin/bundle-inputs.json lists the files the bundle holds (tests check it).
 *
 * Third-party licence comments are kept at the end of the file. Usage: node scripts/bundle-plugin.js
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const pluginDir = path.join(root, "dist", "plugin");

async function bundle() {
  const result = await esbuild.build({
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
  // The process's entry (bin/pulumi-resource-privnet runs it): Node's compile cache on, then the bundle, which the
  // cache then keeps compiled between starts. Node turns the cache on this way without the launcher running
  // commands (id, mkdir, ls) to choose its directory at every start (provider/compile-cache.ts chooses it).
  await esbuild.build({
    stdin: {
      contents: 'require("../provider/compile-cache.js").enableCompileCache();\nrequire("./bundle.js");\n',
      resolveDir: pluginDir,
      sourcefile: "start-entry.js",
      loader: "js",
    },
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    outfile: path.join(pluginDir, "start.js"),
    external: ["./bundle.js"],
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs).sort();
  fs.writeFileSync(path.join(pluginDir, "bundle-inputs.json"), `${JSON.stringify(inputs, null, 1)}\n`);
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  process.stdout.write(
    `bundle-plugin: dist/plugin/bundle.js from ${inputs.length} modules, ${(bytes / 1e6).toFixed(1)} MB\n`,
  );
}

bundle().catch((err) => {
  process.stderr.write(`bundle-plugin: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
