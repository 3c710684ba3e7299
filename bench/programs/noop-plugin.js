/**
 * A resource plugin that does nothing, for the engine's floor (bench/plugin.ts): it serves
 * pulumirpc.ResourceProvider with the same gRPC stubs, the same package name and the same schema as
 * pulumi-resource-privnet (so the same YAML program type-checks against it), but check accepts, diff compares,
 * create invents an id and answers the inputs, read answers what it was given, update and delete return at
 * once. No API, no lifecycle, no validation: a `pulumi up` of a program through it is the engine's, the language
 * host's and gRPC's own cost. Started by a launcher named `pulumi-resource-privnet` that bench/plugin.ts writes
 * into a directory of its own (the program's `plugins.providers` path).
 *
 * Usage: node noop-plugin.js <schema.json> [engine address]
 */
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const { createRequire } = require("node:module");

const fromSdk = createRequire(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb"));
const grpc = fromSdk("@grpc/grpc-js");
const services = fromSdk("./provider_grpc_pb");
const pb = fromSdk("./provider_pb");
const pluginPb = fromSdk("./plugin_pb");
const emptyPb = fromSdk("google-protobuf/google/protobuf/empty_pb");

const schemaFile = process.argv[2];
const VERSION = JSON.parse(fs.readFileSync(schemaFile, "utf8")).version || "0.0.0";

const unary = (fn) => (call, callback) => {
  try {
    callback(null, fn(call.request));
  } catch (err) {
    callback({ code: grpc.status.UNKNOWN, details: String(err), message: String(err) }, null);
  }
};
const unimplemented = (name) => (_call, callback) =>
  callback({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented`, message: name }, null);

const same = (a, b) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

const service = {
  handshake: unary(() => {
    const r = new pb.ProviderHandshakeResponse();
    r.setAcceptSecrets(true);
    return r;
  }),
  parameterize: unimplemented("Parameterize"),
  getSchema: unary(() => {
    const r = new pb.GetSchemaResponse();
    r.setSchema(fs.readFileSync(schemaFile, "utf8"));
    return r;
  }),
  checkConfig: unary((req) => {
    const r = new pb.CheckResponse();
    r.setInputs(req.getNews());
    return r;
  }),
  diffConfig: unary(() => {
    const r = new pb.DiffResponse();
    r.setChanges(pb.DiffResponse.DiffChanges.DIFF_NONE);
    return r;
  }),
  configure: unary(() => {
    const r = new pb.ConfigureResponse();
    r.setAcceptsecrets(true);
    r.setSupportspreview(true);
    return r;
  }),
  invoke: unimplemented("Invoke"),
  call: unimplemented("Call"),
  check: unary((req) => {
    const r = new pb.CheckResponse();
    r.setInputs(req.getNews());
    return r;
  }),
  diff: unary((req) => {
    const r = new pb.DiffResponse();
    const changed = !same(req.getOlds()?.toJavaScript(), req.getNews()?.toJavaScript());
    r.setChanges(changed ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE);
    return r;
  }),
  create: unary((req) => {
    const r = new pb.CreateResponse();
    if (!req.getPreview()) r.setId(crypto.randomUUID());
    r.setProperties(req.getProperties());
    return r;
  }),
  read: unary((req) => {
    const r = new pb.ReadResponse();
    r.setId(req.getId());
    r.setProperties(req.getProperties());
    r.setInputs(req.getInputs());
    return r;
  }),
  list: (call) => call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),
  update: unary((req) => {
    const r = new pb.UpdateResponse();
    r.setProperties(req.getNews());
    return r;
  }),
  delete: unary(() => new emptyPb.Empty()),
  construct: unimplemented("Construct"),
  cancel: unary(() => new emptyPb.Empty()),
  getPluginInfo: unary(() => {
    const info = new pluginPb.PluginInfo();
    info.setVersion(VERSION);
    return info;
  }),
  attach: unary(() => new emptyPb.Empty()),
  getMapping: unary(() => new pb.GetMappingResponse()),
  getMappings: unary(() => new pb.GetMappingsResponse()),
};

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(services.ResourceProviderService, service);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`noop plugin: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
const stop = () => server.tryShutdown(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
