/**
 * Test tiers (see README): unit, server, provider, host (real dynamic-provider host), e2e (real Pulumi CLI),
 * acceptance (the provider and the CLI against a live server: PRIVNET_ACCEPTANCE_URL, or a privnet-server it
 * starts).
 * @type {import('jest').Config}
 */
const tier = (name, extra = {}) => ({
  displayName: name,
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  testMatch: [`<rootDir>/tests/${name}/**/*.test.ts`],
  moduleFileExtensions: ["ts", "js", "json"],
  // The generated Python and Go SDKs hold no tests or modules of ours.
  modulePathIgnorePatterns: [
    "<rootDir>/sdk/python/",
    "<rootDir>/sdk/go/",
    "<rootDir>/sdk/java/",
    "<rootDir>/sdk/dotnet/",
  ],
  ...extra,
});

module.exports = {
  globalSetup: "<rootDir>/tests/global-setup.js",
  projects: [
    tier("unit"),
    tier("server"),
    tier("provider"),
    tier("host"),
    tier("plugin"),
    tier("e2e"),
    tier("acceptance", {
      globalSetup: "<rootDir>/tests/acceptance/global-setup.ts",
      globalTeardown: "<rootDir>/tests/acceptance/global-teardown.ts",
    }),
  ],
};
