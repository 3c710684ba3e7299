"use strict";
// A route whose metric is out of range (1..9999): the provider's check must reject it during preview, before
// anything of the program reaches the API.
const privnet = require("pulumi-privnet");

const users = new privnet.Group("users", { name: "users" });
const routers = new privnet.Group("routers", { name: "routers" });

new privnet.Route("bad-metric", {
  description: "metric 0 is not allowed",
  networkId: "lan",
  enabled: true,
  network: "10.40.0.0/16",
  peerGroups: [routers.id],
  metric: 0,
  masquerade: false,
  groups: [users.id],
  keepRoute: false,
});
