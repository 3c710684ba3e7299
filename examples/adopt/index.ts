/**
 * Adoption: a group, a policy and a DNS zone that were created by hand (through the API or the dashboard) are
 * brought under management, and the program then extends them (a record in the adopted zone).
 *
 * Each adopted resource names the existing object with `adoptId`: on the first `pulumi up` the provider reads
 * that object and updates it to match the program (no new object is created); from then on it is an ordinary
 * resource (`pulumi destroy` deletes it). The engine's `import` resource option cannot do this for a dynamic
 * provider: its read reaches the provider without the provider's code.
 *
 * Config `existing` holds the ids of the objects to adopt (`pulumi config set --path existing.group <id>`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
const existing = config.requireObject<{ group: string; policy: string; zone: string }>("existing");

const ops = new privnet.Group("ops", { name: "ops", adoptId: existing.group });

const opsSsh = new privnet.Policy("ops-ssh", {
  adoptId: existing.policy,
  name: "ops ssh",
  description: "Operators reach each other over SSH (managed by Pulumi)",
  enabled: true,
  rules: [
    {
      name: "ssh",
      enabled: true,
      action: "accept",
      bidirectional: true,
      protocol: "tcp",
      ports: ["22"],
      sources: [ops.id],
      destinations: [ops.id],
    },
  ],
});

const zone = new privnet.DnsZone("ops-zone", {
  adoptId: existing.zone,
  name: "ops",
  domain: "ops.example.com",
  enableSearchDomain: true,
  distributionGroups: [ops.id],
});

// A new object in the adopted zone.
const runbook = new privnet.DnsRecord("runbook", {
  zoneId: zone.id,
  name: "runbook.ops.example.com",
  type: "A",
  content: "10.30.0.20",
  ttl: 300,
});

export const groupId = ops.id;
export const policyId = opsSsh.id;
export const zoneId = zone.id;
export const runbookRecordId = runbook.id;
