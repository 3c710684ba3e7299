/**
 * Where the provider's credentials come from: explicit provider arguments or stack config (both reach the
 * provider as its config), then the environment, then the default URL. A stray variable never overrides config.
 */
import { DEFAULT_API_URL, resolveCredentials, type ConfigGetter } from "../../model/credentials";

const env = { PRIVNET_API_URL: "http://env:1/", PRIVNET_TOKEN: "env-token", PRIVNET_RATE_LIMIT: "60:5" };
const config =
  (values: Record<string, string>): ConfigGetter =>
  (key) =>
    values[key];

test("config (a provider's arguments, or stack config) wins over the environment", () => {
  expect(
    resolveCredentials(config({ apiUrl: "http://cfg:2", token: "cfg-token", rateLimit: "off" }), env),
  ).toEqual({
    apiUrl: "http://cfg:2",
    token: "cfg-token",
    rateLimit: false,
  });
});

test("the environment fills what config leaves out, member by member", () => {
  expect(resolveCredentials(config({ apiUrl: "http://cfg:2" }), env)).toEqual({
    apiUrl: "http://cfg:2",
    token: "env-token",
    rateLimit: { perMinute: 60, burst: 5 },
  });
  expect(resolveCredentials(config({}), env).apiUrl).toBe("http://env:1");
});

test("with neither, the default URL of a local privnet-server and no token", () => {
  expect(resolveCredentials(config({}), {})).toEqual({
    apiUrl: DEFAULT_API_URL,
    token: undefined,
    rateLimit: undefined,
  });
});

test("a bad rate limit names the setting", () => {
  expect(() => resolveCredentials(config({ rateLimit: "fast" }), {})).toThrow(
    /rateLimit must be PER_MIN:BURST or off/,
  );
});

test("PRIVNET_TWIN_API_URL (privnet-access diff's offline twin) wins over a provider's arguments and stack config", () => {
  expect(
    resolveCredentials(config({ apiUrl: "http://cfg:2", token: "cfg-token", rateLimit: "60:5" }), {
      ...env,
      PRIVNET_TWIN_API_URL: "http://127.0.0.1:4000/",
      PRIVNET_TWIN_TOKEN: "twin-token",
    }),
  ).toEqual({ apiUrl: "http://127.0.0.1:4000", token: "twin-token", rateLimit: false });
});
