/**
 * Composition, part 2: an application's slice of the network, built on the core stack (../core). The core's
 * group and posture-check ids come from its outputs through a StackReference (config `coreStack`, e.g.
 * `organization/privnet-core/dev`), so both stacks must use the same state backend.
 */
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
const core = new pulumi.StackReference(config.require("coreStack"));
const platformGroupId = core.requireOutput("platformGroupId") as pulumi.Output<string>;
const developersGroupId = core.requireOutput("developersGroupId") as pulumi.Output<string>;
const postureCheckId = core.requireOutput("postureCheckId") as pulumi.Output<string>;

const network = new privnet.Network("app", {
  name: "app",
  description: "The application's private endpoints",
});

// The API's domain, reached through the core's platform peers.
const api = new privnet.NetworkResource("app-api", {
  networkId: network.id,
  name: "app api",
  address: "api.app.internal.example.com",
  enabled: true,
  groups: [platformGroupId],
});
new privnet.NetworkRouter("app-router", {
  networkId: network.id,
  peerGroups: [platformGroupId],
  metric: 100,
  masquerade: true,
  enabled: true,
});

const access = new privnet.Policy("developers-to-app", {
  name: "developers to app",
  description: "Developers on managed devices reach the application API over HTTPS",
  enabled: true,
  sourcePostureChecks: [postureCheckId],
  rules: [
    {
      name: "https",
      enabled: true,
      action: "accept",
      bidirectional: false,
      protocol: "tcp",
      ports: ["443"],
      sources: [developersGroupId],
      destinationResource: { id: api.id, type: "domain" },
    },
  ],
});

export const networkId = network.id;
export const networkResourceId = api.id;
export const policyId = access.id;
/** The core ids this stack used, for checking the wiring. */
export const coreIds = { platformGroupId, developersGroupId, postureCheckId };
