// The components' upgrade test's Node program on the dynamic providers (tests/e2e/upgrade.test.ts): the same
// DnsZoneBundle as ../Pulumi.yaml with pulumi-privnet's ComponentResource class. The records come from the stack's
// config `records` (JSON), by default a record alone in its set (db A), a round-robin set of two (www A) and a
// CNAME (docs).
"use strict";
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const DEFAULT_RECORDS = [
  { name: "db", type: "A", content: "192.0.2.20" },
  { name: "www", type: "A", content: "192.0.2.10" },
  { name: "www", type: "A", content: "192.0.2.11" },
  { name: "docs", type: "CNAME", content: "www.node.upgrade.example.com" },
];

const config = new pulumi.Config();
const records = config.getObject("records") ?? DEFAULT_RECORDS;

const ops = new privnet.Group("ops", { name: "upgrade-node-ops" });
const zone = new privnet.DnsZoneBundle("zone", {
  name: "upgrade-node",
  domain: "node.upgrade.example.com",
  distributionGroups: [ops.id],
  records,
});

exports.recordIds = zone.recordIds;
