/**
 * Explicit provider instances: one per account a program manages (production and staging, an MSP's tenants).
 *
 *   const staging = new privnet.Provider("staging", { apiUrl: "https://staging.example.com", token: stagingToken });
 *   new privnet.Group("ops", { name: "ops" }, { provider: staging });
 *   const all = privnet.getGroupOutput({ name: "All" }, { provider: staging });
 *
 * A privnet resource is a dynamic resource of the package `pulumi-nodejs`; a provider instance of that package runs
 * its own provider process, whose `configure` receives exactly this instance's arguments, keyed as stack config
 * would be (`privnet:apiUrl`, `privnet:token`, ...). Resources choose it with the `provider` option or inherit it
 * from a parent component's `providers`; lookups take it in their options.
 *
 * The token is held as a secret (encrypted in state, never in a log or in a resource's `__provider`). An argument
 * left out is taken from the stack config (`privnet:apiUrl`, `privnet:token`, ...), then from the environment of the
 * provider's process (`PRIVNET_API_URL`, `PRIVNET_TOKEN`, ...), then the default URL.
 */
import * as pulumi from "@pulumi/pulumi";

/** Arguments of {@link Provider}. */
export interface ProviderArgs {
  /** Base URL of the service's management API, such as `https://api.example.com`. */
  apiUrl?: pulumi.Input<string>;
  /** Personal access token (or `Bearer <token>`); kept as a secret. */
  token?: pulumi.Input<string>;
  /** Client-side rate limit, `PER_MIN:BURST` (e.g. `120:1200`) or `off`. */
  rateLimit?: pulumi.Input<string>;
  /** Whether the reads of a refresh share one list request per kind (default true; see the README). */
  batchReads?: pulumi.Input<boolean>;
}

/** A provider's credentials as lookups resolve them (plain values, or undefined where the provider has none). */
export interface ProviderCredentials {
  apiUrl?: string;
  token?: string;
  rateLimit?: string;
}

const PACKAGE = "pulumi-nodejs";

/** Each instance's arguments, for lookups; kept out of the object so nothing can print or serialize them. */
const ARGUMENTS = new WeakMap<object, pulumi.Output<ProviderCredentials>>();

/** A provider for one account (see the module comment). */
export class Provider extends pulumi.ProviderResource {
  /** The provider's type token. */
  static readonly __pulumiType = `pulumi:providers:${PACKAGE}`;

  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const config = new pulumi.Config("privnet");
    const apiUrl = args.apiUrl ?? config.get("apiUrl");
    const token = args.token ?? config.getSecret("token");
    const rateLimit = args.rateLimit ?? config.get("rateLimit");
    const batchReads = args.batchReads ?? config.getBoolean("batchReads");
    const props: pulumi.Inputs = {
      "privnet:apiUrl": apiUrl,
      "privnet:token": token === undefined ? undefined : pulumi.secret(token),
      "privnet:rateLimit": rateLimit,
      "privnet:batchReads": batchReads,
    };
    super(PACKAGE, name, props, opts);
    // For lookups only, inside this package: the token goes into a request header and nowhere else, so this copy
    // is not marked secret (a lookup result would otherwise become a secret because of it).
    // Cast: the output's value holds the unwrapped inputs, which are the credentials' types (string / RateLimit).
    ARGUMENTS.set(
      this,
      pulumi.unsecret(pulumi.output({ apiUrl, token, rateLimit })) as pulumi.Output<ProviderCredentials>,
    );
  }

  /** True when `obj` is a {@link Provider} of this package. */
  static override isInstance(obj: unknown): obj is Provider {
    return obj instanceof Provider || (typeof obj === "object" && obj !== null && ARGUMENTS.has(obj));
  }
}

/**
 * The privnet provider an invoke should use: `opts.provider`, or the one a parent passes down to its children.
 * Undefined means the default provider (stack config, then the environment).
 */
export function providerOf(
  opts: { provider?: pulumi.ProviderResource; parent?: pulumi.Resource } | undefined,
) {
  const chosen = opts?.provider ?? opts?.parent?.getProvider(`${PACKAGE}:dynamic:Resource`);
  if (chosen === undefined) return undefined;
  const args = ARGUMENTS.get(chosen);
  if (!args) {
    throw new Error(
      "privnet: the provider passed to a lookup is not a privnet.Provider (create one with new privnet.Provider)",
    );
  }
  return args;
}
