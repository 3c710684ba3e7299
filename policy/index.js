"use strict";
// The access guard's entry: Pulumi runs this directory as a Node policy pack (PulumiPolicy.yaml). The code is
// compiled with the rest of the package (policy/pack.ts -> dist/policy/pack.js).
//
// The engine waits for the pack to start before it runs the program, so its start-up is on every preview's path:
// - Node's compile cache (compiled code kept on disk between starts, Node's default directory) for what loads from
//   here on; NODE_COMPILE_CACHE from the caller wins.
// - @pulumi/policy loads @pulumi/pulumi's index, whose closure serializer loads npm's @npmcli/arborist (with pacote
//   and sigstore) at once, for a class only function serialization uses, which a policy pack never does. It is
//   loaded when first used instead: measured CPU from spawn to the pack's port (3 runs each, loaded 2-core
//   machine) 760-830 ms -> 610-650 ms.
const nodeModule = require("node:module");
const path = require("node:path");

if (typeof nodeModule.enableCompileCache === "function" && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    nodeModule.enableCompileCache();
  } catch {
    // No cache directory: start without one.
  }
}

try {
  const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const arborist = require.resolve("@npmcli/arborist", { paths: [sdk] });
  if (!require.cache[arborist]) {
    const load = () => {
      delete require.cache[arborist];
      return require(arborist);
    };
    require.cache[arborist] = {
      id: arborist,
      filename: arborist,
      loaded: true,
      children: [],
      paths: [],
      exports: {
        Arborist: class Arborist {
          constructor(...args) {
            return new (load().Arborist)(...args);
          }
        },
      },
    };
  }
} catch {
  // Another layout of @pulumi/pulumi: load it as it comes.
}

require("../dist/policy/pack.js");
