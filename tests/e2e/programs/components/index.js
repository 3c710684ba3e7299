// The three components in a Node program (tests/e2e/components.test.ts): one stage of ./scenario.json, given as
// the stack's config `components` (the stage's components) and `prefix`, with `hosting` choosing the classes:
// `dynamic` for pulumi-privnet's (children on the dynamic providers), `plugin` for pulumi-privnet/plugin's (the
// resource plugin constructs them). Strings ${app} and ${ops} are the ids of the groups declared first.
"use strict";
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const privnet =
  config.require("hosting") === "plugin" ? require("pulumi-privnet/plugin") : require("pulumi-privnet");
const prefix = config.require("prefix");
const components = JSON.parse(config.require("components"));

const groups = {
  app: new privnet.Group("app", { name: `${prefix}-app` }),
  ops: new privnet.Group("ops", { name: `${prefix}-ops` }),
};

function fill(v) {
  if (typeof v === "string") {
    if (v === "${app}" || v === "${ops}") return groups[v.slice(2, -1)].id;
    return v.split("${prefix}").join(prefix);
  }
  if (Array.isArray(v)) return v.map(fill);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
  return v;
}

const made = {};
for (const [name, c] of Object.entries(components)) made[name] = new privnet[c.type](name, fill(c.args));

exports.setupKey = made.db.setupKey;
exports.groupId = made.db.groupId;
exports.policyIds = made.db.policyIds;
exports.networkId = made.office.networkId;
exports.routerIds = made.office.routerIds;
exports.resourceIds = made.office.resourceIds;
exports.zoneId = made.zone.zoneId;
exports.recordIds = made.zone.recordIds;
exports.appGroupId = groups.app.id;
exports.opsGroupId = groups.ops.id;
