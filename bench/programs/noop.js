/**
 * The graph of graph-shape.js, as graph.js builds it, on a do-nothing dynamic provider (bench-noop-provider,
 * installed in the project's node_modules like pulumi-privnet, so its serialized provider is also one `require`):
 * same resources, inputs and dependencies, no API calls. `pulumi up` of this program is the engine's and the
 * dynamic-provider host's own cost.
 */
"use strict";
const pulumi = require("@pulumi/pulumi");
const provider = require("bench-noop-provider");
const { readInput, buildGraph } = require("./graph-shape");

const { count, suffix, outputs } = readInput();
/**
 * With `outputs` (kind -> output property names of pulumi-privnet's class), each resource also registers those
 * properties, as the typed classes do: what registering typed outputs costs the program, on its own.
 */
const extra = (kind) => Object.fromEntries(((outputs && outputs[kind]) || []).map((k) => [k, undefined]));

class Noop extends pulumi.dynamic.Resource {
  constructor(kind, name, props) {
    super(provider, name, { ...extra(kind), ...props }, {}, "noop", kind);
  }
}

buildGraph(count, suffix, (kind, name, props) => new Noop(kind, name, props));
