/**
 * Every resource kind through the provider lifecycle against a local server: create, read equals, diff with
 * shuffled id lists shows nothing, update in place, replace where required, delete, read gone.
 */
import { PROVIDERS } from "../../provider/registry";
import { configureAll, fixtures, localTarget, providerFor, type KindFixture } from "../support/provider";
import { startTestServer, type TestServer } from "../support/server";
import { runLifecycle } from "../support/lifecycle";

let s: TestServer;
let fx: Record<string, () => Promise<KindFixture>>;

beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true, simulate: true });
  await configureAll(s);
  fx = await fixtures(localTarget(s));
});
afterAll(() => s?.close());

const kinds = PROVIDERS.map((p) => p.spec.name);

test("every resource kind has a fixture", () => {
  expect(Object.keys(fx).sort()).toEqual([...kinds].sort());
});

describe.each(kinds)("%s", (kind) => {
  test("check, create, read, diff, update, replace, delete", async () => {
    await runLifecycle(providerFor(kind), await fx[kind]!());
  });
});
