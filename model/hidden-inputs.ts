/**
 * What the sdk's resource classes, the resource plugin and the provider agree on beyond the API's fields: the Pulumi
 * types of every privnet resource and who a create is for (its stack and URN). Each side imports it from here, so
 * neither the sdk nor the plugin needs the provider's internals (provider/recovery.ts reads the owner; sdk/owner.ts
 * writes it as a hidden input; the plugin takes it from the URN of each request, {@link ownerOfUrn}).
 */

/**
 * The hidden input naming a resource's kind (`Group`, `DnsRecord`, ...): the sdk's classes set it, the provider
 * entry (provider/entry.ts) dispatches on it, and outputs keep it.
 */
export const KIND_INPUT = "__kind";

/** The hidden input naming the stack and the resource a create is for (set by the sdk's resource classes). */
export const OWNER_INPUT = "__privnetOwner";

/** The package's name in the resource plugin's schema: the `privnet:` of every token and of the config keys. */
export const PACKAGE = "privnet";

/**
 * A token of the resource plugin's package (a resource, function or type): `privnet:index:Group`. The schema, the
 * plugin and `privnet-import --format pulumi-import` name resources with it.
 */
export function token(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** The Pulumi type of every privnet resource of the dynamic providers: `pulumi-nodejs:dynamic/privnet:<Kind>`. */
export const TYPE_PREFIX = "pulumi-nodejs:dynamic/privnet:";

/**
 * The privnet kind a Pulumi type names, under either hosting: `pulumi-nodejs:dynamic/privnet:Group` (the dynamic
 * providers) or `privnet:index:Group` (the resource plugin). Undefined for any other type.
 */
export function kindOfType(type: string): string | undefined {
  for (const prefix of [TYPE_PREFIX, token("")]) {
    if (type.startsWith(prefix) && type.length > prefix.length) return type.slice(prefix.length);
  }
  return undefined;
}

/** Who a create is for: the value of {@link OWNER_INPUT}, or what a request's URN says ({@link ownerOfUrn}). */
export interface Owner {
  /**
   * The stack, as `pulumi stack export --stack` takes it in the project's directory: fully qualified
   * (`organization/project/stack`) where the program knows its organization (the sdk's resource classes), else the
   * stack's name as the URN gives it (resolved in the project, in the backend's default organization).
   */
  stack: string;
  /** The resource's URN. */
  urn: string;
}

const URN = /^urn:pulumi:([^:/]+)::([^:/]+)::.+::.+$/;

/**
 * The owner a URN names. The engine sends the resource's URN with every Check and Create,
 * `urn:pulumi:<stack>::<project>::<type>::<name>`: it names the stack (by its name; the organization is not in
 * it) and the project ({@link projectOfUrn}). Undefined for anything else.
 */
export function ownerOfUrn(urn: string | undefined): Owner | undefined {
  const m = URN.exec(urn ?? "");
  return m ? { stack: m[1]!, urn: urn! } : undefined;
}

/** The project a URN names (`urn:pulumi:<stack>::<project>::...`). */
export function projectOfUrn(urn: string): string | undefined {
  return URN.exec(urn)?.[2];
}
