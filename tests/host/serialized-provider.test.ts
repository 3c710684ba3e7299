/**
 * The `__provider` text the SDK really produces for every resource kind, with the package installed the way a
 * user installs it (a copy under the project's node_modules): one `require("pulumi-privnet/...")`, small, with
 * none of our code copied in and no credential, although the capturing process has a token in its environment,
 * in its stack config, and in every provider object (configured before the resources are constructed).
 */
import { PROVIDERS } from "../../provider/registry";
import {
  captureProviderTexts,
  requiredModules,
  type CaptureMarkers,
  type CaptureResult,
} from "../support/host";
import { installPackageCopy, type PackageCopy } from "../support/package-copy";

jest.setTimeout(120_000);

const kinds = PROVIDERS.map((p) => p.spec.name);
const nonce = `${process.pid}${Date.now().toString(36)}`;
const markers: CaptureMarkers = {
  envToken: `nbp_ENVTOKEN${nonce}`,
  envApiUrl: `http://env-api-${nonce}.invalid:9`,
  configToken: `nbp_CONFIGTOKEN${nonce}`,
  configApiUrl: `http://config-api-${nonce}.invalid:9`,
};
/** Names of our own code that must never be copied into a provider text. */
const OUR_CODE = [
  "checkInputs",
  "toApi",
  "fromApi",
  "diffInputs",
  "buildOutputs",
  "PrivnetProvider",
  "resolveCredentials",
  "PrivnetClient",
  "ZodObject",
  "spec",
];

let copy: PackageCopy;
let captured: CaptureResult;

beforeAll(async () => {
  copy = installPackageCopy({ projectName: "privnet-serialize" });
  captured = await captureProviderTexts(copy, kinds, markers);
  console.log(
    `build ${copy.buildMs} ms, package copy ${copy.durationMs} ms, capture of ${kinds.length} kinds ${captured.durationMs} ms\n` +
      `__provider of Route (${captured.providers.Route?.text.length} bytes):\n${captured.providers.Route?.text}`,
  );
}, 120_000);
afterAll(() => copy?.cleanup());

test("the capturing process really had the credentials", () => {
  expect(captured.configToken).toBe(markers.configToken);
  expect(captured.configuredProviders).toBe(kinds.length);
  expect(captured.missing).toEqual([]);
  expect(Object.keys(captured.providers).sort()).toEqual([...kinds].sort());
});

describe.each(kinds)("%s", (kind) => {
  test("__provider is one require of pulumi-privnet/provider, small, with no code of ours and no credential", () => {
    const p = captured.providers[kind]!;
    expect(p.type).toBe(`pulumi-nodejs:dynamic/privnet:${kind}`);
    expect(p.kindInput).toBe(kind);
    expect(typeof p.text).toBe("string");
    expect(p.secret).toBe(false);
    expect(p.text.length).toBeLessThan(1024);

    const requires = requiredModules(p.text);
    expect(requires).toHaveLength(1);
    expect(p.text.split("require(").length - 1).toBe(1);
    // The package's public entry (its exports map), not an internal file: moving files cannot break a state.
    expect(requires[0]).toBe("pulumi-privnet/provider");

    for (const name of OUR_CODE) expect(p.text).not.toContain(name);
    for (const secret of Object.values(markers)) expect(p.text).not.toContain(secret);
    expect(p.text).not.toMatch(/nbp_|Token |Bearer |https?:\/\//);
  });
});

test("the classes name the module the SDK's own serializer names for the provider entry, in fewer bytes", () => {
  // The classes register their provider's serialized form themselves (sdk/serialized-provider.ts); the SDK's
  // serializer, run on the same configured entry, wraps the same single require.
  const sdkText = captured.sdkText ?? "";
  expect(requiredModules(sdkText)).toEqual(["pulumi-privnet/provider"]);
  const text = captured.providers.Group!.text;
  expect(requiredModules(text)).toEqual(requiredModules(sdkText));
  expect(text.length).toBeLessThan(sdkText.length);
  for (const secret of Object.values(markers)) expect(sdkText).not.toContain(secret);
});

test("every kind has the same text: the kind travels in the resource's properties (__kind)", () => {
  expect(new Set(Object.values(captured.providers).map((p) => p.text)).size).toBe(1);
});

/**
 * The layout where the SDK's serializer fails: pulumi-privnet symlinked to the repo (npm workspaces,
 * `npm install <dir>`). Its real path has no node_modules segment, so the serializer treats it as local code and
 * tries to copy the provider in by value. With SDK 3.259 that throws outright (zod's exports map: "package.json
 * export path for zod/v4/classic/schemas.cjs not found"); an SDK that got further would produce a text the checks
 * above reject. The classes do not ask the serializer (sdk/serialized-provider.ts): they still register the one
 * require.
 */
test("with the package SYMLINKED to the repo, the SDK's serializer fails; the classes still register one require", async () => {
  const linked = installPackageCopy({ projectName: "privnet-serialize-linked", mode: "symlink" });
  try {
    const r = await captureProviderTexts(linked, ["Route"], markers);
    expect(requiredModules(r.providers.Route!.text)).toEqual(["pulumi-privnet/provider"]);
    const sdkRequires = r.sdkText === undefined ? [] : requiredModules(r.sdkText);
    const sdkLooksRight = sdkRequires.length === 1 && sdkRequires[0] === "pulumi-privnet/provider";
    expect(sdkLooksRight).toBe(false);
    if (r.sdkError !== undefined) expect(r.sdkError).toMatch(/serializ|export path|not found/i);
  } finally {
    linked.cleanup();
  }
}, 120_000);
