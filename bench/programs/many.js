/**
 * The resources of bench/large.ts: `count` objects of three kinds whose create is one request (half groups, a
 * quarter networks, a quarter setup keys, each key enrolling into one of the groups).
 */
"use strict";
const privnet = require("pulumi-privnet");
const { readInput } = require("./graph-shape");

const { count, prefix } = readInput();
const nGroups = Math.ceil(count / 2);
const nNetworks = Math.floor(count / 4);
const nKeys = count - nGroups - nNetworks;

const groups = [];
for (let i = 0; i < nGroups; i++) groups.push(new privnet.Group(`g${i}`, { name: `${prefix}-g${i}` }));
for (let i = 0; i < nNetworks; i++)
  new privnet.Network(`n${i}`, { name: `${prefix}-n${i}`, description: `network ${i}` });
for (let i = 0; i < nKeys; i++) {
  new privnet.SetupKey(`k${i}`, {
    name: `${prefix}-k${i}`,
    type: "reusable",
    expiresIn: 86400,
    autoGroups: [groups[i % nGroups].id],
    usageLimit: 0,
  });
}
