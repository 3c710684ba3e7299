/**
 * The sdk's classes have the shape Pulumi users know from bridged providers: every kind has `get` and
 * `isInstance` (which also recognises an instance made by another copy of the package, by its type token).
 * What a resource registers is checked under mocks in tests/unit/quiet-stacks.test.ts, with the package installed as
 * a copy in tests/host/serialized-provider.test.ts (each resource's `__kind` and `__provider`);
 * tests/e2e/two-accounts.test.ts uses `get`, `Provider` and `getXOutput` with the real CLI.
 */
import { PROVIDERS } from "../../provider/registry";
import * as privnet from "../../sdk";

type Cls = { get?: unknown; isInstance?: (o: unknown) => boolean; __pulumiType?: string };
const classes = privnet as unknown as Record<string, Cls>;

test.each(PROVIDERS.map((p) => p.spec.name))("%s has get, isInstance and its type token", (kind) => {
  const cls = classes[kind]!;
  expect(typeof cls.get).toBe("function");
  expect(cls.__pulumiType).toBe(`pulumi-nodejs:dynamic/privnet:${kind}`);
  expect(cls.isInstance!({ __pulumiType: `pulumi-nodejs:dynamic/privnet:${kind}` })).toBe(true);
  expect(cls.isInstance!({ __pulumiType: "pulumi-nodejs:dynamic/privnet:Other" })).toBe(false);
  expect(cls.isInstance!(null)).toBe(false);
});

test("Provider.isInstance is false for anything but a privnet.Provider", () => {
  expect(privnet.Provider.isInstance({})).toBe(false);
  expect(privnet.Provider.isInstance({ __pulumiType: "pulumi:providers:pulumi-nodejs" })).toBe(false);
});
