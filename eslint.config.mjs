import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      "coverage/",
      "examples/*/node_modules/",
      "bench/results/",
      "tools/",
      // The Python and Go SDKs, generated from plugin/schema.json (scripts/gen-sdks.sh).
      "sdk/python/",
      "sdk/go/",
      "sdk/java/",
      "sdk/dotnet/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: { project: "./tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Provider modules are `export =` objects (so a serialized provider is one require of the package), which
    // TypeScript imports with `import x = require(...)`. The plugin loads the provider lazily with `require`, and
    // the policy pack its own modules (it must listen before it loads them).
    files: [
      "policy/**/*.ts",
      "provider/**/*.ts",
      "sdk/**/*.ts",
      "plugin/**/*.ts",
      "tests/**/*.ts",
      "scripts/**/*.ts",
      "bench/**/*.ts",
    ],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read response bodies loosely; their shapes are checked against the api/ schemas instead.
    files: ["tests/**/*.ts", "bench/**/*.ts", "bench/**/*.mts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The examples (and the e2e tests' TypeScript programs) are separate Pulumi projects (own package.json and
    // tsconfig.json, compiled against the installed package when they run): linted here without type information.
    files: [
      "examples/**/*.ts",
      "tests/e2e/programs/*/index.ts",
      "tests/fixtures/*/programs/*/index.ts",
      "tests/acceptance/programs/*/index.ts",
    ],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
