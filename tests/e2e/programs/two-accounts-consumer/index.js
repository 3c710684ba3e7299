"use strict";
// A consumer of examples/two-accounts: the staging groups come from that stack's outputs (StackReference), the
// policy goes to the staging account through an explicit provider.
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const config = new pulumi.Config();
const accounts = new pulumi.StackReference(config.require("accountsStack"));
const groups = accounts.requireOutput("stagingGroupIds");
const staging = new privnet.Provider("staging", {
  apiUrl: config.require("stagingApiUrl"),
  token: config.requireSecret("stagingToken"),
});
const policy = new privnet.Policy(
  "servers-to-ops",
  {
    name: "servers report to ops",
    enabled: true,
    rules: [
      {
        name: "metrics",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["9100"],
        sources: [groups.apply((g) => g.servers)],
        destinations: [groups.apply((g) => g.ops)],
      },
    ],
  },
  { provider: staging },
);
module.exports = { policyId: policy.id };
