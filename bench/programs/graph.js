/**
 * The 300-resource graph of bench/up300.ts, with pulumi-privnet's resources: half groups, a quarter policies
 * (each between two of the groups), a quarter setup keys (each enrolling into one group). noop.js is the same
 * graph on a do-nothing dynamic provider.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const privnet = require("pulumi-privnet");

const { count, suffix } = JSON.parse(fs.readFileSync(path.join(__dirname, "bench-input.json"), "utf8"));
const nGroups = Math.floor(count / 2);
const nPolicies = Math.floor(count / 4);
const nKeys = count - nGroups - nPolicies;

const groups = [];
for (let i = 0; i < nGroups; i++) groups.push(new privnet.Group(`g${i}`, { name: `g-${suffix}-${i}` }));
for (let i = 0; i < nPolicies; i++) {
  new privnet.Policy(`p${i}`, {
    name: `p-${suffix}-${i}`,
    enabled: true,
    rules: [
      {
        name: "ssh",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["22"],
        sources: [groups[(2 * i) % nGroups].id],
        destinations: [groups[(2 * i + 1) % nGroups].id],
      },
    ],
  });
}
for (let i = 0; i < nKeys; i++) {
  new privnet.SetupKey(`k${i}`, {
    name: `k-${suffix}-${i}`,
    type: "reusable",
    expiresIn: 86400,
    autoGroups: [groups[i % nGroups].id],
    usageLimit: 0,
    ephemeral: false,
  });
}
