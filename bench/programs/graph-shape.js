/**
 * The 300-resource graph of bench/up300.ts, written once for both programs: half groups, a quarter policies (each
 * between two of the groups), a quarter setup keys (each enrolling into one group). graph.js builds it with
 * pulumi-privnet's resources, noop.js with a do-nothing dynamic provider, so both register the same resources with
 * the same inputs and dependencies. Copied beside the program's index.js by bench/lib/project.ts.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

/** The bench input written by bench/up300.ts or bench/peer.ts: { count, suffix, shape?, outputs? }. */
function readInput() {
  return JSON.parse(fs.readFileSync(path.join(__dirname, "bench-input.json"), "utf8"));
}

/**
 * make(kind, name, props) registers one resource and returns it (its `id` feeds later resources). `shape`: "mixed"
 * (the default: groups, policies between them, setup keys), "groups" (`count` groups only) or "policies" (a
 * quarter policies, the rest groups: the mixed shape without setup keys), the last two for bench/peer.ts.
 */
function buildGraph(count, suffix, make, shape = "mixed") {
  if (shape === "groups") {
    for (let i = 0; i < count; i++) make("Group", `g${i}`, { name: `g-${suffix}-${i}` });
    return;
  }
  const nPolicies = Math.floor(count / 4);
  const nGroups = shape === "policies" ? count - nPolicies : Math.floor(count / 2);
  const nKeys = count - nGroups - nPolicies;
  const groups = [];
  for (let i = 0; i < nGroups; i++) groups.push(make("Group", `g${i}`, { name: `g-${suffix}-${i}` }));
  for (let i = 0; i < nPolicies; i++) {
    make("Policy", `p${i}`, {
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
    make("SetupKey", `k${i}`, {
      name: `k-${suffix}-${i}`,
      type: "reusable",
      expiresIn: 86400,
      autoGroups: [groups[i % nGroups].id],
      usageLimit: 0,
      ephemeral: false,
    });
  }
}

module.exports = { readInput, buildGraph };
