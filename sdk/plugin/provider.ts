/**
 * An explicit provider instance of the resource plugin (`pulumi:providers:privnet`): one per account, for the
 * classes of `pulumi-privnet/plugin`. Its arguments are the plugin's provider inputs (plugin/schema.json); one left
 * out is taken from the stack config (`privnet:apiUrl`, ...), as the default provider's are, then from the
 * plugin's environment. The token is sent as a secret.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ProviderArgs } from "../provider";

export type { ProviderArgs };

/** A resource-plugin provider for one account (see the module comment). */
export class Provider extends pulumi.ProviderResource {
  /** The provider's type token. */
  static readonly __pulumiType = "pulumi:providers:privnet";

  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const config = new pulumi.Config("privnet");
    const token = args.token ?? config.getSecret("token");
    const batchReads = args.batchReads ?? config.getBoolean("batchReads");
    super(
      "privnet",
      name,
      {
        apiUrl: args.apiUrl ?? config.get("apiUrl"),
        token: token === undefined ? undefined : pulumi.secret(token),
        rateLimit: args.rateLimit ?? config.get("rateLimit"),
        // Provider inputs other than strings travel JSON-encoded, as every Pulumi SDK sends them.
        batchReads:
          batchReads === undefined ? undefined : pulumi.output(batchReads).apply((b) => JSON.stringify(b)),
      },
      opts,
    );
  }
}
