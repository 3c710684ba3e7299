/**
 * The resource plugin's Construct: the components (components/) for programs in every language. A program's
 * `new privnet.Segment(...)` (Python, Go, YAML, `pulumi-privnet/plugin`) registers a remote component; the engine
 * asks this plugin to construct it, and the component and its children are registered back with the engine from
 * here.
 *
 * On the SDK's own machinery: `@pulumi/pulumi/provider/server.js` implements Construct for Node providers (the
 * runtime configured with the request's monitor endpoint, project, stack and config; the inputs deserialized with
 * their dependencies and secrets; the resource options rebuilt, explicit providers included; the outputs
 * serialized with their secrets; every registration waited for). Its `Server` class is not exported; its `main`
 * is: it serves a provider object, here one with `construct` only, on a loopback port of its own. The first
 * Construct starts it in this process (`main` prints the port on stdout, taken here instead), and each Construct
 * request is handed to it as it came, its answer (or its error, details included) back as it went. The SDK's
 * server installs its handlers for uncaught errors when it starts: from then on such an error fails the
 * constructions in flight, as in any Node provider, instead of ending the plugin.
 *
 * The component itself is the same code as `pulumi-privnet`'s classes (components/build.ts); its children are
 * `pulumi-privnet/plugin`'s classes, type `privnet:index:<Kind>`: the same resources a program declares itself,
 * served by this same plugin package. Each child has the component as its parent (it shows under it) and the
 * provider the component was constructed by as its provider: the program's explicit provider, or the package's
 * default provider, the same one its other resources use (the engine keys default providers by the version a
 * program asks for: a YAML program asks for none, a generated SDK for its own).
 *
 * This module is not in the plugin's bundle (scripts/bundle-plugin.js): plugin/server.ts loads it when the first
 * Construct arrives, with @pulumi/pulumi from node_modules, so no other call pays for the SDK.
 */
import * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import { main as serveProvider } from "@pulumi/pulumi/provider/server";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { ConstructRequest } from "@pulumi/pulumi/proto/provider_pb";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { buildComponent, type ChildClasses } from "../components/build";
import { COMPONENTS } from "../components/registry";
import { token } from "../model/hidden-inputs";
import * as plugin from "../sdk/plugin";

const COMPONENT_BY_TOKEN = new Map(COMPONENTS.map((c) => [token(c.name), c]));

const CHILD_CLASSES: ChildClasses = {
  Group: plugin.Group,
  SetupKey: plugin.SetupKey,
  Policy: plugin.Policy,
  Network: plugin.Network,
  NetworkRouter: plugin.NetworkRouter,
  NetworkResource: plugin.NetworkResource,
  DnsZone: plugin.DnsZone,
  DnsRecord: plugin.DnsRecord,
};

/** The package's version (its package.json, two levels up from here in both plugin/ and dist/plugin/). */
function packageVersion(): string {
  for (const up of ["..", path.join("..", "..")]) {
    try {
      return (
        JSON.parse(readFileSync(path.join(__dirname, up, "package.json"), "utf8")) as { version: string }
      ).version;
    } catch {
      // not there: one more level up
    }
  }
  throw new Error("privnet plugin: cannot find the package's package.json");
}

const VERSION = packageVersion();

type Outputs = Record<string, unknown>;

/**
 * The provider the children use: the one this process serves, which constructs the component (its reference, from
 * Configure). Without it (an engine that does not send it) the children take the component's providers, else the
 * package's default provider.
 */
let childProvider: pulumi.ProviderResource | undefined;
let childProviderRef: string | undefined;

/** The inputs of the component being made, handed to its `initialize` (which runs inside the base constructor). */
const pendingInputs = new WeakMap<object, pulumi.Inputs>();

/** A component as the plugin constructs it: its children are declared as it is made (components/build.ts). */
class Constructed extends pulumi.ComponentResource<Outputs> {
  constructor(
    type: string,
    name: string,
    state: pulumi.Inputs,
    opts: pulumi.ComponentResourceOptions,
    inputs: pulumi.Inputs,
  ) {
    pendingInputs.set(state, inputs);
    super(type, name, state, opts);
  }

  protected override async initialize(
    state: pulumi.Inputs,
    _opts?: pulumi.ComponentResourceOptions,
    name?: string,
    type?: string,
  ): Promise<Outputs> {
    const spec = COMPONENT_BY_TOKEN.get(type ?? "")!;
    const args = pendingInputs.get(state) ?? {};
    const options = childProvider ? { provider: childProvider } : {};
    const outputs = await buildComponent(spec, this, name ?? "", args, CHILD_CLASSES, options);
    this.registerOutputs(outputs);
    return outputs;
  }

  /** The outputs, once every child is declared. */
  outputs(): Promise<Outputs> {
    return this.getData();
  }
}

/** The provider the SDK's server serves: Construct only. */
const provider = {
  version: VERSION,
  async construct(
    name: string,
    type: string,
    inputs: pulumi.Inputs,
    options: pulumi.ComponentResourceOptions,
  ): Promise<{ urn: pulumi.Output<string>; state: Outputs }> {
    if (!COMPONENT_BY_TOKEN.has(type))
      throw new Error(`privnet: unknown component type ${JSON.stringify(type)}`);
    // The inputs go to the children, not into the component's own state: what a component is, is its children,
    // so an entry moved in a list (which changes no child) shows no change at all.
    const component = new Constructed(type, name, {}, options, inputs);
    return { urn: component.urn, state: await component.outputs() };
  },
};

/** The largest message either side takes, as the plugin's own server. */
const MAX_BYTES = 400 * 1024 * 1024;

let server: Promise<ResourceProviderClient> | undefined;

/** The SDK's provider server for {@link provider}, started once, and a client of it. */
function sdkServer(engineAddress: string | undefined): Promise<ResourceProviderClient> {
  server ??= (async () => {
    let port = "";
    // `main` prints the port as its last act (`console.log`): taken here, the plugin's stdout is the engine's.
    const log = console.log;
    console.log = (...args: unknown[]) => {
      port = String(args[0]).trim();
    };
    try {
      await serveProvider(provider, engineAddress ? [engineAddress] : []);
    } finally {
      console.log = log;
    }
    if (!/^\d+$/.test(port)) throw new Error("privnet plugin: the SDK's provider server did not start");
    return new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": MAX_BYTES,
      "grpc.max_send_message_length": MAX_BYTES,
    });
  })();
  server.catch(() => (server = undefined));
  return server;
}

/**
 * Constructs the component a ConstructRequest (its bytes) asks for; answers the ConstructResponse's bytes, or
 * fails with the SDK server's gRPC error (its code, message and details, such as the engine shows).
 */
export async function construct(
  request: Uint8Array,
  engineAddress: string | undefined,
  providerRef: string | undefined,
): Promise<Uint8Array> {
  if (providerRef !== childProviderRef) {
    childProviderRef = providerRef;
    childProvider = providerRef ? new pulumi.DependencyProviderResource(providerRef) : undefined;
  }
  const client = await sdkServer(engineAddress);
  return new Promise((resolve, reject) => {
    client.construct(ConstructRequest.deserializeBinary(request), (err, res) => {
      if (err) reject(err);
      else resolve(res.serializeBinary());
    });
  });
}
