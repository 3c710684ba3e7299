/**
 * The 300-resource graph of bench/up300.ts (graph-shape.js) with pulumi-privnet's resources. noop.js is the same
 * graph on a do-nothing dynamic provider.
 */
"use strict";
const privnet = require("pulumi-privnet");
const { readInput, buildGraph } = require("./graph-shape");

const { count, suffix, shape } = readInput();
buildGraph(count, suffix, (kind, name, props) => new privnet[kind](name, props), shape);
