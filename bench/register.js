/**
 * A require hook that runs the bench's TypeScript from the source tree (`node -r ./bench/register.js x.ts`), so
 * that the test helpers it reuses (tests/support, tests/e2e) see the repository layout they expect (`__dirname`
 * is the source directory). Each file is transpiled on load with the repo's TypeScript (no type check: `npm run
 * typecheck` covers bench/), in the repo's tsconfig module settings (CommonJS).
 */
"use strict";
const fs = require("node:fs");
const ts = require("typescript");

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  sourceMap: false,
  inlineSourceMap: true,
  inlineSources: false,
  isolatedModules: true,
};

function compile(module, filename) {
  const source = fs.readFileSync(filename, "utf8");
  const out = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(out.outputText, filename);
}

require.extensions[".ts"] = compile;
