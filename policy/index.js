"use strict";
// The access guard's entry: Pulumi runs this directory as a Node policy pack (PulumiPolicy.yaml). The code is
// compiled with the rest of the package (policy/pack.ts -> dist/policy/pack.js).
//
// Node's compile cache (compiled code kept on disk between starts, Node's default directory) shortens what the
// engine waits for before it runs the program: the pack starts first. NODE_COMPILE_CACHE from the caller wins.
const nodeModule = require("node:module");
if (typeof nodeModule.enableCompileCache === "function" && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    nodeModule.enableCompileCache();
  } catch {
    // No cache directory: start without one.
  }
}
require("../dist/policy/pack.js");
