/**
 * The classes register with Error.stackTraceLimit at 0 (sdk/quiet-stacks.ts): the limit is restored after every
 * registration, an error thrown while registering still points at the caller, and both class sets (the default
 * dynamic ones and `pulumi-privnet/plugin`'s) keep their type tokens; a plugin class registers its inputs and outputs,
 * a default class its kind, its owner (sdk/owner.ts) and the provider's serialized form (sdk/serialized-provider.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import * as pluginClasses from "../../sdk/plugin";
import { quietStacks, restoreStacks } from "../../sdk/quiet-stacks";
import { SERIALIZED_PROVIDER } from "../../sdk/serialized-provider";
import * as dynamicClasses from "../../sdk/resources";

const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: { ...args.inputs, peersCount: 0 } };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    true,
    "org",
  );
});

const dynamicSdk = () => dynamicClasses;
const pluginSdk = () => pluginClasses;

let made: unknown;
const registeredGroup = () => made;
const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply((v) => resolve(v)));

describe("quiet stacks", () => {
  it("lowers the limit and restores it", () => {
    const before = Error.stackTraceLimit;
    const limit = quietStacks();
    expect(Error.stackTraceLimit).toBe(0);
    expect(new Error("x").stack).toBe("Error: x");
    restoreStacks(limit);
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("gives an error made without frames the caller's stack", () => {
    function caller() {
      const limit = quietStacks();
      const err = new Error("bad option");
      return restoreStacks(limit, err, caller) as Error;
    }
    const err = (function outerFrame() {
      return caller();
    })();
    expect(err.message).toBe("bad option");
    expect(err.stack).toMatch(/\n\s+at outerFrame/);
    expect(err.stack).not.toMatch(/\n\s+at caller/);
  });

  it("the plugin Group registers its type, inputs and outputs, and restores the limit", async () => {
    const before = Error.stackTraceLimit;
    const { Group } = pluginSdk();
    const g = new Group("g", { name: "ops" });
    made = g;
    expect(Error.stackTraceLimit).toBe(before);
    expect(await value(g.id)).toBe("g-id");
    expect(await value(g.name)).toBe("ops");
    expect(await value(g.peersCount)).toBe(0);
    const r = registered.find((x) => x.name === "g");
    expect(r?.type).toBe("privnet:index:Group");
    expect(r?.inputs).toEqual({ name: "ops" });
  });

  it("the two sets keep their type tokens apart", () => {
    expect(dynamicSdk().Group.__pulumiType).toBe("pulumi-nodejs:dynamic/privnet:Group");
    const g = registeredGroup();
    expect(pluginSdk().Group.isInstance(g)).toBe(true);
    expect(dynamicSdk().Group.isInstance(g)).toBe(false);
  });

  it("the default Group registers its kind, its owner and the provider entry's serialized form, and restores the limit", async () => {
    const before = Error.stackTraceLimit;
    const { Group } = dynamicSdk();
    const g = new Group("d", { name: "dyn" });
    expect(Error.stackTraceLimit).toBe(before);
    const urn = await value(g.urn);
    const r = registered.find((x) => x.name === "d");
    expect(r?.type).toBe("pulumi-nodejs:dynamic/privnet:Group");
    expect(r?.inputs).toEqual({
      name: "dyn",
      __kind: "Group",
      // Known at once for a resource without a parent (sdk/owner.ts): the URN the engine gives it.
      __privnetOwner: { stack: "org/proj/stack", urn },
      __provider: SERIALIZED_PROVIDER,
    });
    expect(urn).toBe("urn:pulumi:stack::proj::pulumi-nodejs:dynamic/privnet:Group::d");
  });

  it("a child of a component names its own URN as its owner", async () => {
    const parent = new pulumi.ComponentResource("my:index:Part", "part");
    const { Group } = dynamicSdk();
    const g = new Group("c", { name: "child" }, { parent });
    const urn = await value(g.urn);
    await new Promise((resolve) => setImmediate(resolve));
    const r = registered.find((x) => x.name === "c");
    expect(urn).toBe("urn:pulumi:stack::proj::my:index:Part$pulumi-nodejs:dynamic/privnet:Group::c");
    expect(r?.inputs.__privnetOwner).toEqual({ stack: "org/proj/stack", urn });
  });

  it("a registration error keeps the caller's frame and the limit", () => {
    const before = Error.stackTraceLimit;
    const { Group } = pluginSdk();
    let thrown: unknown;
    (function userProgramLine() {
      try {
        // An invalid option the SDK rejects while registering.
        new Group("bad", { name: "x" }, { parent: {} as pulumi.Resource });
      } catch (err) {
        thrown = err;
      }
    })();
    expect(Error.stackTraceLimit).toBe(before);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).stack).toMatch(/\n\s+at userProgramLine/);
  });
});
