"use strict";
// A program that a killed `pulumi up` leaves half done (tests/e2e/interrupted.test.ts): groups (unique names),
// policies (names may repeat: policy i and i + policies/2 are identical) and setup keys (a key answered once),
// all created in parallel. Config: `prefix`, the counts `groups`, `policies`, `keys`, and `ruleGroup` (an
// existing group's id the policies' rules use instead of the program's groups).
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const config = new pulumi.Config();
const prefix = config.get("prefix") ?? "int";
const groupCount = config.getNumber("groups") ?? 60;
const policyCount = config.getNumber("policies") ?? 60;
const keyCount = config.getNumber("keys") ?? 10;
const ruleGroup = config.get("ruleGroup");

const groups = [];
for (let i = 0; i < groupCount; i++) groups.push(new privnet.Group(`g${i}`, { name: `${prefix}-g${i}` }));

// The rules use the first ten groups only, so policies are created while later groups still are.
const ruleGroupOf = (i) => (ruleGroup ? ruleGroup : groups[i % Math.min(10, groupCount)].id);
const half = Math.max(1, Math.ceil(policyCount / 2));
for (let i = 0; i < policyCount; i++) {
  const n = i % half;
  new privnet.Policy(`p${i}`, {
    name: `${prefix}-p${n}`,
    enabled: true,
    rules: [
      {
        name: "ssh",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["22"],
        sources: [ruleGroupOf(n)],
        destinations: [ruleGroupOf(n + 1)],
      },
    ],
  });
}

const keys = [];
for (let i = 0; i < keyCount; i++) {
  keys.push(
    new privnet.SetupKey(`k${i}`, {
      name: `${prefix}-k${i}`,
      type: "reusable",
      expiresIn: 86400,
      autoGroups: [],
      usageLimit: 0,
    }),
  );
}
exports.keys = keys.map((k) => k.key);
