"use strict";
// Values the service accepts although a document or good sense says otherwise (docs/validation.md): the
// provider's check warns of each, naming the property, and the preview and the update go on.
const privnet = require("pulumi-privnet");

const runners = new privnet.Group("runners", { name: "ci runners" });

// Shorter than the documented 86400 seconds: a key for one CI job.
new privnet.SetupKey("one-job", {
  name: "one job",
  type: "one-off",
  expiresIn: 600,
  autoGroups: [runners.id],
  usageLimit: 1,
});

// A leading space: another group than "All".
new privnet.Group("padded", { name: " All" });

// Host bits set: the service stores 10.40.0.0/16.
new privnet.Route("host-bits", {
  description: "",
  networkId: "lan",
  enabled: true,
  network: "10.40.7.1/16",
  peerGroups: [runners.id],
  metric: 100,
  masquerade: false,
  groups: [runners.id],
  keepRoute: false,
});
