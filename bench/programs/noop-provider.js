/**
 * A dynamic provider that does nothing (bench/programs/noop.js): check accepts, diff compares, create invents
 * an id, update and delete return at once. Installed as node_modules/bench-noop-provider/index.js.
 */
"use strict";
const crypto = require("node:crypto");

module.exports = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff(_id, olds, news) {
    const strip = (o) => JSON.stringify({ ...o, __provider: undefined });
    return { changes: strip(olds) !== strip(news) };
  },
  async create(inputs) {
    return { id: crypto.randomUUID(), outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};
