/**
 * graph.js on a do-nothing dynamic provider (bench-noop-provider, installed in the project's node_modules like
 * pulumi-privnet, so its serialized provider is also one `require`): same resources, inputs and dependencies,
 * no API calls. `pulumi up` of this program is the engine's and the dynamic-provider host's own cost.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");
const provider = require("bench-noop-provider");

const { count, suffix, outputs } = JSON.parse(
  fs.readFileSync(path.join(__dirname, "bench-input.json"), "utf8"),
);
/**
 * With `outputs` (kind -> output property names of pulumi-privnet's class), each resource also registers those
 * properties, as the typed classes do: what registering typed outputs costs the program, on its own.
 */
const extra = (kind) => Object.fromEntries(((outputs && outputs[kind]) || []).map((k) => [k, undefined]));
const nGroups = Math.floor(count / 2);
const nPolicies = Math.floor(count / 4);
const nKeys = count - nGroups - nPolicies;

class Noop extends pulumi.dynamic.Resource {
  constructor(kind, name, props) {
    super(provider, name, { ...extra(kind), ...props }, {}, "noop", kind);
  }
}

const groups = [];
for (let i = 0; i < nGroups; i++) groups.push(new Noop("Group", `g${i}`, { name: `g-${suffix}-${i}` }));
for (let i = 0; i < nPolicies; i++) {
  new Noop("Policy", `p${i}`, {
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
  new Noop("SetupKey", `k${i}`, {
    name: `k-${suffix}-${i}`,
    type: "reusable",
    expiresIn: 86400,
    autoGroups: [groups[i % nGroups].id],
    usageLimit: 0,
    ephemeral: false,
  });
}
