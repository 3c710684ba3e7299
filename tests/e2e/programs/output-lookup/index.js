"use strict";
// getGroupOutput({ name: <an output> }): the name is known only once the group exists (it is derived from the
// group's id, unknown in the first preview), so the lookup must wait for it, and yield an unknown until then.
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const team = new privnet.Group("team", { name: "team" });
const nameOnceCreated = pulumi.all([team.id, team.name]).apply(([, name]) => name);
const found = privnet.getGroupOutput({ name: nameOnceCreated });
module.exports = { teamId: team.id, foundId: found.id, foundName: found.name };
