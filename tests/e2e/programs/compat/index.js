"use strict";
// A few kinds, nested ones included (a record under its zone, a resource under its network), and secret outputs.
// tests/fixtures/old-layout holds the state an earlier layout of the package wrote for this program; the
// compatibility test refreshes and destroys that state with the current package.
const privnet = require("pulumi-privnet");

const ops = new privnet.Group("ops", { name: "compat-ops" });
const servers = new privnet.Group("servers", { name: "compat-servers" });
new privnet.Policy("ops-to-servers", {
  name: "compat ops to servers",
  enabled: true,
  rules: [
    {
      name: "ssh",
      enabled: true,
      action: "accept",
      bidirectional: false,
      protocol: "tcp",
      ports: ["22"],
      sources: [ops.id],
      destinations: [servers.id],
    },
  ],
});
const zone = new privnet.DnsZone("zone", {
  name: "compat",
  domain: "compat.example.com",
  enableSearchDomain: false,
  distributionGroups: [ops.id],
});
new privnet.DnsRecord("db", {
  zoneId: zone.id,
  name: "db.compat.example.com",
  type: "A",
  content: "10.1.0.5",
  ttl: 300,
});
const net = new privnet.Network("net", { name: "compat-net" });
new privnet.NetworkResource("db-host", {
  networkId: net.id,
  name: "compat-db",
  address: "10.1.0.5",
  enabled: true,
  groups: [servers.id],
});
const key = new privnet.SetupKey("key", {
  name: "compat key",
  type: "reusable",
  expiresIn: 86400,
  autoGroups: [servers.id],
  usageLimit: 0,
});
module.exports = { groupId: ops.id, setupKey: key.key };
