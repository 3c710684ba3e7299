/**
 * The dynamic provider every resource class of the package registers, as the engine stores and the
 * dynamic-provider host runs it (`__provider`): one `require` of the package's public provider entry,
 * `pulumi-privnet/provider` (provider/entry.ts; the compatibility promise of docs/provider.md).
 *
 * The classes pass this text themselves instead of a provider object for the SDK to serialize
 * (`pulumi.dynamic.Resource` does that with its closure serializer): the text is always this one `require`, and
 * producing it cost each program about 100 ms before its first registration could leave (the serializer's first
 * run inspects every global and loads every built-in module of Node: bench/startup.ts, BENCHMARKS.md), and the
 * program loaded the provider entry only to have it serialized. The host runs the text as the SDK's serialized
 * providers (`require-from-string`, then `handler()`), resolving the package from the project's directory as the
 * SDK's text did. It is also shorter than the serializer's wrapping of the same `require` (60 bytes against 263),
 * and every resource carries it in its inputs and outputs, in state and in each call to the host.
 */

/** The property the dynamic-provider host reads the serialized provider from. */
export const PROVIDER_PROPERTY = "__provider";

/** The serialized provider (see the module comment). */
export const SERIALIZED_PROVIDER = 'exports.handler = () => require("pulumi-privnet/provider");\n';
