/**
 * What the sdk's resource classes and the provider agree on beyond the API's fields: the Pulumi type of every
 * privnet resource and the hidden input naming who a create is for. Both sides import it from here, so the sdk
 * needs none of the provider's internals (provider/recovery.ts reads the owner, sdk/owner.ts writes it).
 */

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

/** The value of {@link OWNER_INPUT}. */
export interface Owner {
  /** Fully qualified stack name, `organization/project/stack`. */
  stack: string;
  /** The resource's URN. */
  urn: string;
}
