/**
 * `pulumi-privnet/plugin`: the same resource classes, through the resource plugin (bin/pulumi-resource-privnet)
 * instead of the dynamic providers. Each is a plain CustomResource of type `privnet:index:<Kind>`, the types a
 * YAML, Python or Go program uses, so no dynamic-provider host runs and nothing is serialized per resource: a
 * no-change preview costs less per resource (BENCHMARKS.md, section 10: plugin-ts against dynamic-ts). The
 * program's Pulumi.yaml names the plugin (README, "TypeScript through the plugin"):
 *
 *   plugins:
 *     providers:
 *       - name: privnet
 *         path: ./node_modules/pulumi-privnet/bin
 *
 * The type tokens differ from the default classes' (`pulumi-nodejs:dynamic/privnet:<Kind>`): a stack made with
 * one set stays with it (switching would replace every resource). Lookups are the package's main entry's.
 */
import { installDebugRedaction } from "../redact-debug";

// Before any resource registers: keep secret outputs out of the SDK's debug log (see redact-debug.ts).
installDebugRedaction();

export * from "./resources";
export { Provider, type ProviderArgs } from "./provider";
