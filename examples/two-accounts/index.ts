/**
 * Two accounts in one program: production and staging, each through its own `privnet.Provider`.
 *
 * - The same baseline (groups, a policy) in both accounts, built by one component; the component passes its
 *   provider down to its children (`providers`), as Pulumi components do.
 * - A lookup whose argument is an output of another resource (`getGroupOutput`): it waits for the group to exist.
 * - Objects managed elsewhere, read into the program without managing them (`Group.get`, and children of a
 *   parent: `DnsRecord.get` with a composite id `<zoneId>/<recordId>`, `NetworkResource.get` with the parent id in
 *   its state), when their ids are configured.
 *
 * Config: `productionApiUrl`, `productionToken` (secret: `pulumi config set --secret productionToken`),
 * `stagingApiUrl`, `stagingToken` (secret); optionally `shared.groupId`, `shared.zoneId` + `shared.recordId`,
 * `shared.networkId` + `shared.resourceId` (`pulumi config set --path shared.groupId <id>`): objects of the
 * production account that another team manages.
 */
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();

function account(name: string): privnet.Provider {
  // The token is read as a secret: it stays encrypted in the state and is never printed.
  return new privnet.Provider(name, {
    apiUrl: config.require(`${name}ApiUrl`),
    token: config.requireSecret(`${name}Token`),
  });
}

const production = account("production");
const staging = account("staging");

/** The groups and the policy every account starts with. */
class Baseline extends pulumi.ComponentResource {
  readonly ops: privnet.Group;
  readonly servers: privnet.Group;

  constructor(name: string, opts: pulumi.ComponentResourceOptions) {
    super("privnet-example:index:Baseline", name, {}, opts);
    // No provider option here: the children inherit the one the component was given.
    this.ops = new privnet.Group(`${name}-ops`, { name: "ops" }, { parent: this });
    this.servers = new privnet.Group(`${name}-servers`, { name: "servers" }, { parent: this });
    new privnet.Policy(
      `${name}-ops-ssh`,
      {
        name: "ops to servers",
        enabled: true,
        rules: [
          {
            name: "ssh",
            enabled: true,
            action: "accept",
            bidirectional: false,
            protocol: "tcp",
            ports: ["22"],
            sources: [this.ops.id],
            destinations: [this.servers.id],
          },
        ],
      },
      { parent: this },
    );
    this.registerOutputs({});
  }
}

const prod = new Baseline("production", { providers: [production] });
const stage = new Baseline("staging", { providers: [staging] });

// Staging only: a setup key for throw-away test machines.
const testMachines = new privnet.SetupKey(
  "staging-test-machines",
  {
    name: "test machines",
    type: "reusable",
    expiresIn: 7 * 86400,
    autoGroups: [stage.servers.id],
    usageLimit: 0,
  },
  { provider: staging },
);

// A lookup that depends on a resource: its argument is an output, known once the group exists (in the first
// preview the result is unknown, as any output of a resource not created yet).
const stagingOps = privnet.getGroupOutput({ id: stage.ops.id }, { provider: staging });

// Objects managed elsewhere, read only.
const shared = config.getObject<Record<string, string>>("shared") ?? {};
const sharedGroup = shared.groupId
  ? privnet.Group.get("shared-group", shared.groupId, undefined, { provider: production })
  : undefined;
const sharedRecord =
  shared.zoneId && shared.recordId
    ? privnet.DnsRecord.get("shared-record", `${shared.zoneId}/${shared.recordId}`, undefined, {
        provider: production,
      })
    : undefined;
const sharedResource =
  shared.networkId && shared.resourceId
    ? privnet.NetworkResource.get(
        "shared-resource",
        shared.resourceId,
        { networkId: shared.networkId },
        { provider: production },
      )
    : undefined;

export const productionGroupIds = { ops: prod.ops.id, servers: prod.servers.id };
export const stagingGroupIds = { ops: stage.ops.id, servers: stage.servers.id };
export const stagingOpsPeers = stagingOps.peersCount;
export const stagingOpsLookupId = stagingOps.id;
/** A secret output. */
export const stagingSetupKey = testMachines.key;
export const sharedGroupName = sharedGroup?.name;
export const sharedRecordContent = sharedRecord?.content;
export const sharedResourceAddress = sharedResource?.address;
