/**
 * The resource plugin as tests start it: the real launcher (bin/pulumi-resource-privnet) running the compiled
 * JavaScript, as the engine starts it, with a gRPC client (./host.ts), and a {@link LifecycleDriver} over it so
 * the per-kind lifecycle runs through the plugin exactly as through a provider in this process.
 */
import * as path from "node:path";
import { PROVIDERS } from "../../provider/registry";
import type { Props } from "../../provider/spec";
import { envWithoutPrivnet, startProviderProcess, type Host } from "./host";
import type { LifecycleDriver } from "./lifecycle";

export const repoRoot = path.resolve(__dirname, "..", "..");

/**
 * Where the plugin finds `pulumi` in these tests: a stand-in that answers `pulumi stack export` for the stack the
 * requests' URNs name (`test`), with nothing interrupted, as the CLI that runs a real engine would.
 */
const CLI = path.join(repoRoot, "tests", "fixtures", "pulumi-cli");

/**
 * Starts the plugin's launcher; `env` is its whole environment (default: this one without PRIVNET_*), with the
 * stand-in CLI first on PATH.
 */
export function startPlugin(env: Record<string, string> = envWithoutPrivnet()): Promise<Host> {
  return startProviderProcess({
    label: "pulumi-resource-privnet",
    command: path.join(repoRoot, "bin", "pulumi-resource-privnet"),
    // The engine passes its address; warnings go there (nothing listens here, so they fall back to stderr).
    args: ["127.0.0.1:1"],
    cwd: repoRoot,
    env: { ...env, PATH: `${CLI}:${env.PATH ?? ""}`, PRIVNET_NODE: process.execPath },
    project: "privnet-plugin",
    typePrefix: "privnet:index:",
  });
}

/** One kind through the plugin, with the calls of a provider in this process. */
export function pluginDriver(plugin: Host, kind: string): LifecycleDriver {
  const provider = PROVIDERS.find((p) => p.spec.name === kind);
  if (!provider) throw new Error(`no kind ${kind}`);
  return {
    spec: provider.spec,
    check: (olds, news) => plugin.check(kind, news, olds),
    create: async (inputs) => {
      const r = await plugin.create(kind, inputs);
      return { id: r.id, outs: r.props };
    },
    read: async (id, props, inputs) => {
      const r = await plugin.read(kind, id, props, inputs);
      // Gone: an empty id over the wire.
      return r.id ? r : {};
    },
    diff: async (id, olds, news) => {
      const d = await plugin.diff(kind, id, olds, news);
      return {
        changes: d.changes !== "none",
        replaces: d.replaces,
        deleteBeforeReplace: d.deleteBeforeReplace,
      };
    },
    update: async (id, olds, news) => ({ outs: (await plugin.update(kind, id, olds, news)).props }),
    delete: (id, props: Props) => plugin.delete(kind, id, props),
  };
}
