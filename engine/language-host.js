#!/usr/bin/env node
// pulumi-privnet's Node.js language host: a small replacement for Pulumi's `pulumi-language-nodejs` (a Go
// binary we cannot build here, see engine/README.md). The Pulumi CLI starts it as the `nodejs` language
// plugin (scripts/engine.sh installs a `pulumi-language-nodejs` sh wrapper that runs this file on Node 24).
//
// Protocol (pulumirpc.LanguageRuntime, proto/pulumi/language.proto of @pulumi/pulumi 3.259):
//   argv:   [--logtostderr] [-v=N] [--tracing URL] ENGINE_ADDRESS   (the engine address is the last positional)
//   stdout: the first line is the port we listen on (127.0.0.1); everything after it is shown by the CLI as
//           program output, stderr as error output. So we never log to stdout/stderr ourselves except for
//           real errors; set PRIVNET_LANGHOST_LOG=<file> to get a trace of the RPCs we serve.
//   RPCs:   Handshake, GetPluginInfo, GetRequiredPackages, GetRequiredPlugins, Run, GetProgramDependencies,
//           About, Cancel and RunPlugin (for policy packs) are implemented. Everything else
//           (InstallDependencies, GenerateProject, Pack, Link, Template, ...) answers UNIMPLEMENTED, which the CLI
//           tolerates where it matters.
//
// Plain CommonJS on purpose: it must run without a TypeScript build.
"use strict";

const childProcess = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { setInterval, clearInterval } = require("node:timers");

/** Directory of the @pulumi/pulumi package this host uses for its own gRPC plumbing (proto stubs). */
const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
/** @type {typeof import("@grpc/grpc-js")} */
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [sdkDir] }));
const languageGrpc = require(path.join(sdkDir, "proto", "language_grpc_pb.js"));
const languagePb = require(path.join(sdkDir, "proto", "language_pb.js"));
const analyzerGrpc = require(path.join(sdkDir, "proto", "analyzer_grpc_pb.js"));
const analyzerPb = require(path.join(sdkDir, "proto", "analyzer_pb.js"));
const pluginPb = require(path.join(sdkDir, "proto", "plugin_pb.js"));
const emptyPb = require(require.resolve("google-protobuf/google/protobuf/empty_pb.js", { paths: [sdkDir] }));

/** Version reported by GetPluginInfo: the version of this npm package (pulumi-privnet). */
const HOST_VERSION = readJson(path.join(__dirname, "..", "package.json")).version || "0.0.0";

/**
 * Exit code with which `@pulumi/pulumi/cmd/run` signals "I already reported the error to the user".
 * The CLI must then stop without printing anything more (RunResponse.bail).
 */
const EXIT_CODE_ERROR_ALREADY_REPORTED = 32;

/** How often we check that the engine is still alive (it also closes our stdin when it exits). */
const ENGINE_HEALTHCHECK_MS = 30_000;

/**
 * Parsed command line.
 * @typedef {object} HostArgs
 * @property {string} engineAddress the engine's gRPC address (may be empty when started by hand)
 * @property {string} tracing a Zipkin tracing endpoint, or ""
 */

/**
 * Parses the arguments the CLI passes to language plugins.
 * @param {string[]} argv process.argv.slice(2)
 * @returns {HostArgs} the parsed arguments
 */
function parseArgs(argv) {
  /** @type {HostArgs} */
  const out = { engineAddress: "", tracing: "" };
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--tracing" || arg === "-tracing") {
      out.tracing = argv[++i] || "";
    } else if (arg.startsWith("--tracing=") || arg.startsWith("-tracing=")) {
      out.tracing = arg.slice(arg.indexOf("=") + 1);
    } else if (arg.startsWith("-")) {
      // --logtostderr, -v=N, and flags older CLIs passed (-root, -typescript, ...): not needed here.
    } else {
      positional.push(arg);
    }
  }
  out.engineAddress = positional.length > 0 ? positional[positional.length - 1] : "";
  return out;
}

/**
 * Reads and parses a JSON file, returning {} when it is missing or invalid.
 * @param {string} file path of the JSON file
 * @returns {Record<string, any>} the parsed object
 */
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return {};
  }
}

/**
 * Appends one line to the trace file named by PRIVNET_LANGHOST_LOG (no-op when unset).
 * @param {string} message the line to append
 * @returns {void}
 */
function trace(message) {
  const file = process.env.PRIVNET_LANGHOST_LOG;
  if (!file) return;
  try {
    fs.appendFileSync(file, `${new Date().toISOString()} pid=${process.pid} ${message}\n`);
  } catch {
    // Tracing must never break the host.
  }
}

/**
 * Reads the fields of a ProgramInfo message (may be undefined for old CLIs).
 * @param {any} info a pulumirpc.ProgramInfo or undefined
 * @param {string} fallbackDir directory to use when the message has none
 * @param {string} fallbackEntry entry point to use when the message has none
 * @returns {{rootDirectory: string, programDirectory: string, entryPoint: string, options: Record<string, any>}} the fields
 */
function programInfo(info, fallbackDir, fallbackEntry) {
  const programDirectory = (info && info.getProgramDirectory()) || fallbackDir || process.cwd();
  const options = info && info.getOptions() ? info.getOptions().toJavaScript() : {};
  return {
    rootDirectory: (info && info.getRootDirectory()) || programDirectory,
    programDirectory,
    entryPoint: (info && info.getEntryPoint()) || fallbackEntry || ".",
    options: options || {},
  };
}

/**
 * Finds the SDK's program runner (`@pulumi/pulumi/cmd/run`) as the program itself would: from its directory,
 * so the program and the runner share one copy of the SDK.
 * @param {string} programDirectory the program's directory
 * @returns {string | undefined} the absolute path of cmd/run/index.js, or undefined when the SDK is not installed
 */
function locateRunner(programDirectory) {
  const override = process.env.PULUMI_LANGUAGE_NODEJS_RUN_PATH;
  try {
    return require.resolve(override || "@pulumi/pulumi/cmd/run", { paths: [programDirectory] });
  } catch {
    return undefined;
  }
}

/**
 * Splits a `nodeargs` runtime option ("--max-old-space-size=4096 --enable-source-maps") into arguments.
 * @param {unknown} value the option value
 * @returns {string[]} the arguments
 */
function splitNodeArgs(value) {
  return typeof value === "string" ? value.split(/\s+/).filter((s) => s.length > 0) : [];
}

/**
 * The gRPC LanguageRuntime service.
 */
class LanguageHost {
  /**
   * @param {HostArgs} args the parsed command line
   */
  constructor(args) {
    /** @type {string} */
    this.engineAddress = args.engineAddress;
    /** @type {string} */
    this.tracing = args.tracing;
    /** @type {Set<import("node:child_process").ChildProcess>} running programs */
    this.children = new Set();
  }

  /**
   * Builds the handler map passed to grpc.Server#addService. Methods not listed answer UNIMPLEMENTED.
   * @returns {Record<string, Function>} the handlers
   */
  handlers() {
    /**
     * Wraps a synchronous or async handler: logs the call, turns exceptions into INTERNAL errors.
     * @param {string} name RPC name for the trace
     * @param {(request: any) => any} fn handler returning the response message (or a promise of it)
     * @returns {Function} a grpc-js unary handler
     */
    const unary = (name, fn) => (call, callback) => {
      trace(`rpc ${name}`);
      Promise.resolve()
        .then(() => fn(call.request))
        .then(
          (response) => callback(null, response),
          (err) => {
            trace(`rpc ${name} failed: ${err && err.stack ? err.stack : err}`);
            callback({ code: grpc.status.INTERNAL, details: String(err && err.message ? err.message : err) });
          },
        );
    };
    return {
      handshake: unary("Handshake", (req) => this.handshake(req)),
      getPluginInfo: unary("GetPluginInfo", () => {
        const info = new pluginPb.PluginInfo();
        info.setVersion(HOST_VERSION);
        return info;
      }),
      // Our programs need no resource plugin besides `pulumi-nodejs`, the dynamic-provider plugin that ships
      // with @pulumi/pulumi and that the engine finds next to the `pulumi` binary on its own. The real Node host
      // scans node_modules for packages with `pulumi.resource: true`; none of ours are, so the list is empty.
      getRequiredPackages: unary("GetRequiredPackages", () => new languagePb.GetRequiredPackagesResponse()),
      getRequiredPlugins: unary("GetRequiredPlugins", () => new languagePb.GetRequiredPluginsResponse()),
      run: unary("Run", (req) => this.run(req)),
      runPlugin: (/** @type {any} */ call) => {
        trace(`rpc RunPlugin kind=${call.request.getKind()}`);
        this.runPlugin(call);
      },
      getProgramDependencies: unary("GetProgramDependencies", (req) => this.programDependencies(req)),
      about: unary("About", () => {
        const res = new languagePb.AboutResponse();
        res.setExecutable(process.execPath);
        res.setVersion(process.version);
        res.getMetadataMap().set("languageHost", `pulumi-privnet ${HOST_VERSION}`);
        return res;
      }),
      cancel: unary("Cancel", () => {
        this.killChildren("SIGINT");
        return new emptyPb.Empty();
      }),
    };
  }

  /**
   * Handshake: only sent by the CLI when it attaches to an already running host (PULUMI_DEBUG_LANGUAGES).
   * @param {any} req pulumirpc.LanguageHandshakeRequest
   * @returns {any} pulumirpc.LanguageHandshakeResponse
   */
  handshake(req) {
    if (req.getEngineAddress()) {
      this.engineAddress = req.getEngineAddress();
    }
    return new languagePb.LanguageHandshakeResponse();
  }

  /**
   * Run: executes the program with `@pulumi/pulumi/cmd/run` in a Node child process (our own Node binary,
   * i.e. Node 24) and reports how it ended.
   * @param {any} req pulumirpc.RunRequest
   * @returns {Promise<any>} pulumirpc.RunResponse
   */
  run(req) {
    const info = programInfo(req.getInfo(), req.getPwd(), req.getProgram());
    const response = (/** @type {string} */ error, /** @type {boolean} */ bail) => {
      const res = new languagePb.RunResponse();
      res.setError(error);
      res.setBail(bail);
      return res;
    };

    const runner = locateRunner(info.programDirectory);
    if (!runner) {
      return Promise.resolve(
        response(
          `It looks like the Pulumi SDK has not been installed: could not resolve @pulumi/pulumi/cmd/run from ` +
            `${info.programDirectory}. Have you run npm install?`,
          false,
        ),
      );
    }

    /** @type {Record<string, string>} */
    const config = {};
    req.getConfigMap().forEach((/** @type {string} */ value, /** @type {string} */ key) => {
      config[key] = value;
    });

    const args = [...splitNodeArgs(info.options.nodeargs), runner];
    const add = (/** @type {string} */ flag, /** @type {string | number | undefined} */ value) => {
      if (value !== undefined && value !== "") args.push(`--${flag}`, String(value));
    };
    add("monitor", req.getMonitorAddress());
    add("engine", this.engineAddress);
    add("organization", req.getOrganization());
    add("project", req.getProject());
    add("stack", req.getStack());
    add("root-directory", info.rootDirectory);
    add("pwd", info.programDirectory);
    if (req.getDryrun()) args.push("--dry-run");
    add("parallel", req.getParallel());
    add("tracing", this.tracing);
    args.push(info.entryPoint, ...req.getArgsList());

    /** @type {NodeJS.ProcessEnv} */
    const env = {
      ...process.env,
      PULUMI_CONFIG: JSON.stringify(config),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
    };
    // Runtime options from Pulumi.yaml (`runtime: {name: nodejs, options: {...}}`), as the real host reads them.
    if (info.options.typescript !== false && info.options.typescript !== "false") {
      env.PULUMI_NODEJS_TYPESCRIPT = "true";
    }
    if (typeof info.options.tsconfig === "string" && info.options.tsconfig !== "") {
      env.PULUMI_NODEJS_TSCONFIG_PATH = info.options.tsconfig;
    }
    if (req.getLoaderTarget()) {
      env.PULUMI_LOADER_TARGET = req.getLoaderTarget();
    }

    trace(`run ${process.execPath} ${args.join(" ")} (cwd ${info.programDirectory})`);
    return new Promise((resolve) => {
      const child = childProcess.spawn(process.execPath, args, {
        cwd: info.programDirectory,
        env,
        // The program's output goes straight to our stdout/stderr, which the CLI shows as program output.
        stdio: ["ignore", "inherit", "inherit"],
      });
      this.children.add(child);
      let settled = false;
      const finish = (/** @type {any} */ res) => {
        if (settled) return;
        settled = true;
        this.children.delete(child);
        resolve(res);
      };
      child.on("error", (err) => {
        finish(
          response(`problem executing program (could not run language executor): ${err.message}`, false),
        );
      });
      child.on("exit", (code, signal) => {
        trace(`run exited code=${code} signal=${signal}`);
        if (code === 0) {
          finish(response("", false));
        } else if (code === EXIT_CODE_ERROR_ALREADY_REPORTED) {
          finish(response("", true));
        } else if (code !== null) {
          finish(response(`Program exited with non-zero exit code: ${code}`, false));
        } else {
          finish(response(`Program exited with signal ${signal}`, false));
        }
      });
    });
  }

  /**
   * RunPlugin: starts a plugin written in Node from its directory. Only policy packs are supported (the engine
   * runs a pack whose `PulumiPolicy.yaml` says `runtime: nodejs` this way); other kinds answer UNIMPLEMENTED.
   *
   * The contract, as the engine (pkg/resource/plugin/plugin.go, langruntime_plugin.go) and the upstream Node host
   * keep it:
   * - the answer is a stream of stdout and stderr chunks ended by the exit code; the engine reads the first stdout
   *   line as the plugin's port, shows the rest as the plugin's output, and cancels the call to stop the plugin;
   * - a pack runs as `node @pulumi/pulumi/cmd/run-policy-pack <engine args...> <pack dir>` in the pack's directory,
   *   with the module resolved from there: when it cannot be, the plugin prints Node's "Cannot find module
   *   '@pulumi/pulumi/cmd/run-policy-pack'" and exits, which the engine turns into "the policy pack's
   *   dependencies are not installed; try running npm install ...";
   * - the pack sees the stack through the environment, as packs always have: `PULUMI_CONFIG` (the stack's config,
   *   decrypted), `PULUMI_NODEJS_ORGANIZATION|PROJECT|STACK|DRY_RUN` (and the `PULUMI_*` forms). The engine only
   *   tells the plugin these in its first call, `ConfigureStack`, after the plugin has answered with a port. So
   *   the host answers with the port of a small proxy of its own, waits for that call (or any other), starts the
   *   pack with the environment it gives, and from then on forwards every call to the pack unchanged.
   * @param {any} call the server-streaming call (request: pulumirpc.RunPluginRequest)
   * @returns {void}
   */
  runPlugin(call) {
    const req = call.request;
    if (req.getKind() !== "analyzer") {
      call.emit("error", {
        code: grpc.status.UNIMPLEMENTED,
        details: `pulumi-privnet's language host runs policy packs only, not ${req.getKind() || "this"} plugins`,
      });
      return;
    }
    const info = programInfo(req.getInfo(), req.getPwd(), ".");
    let ended = false;
    const send = (/** @type {"stdout" | "stderr"} */ stream, /** @type {Buffer | string} */ data) => {
      if (ended) return;
      const res = new languagePb.RunPluginResponse();
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
      if (stream === "stdout") res.setStdout(bytes);
      else res.setStderr(bytes);
      call.write(res);
    };
    const exit = (/** @type {number} */ code) => {
      if (ended) return;
      const res = new languagePb.RunPluginResponse();
      res.setExitcode(code);
      call.write(res);
      ended = true;
      call.end();
    };

    let runner;
    try {
      runner = require.resolve(RUN_POLICY_PACK, { paths: [info.programDirectory] });
    } catch {
      // The engine recognises Node's own words for this and tells the user to install the pack's dependencies.
      send("stderr", `Error: Cannot find module '${RUN_POLICY_PACK}' from ${info.programDirectory}\n`);
      exit(1);
      return;
    }

    /** @type {Record<string, string>} */
    const env = {};
    for (const entry of req.getEnvList()) {
      const eq = entry.indexOf("=");
      if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    if (info.options.typescript !== false && info.options.typescript !== "false") {
      env.PULUMI_NODEJS_TYPESCRIPT = "true";
    }
    if (typeof info.options.tsconfig === "string" && info.options.tsconfig !== "") {
      env.PULUMI_NODEJS_TSCONFIG_PATH = info.options.tsconfig;
    }
    const args = [
      ...splitNodeArgs(info.options.nodeargs),
      runner,
      ...req.getArgsList(),
      info.programDirectory,
    ];

    const proxy = new PolicyProxy((configure) => {
      for (const [k, v] of Object.entries(stackEnv(configure))) env[k] = v;
      trace(`run-plugin ${process.execPath} ${args.join(" ")} (cwd ${info.programDirectory})`);
      const child = childProcess.spawn(process.execPath, args, {
        cwd: info.programDirectory,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      this.children.add(child);
      child.on("exit", () => this.children.delete(child));
      child.stderr.on("data", (chunk) => send("stderr", chunk));
      return child;
    }, send);
    proxy.listen().then(
      (port) => send("stdout", `${port}\n`),
      (err) => {
        send(
          "stderr",
          `pulumi-privnet language host: could not start the policy pack proxy: ${err.message}\n`,
        );
        exit(1);
      },
    );
    proxy.exited.then((code) => {
      trace(`run-plugin exited code=${code}`);
      exit(code);
    });
    // The engine cancels the call to stop the plugin.
    call.on("cancelled", () => {
      trace("run-plugin cancelled by the engine");
      ended = true;
      proxy.close();
    });
  }

  /**
   * GetProgramDependencies (`pulumi about`): the direct dependencies of the program's package.json with the
   * versions installed. Transitive dependencies are not listed even when asked for.
   * @param {any} req pulumirpc.GetProgramDependenciesRequest
   * @returns {any} pulumirpc.GetProgramDependenciesResponse
   */
  programDependencies(req) {
    const info = programInfo(req.getInfo(), req.getPwd(), req.getProgram());
    let dir = info.programDirectory;
    let manifest = path.join(dir, "package.json");
    while (!fs.existsSync(manifest) && path.dirname(dir) !== dir) {
      dir = path.dirname(dir);
      manifest = path.join(dir, "package.json");
    }
    const pkg = readJson(manifest);
    const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).sort();
    const res = new languagePb.GetProgramDependenciesResponse();
    for (const name of names) {
      let version = "";
      try {
        version = readJson(require.resolve(`${name}/package.json`, { paths: [dir] })).version || "";
      } catch {
        // Not installed, or its exports map hides package.json: report it without a version.
      }
      const dep = new languagePb.DependencyInfo();
      dep.setName(name);
      dep.setVersion(version);
      res.addDependencies(dep);
    }
    return res;
  }

  /**
   * Sends a signal to every running program.
   * @param {NodeJS.Signals} signal the signal
   * @returns {void}
   */
  killChildren(signal) {
    for (const child of this.children) {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    }
  }
}

/** The module that serves a Node policy pack, shipped in @pulumi/pulumi and resolved from the pack's directory. */
const RUN_POLICY_PACK = "@pulumi/pulumi/cmd/run-policy-pack";

/**
 * The environment a policy pack learns the stack from, out of the engine's ConfigureStack request (the variables
 * the upstream Node host and the engine's own launcher set).
 * @param {any} configure a pulumirpc.AnalyzerStackConfigureRequest, or undefined when none came
 * @returns {Record<string, string>} the variables to add
 */
function stackEnv(configure) {
  if (!configure) return {};
  /** @type {Record<string, string>} */
  const out = {};
  const set = (/** @type {string} */ key, /** @type {string} */ value) => {
    if (value !== "") {
      out[`PULUMI_NODEJS_${key}`] = value;
      out[`PULUMI_${key}`] = value;
    }
  };
  set("ORGANIZATION", configure.getOrganization());
  set("PROJECT", configure.getProject());
  set("STACK", configure.getStack());
  set("DRY_RUN", String(configure.getDryRun()));
  /** @type {Record<string, string>} */
  const config = {};
  configure.getConfigMap().forEach((/** @type {string} */ v, /** @type {string} */ k) => {
    config[k] = v;
  });
  if (Object.keys(config).length > 0) out.PULUMI_CONFIG = JSON.stringify(config);
  return out;
}

/** Messages pass through the proxy as bytes: it decodes only ConfigureStack. */
const passBytes = (/** @type {Buffer} */ b) => b;

/**
 * The Analyzer service the engine talks to while a policy pack starts: it answers Handshake itself, keeps the
 * ConfigureStack request, starts the pack (`start`) on the first call that needs it, and forwards every call to
 * the pack as raw bytes.
 */
class PolicyProxy {
  /**
   * @param {(configure: any) => import("node:child_process").ChildProcessWithoutNullStreams} start starts the
   *   pack with the stack's configuration (undefined when the engine sent none)
   * @param {(stream: "stdout" | "stderr", data: Buffer | string) => void} output where the pack's output goes
   */
  constructor(start, output) {
    this.start = start;
    this.output = output;
    /** @type {any} the engine's ConfigureStack request, once received */
    this.configure = undefined;
    /** @type {Promise<any> | undefined} a client of the pack, once started */
    this.client = undefined;
    /** @type {import("node:child_process").ChildProcess | undefined} */
    this.child = undefined;
    this.server = new grpc.Server({
      "grpc.max_receive_message_length": 400 * 1024 * 1024,
      "grpc.max_send_message_length": 400 * 1024 * 1024,
    });
    /** @type {(code: number) => void} */
    let settle = () => {};
    /** @type {Promise<number>} resolves with the pack's exit code (1 when it could not start) */
    this.exited = new Promise((resolve) => (settle = resolve));
    this.settle = (/** @type {number} */ code) => {
      settle(code);
      this.server.forceShutdown();
    };
    /** @type {Record<string, Function>} */
    const handlers = {};
    /** @type {Record<string, any>} */
    const definition = {};
    for (const [name, method] of Object.entries(analyzerGrpc.AnalyzerService)) {
      definition[name] = {
        ...method,
        requestSerialize: passBytes,
        requestDeserialize: passBytes,
        responseSerialize: passBytes,
        responseDeserialize: passBytes,
      };
      handlers[name] = (/** @type {any} */ call, /** @type {Function} */ callback) =>
        this.handle(name, method.path, call.request, callback);
    }
    this.server.addService(definition, handlers);
  }

  /**
   * Listens on a free loopback port.
   * @returns {Promise<number>} the port
   */
  listen() {
    return new Promise((resolve, reject) => {
      this.server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) =>
        err ? reject(err) : resolve(port),
      );
    });
  }

  /**
   * Answers one call from the engine.
   * @param {string} name the method
   * @param {string} route its full path
   * @param {Buffer} request the request's bytes
   * @param {Function} callback the gRPC callback
   * @returns {void}
   */
  handle(name, route, request, callback) {
    trace(`policy proxy ${name}`);
    if (name === "handshake") {
      callback(null, Buffer.alloc(0)); // an empty AnalyzerHandshakeResponse
      return;
    }
    if (name === "cancel" && !this.client) {
      callback(null, Buffer.alloc(0)); // nothing runs yet: nothing to cancel (an empty google.protobuf.Empty)
      return;
    }
    if (name === "configureStack" && !this.client) {
      try {
        this.configure = analyzerPb.AnalyzerStackConfigureRequest.deserializeBinary(request);
      } catch (err) {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: String(err) });
        return;
      }
    }
    this.ensureStarted().then(
      (client) =>
        client.makeUnaryRequest(route, passBytes, passBytes, request, (/** @type {any} */ err, res) => {
          // An older pack without ConfigureStack: the engine accepts that answer from it, so pass it on.
          callback(err, res);
        }),
      (err) =>
        callback({ code: grpc.status.UNAVAILABLE, details: `policy pack not started: ${err.message}` }),
    );
  }

  /**
   * Starts the pack once, reads its port from the first line of its stdout, and connects to it.
   * @returns {Promise<any>} a gRPC client of the pack
   */
  ensureStarted() {
    if (this.client) return this.client;
    this.client = new Promise((resolve, reject) => {
      const child = this.start(this.configure);
      this.child = child;
      let port = "";
      let connected = false;
      child.stdout.on("data", (/** @type {Buffer} */ chunk) => {
        if (connected) {
          this.output("stdout", chunk);
          return;
        }
        const text = chunk.toString("utf8");
        const nl = text.indexOf("\n");
        port += nl < 0 ? text : text.slice(0, nl);
        if (nl < 0) return;
        connected = true;
        const rest = text.slice(nl + 1);
        if (rest) this.output("stdout", rest);
        const n = Number(port.trim());
        if (!Number.isInteger(n) || n <= 0 || n > 65535) {
          reject(new Error(`the policy pack wrote ${JSON.stringify(port.trim())} where its port belongs`));
          return;
        }
        resolve(new grpc.Client(`127.0.0.1:${n}`, grpc.credentials.createInsecure()));
      });
      child.on("error", (err) => {
        reject(err);
        this.settle(1);
      });
      child.on("exit", (code, signal) => {
        if (!connected) reject(new Error(`the policy pack exited (${code ?? signal}) before it listened`));
        this.settle(code ?? 1);
      });
    });
    return this.client;
  }

  /**
   * Stops the pack (SIGINT, as the engine stops plugins) and the proxy.
   * @returns {void}
   */
  close() {
    if (this.child && this.child.exitCode === null) this.child.kill("SIGINT");
    if (!this.child) this.settle(0);
  }
}

/**
 * Periodically checks that the engine still answers; calls onDead when it does not.
 * UNIMPLEMENTED (no health service) counts as alive, as in Pulumi's own hosts.
 * @param {string} address the engine's address
 * @param {() => void} onDead called once when the engine is gone
 * @returns {void}
 */
function watchEngine(address, onDead) {
  if (!address) return;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const timer = setInterval(() => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      () => Buffer.alloc(0), // an empty HealthCheckRequest
      (buf) => buf,
      {},
      { deadline: Date.now() + 10_000 },
      (err) => {
        if (err && err.code !== grpc.status.UNIMPLEMENTED) {
          trace(`engine health check failed: ${err.message}`);
          clearInterval(timer);
          onDead();
        }
      },
    );
  }, ENGINE_HEALTHCHECK_MS);
  timer.unref();
}

/**
 * Entry point: serve LanguageRuntime on 127.0.0.1:<random port> and print the port.
 * @returns {void}
 */
function main() {
  const args = parseArgs(process.argv.slice(2));
  const host = new LanguageHost(args);
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  server.addService(languageGrpc.LanguageRuntimeService, host.handlers());

  let stopping = false;
  const stop = (/** @type {string} */ why, /** @type {NodeJS.Signals} */ signal) => {
    if (stopping) return;
    stopping = true;
    trace(`stopping: ${why}`);
    host.killChildren(signal);
    server.forceShutdown();
    // Leave a moment for children to receive the signal, then go.
    setTimeout(() => process.exit(0), 100).unref();
  };
  // The CLI stops plugins with SIGINT to the process group (then SIGKILL after 5 s).
  process.on("SIGINT", () => stop("SIGINT", "SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM", "SIGTERM"));
  // The CLI holds the write end of our stdin: EOF means it is gone. Only trust that for a pipe or socket
  // (a host started by hand may have a terminal or /dev/null there).
  try {
    const st = fs.fstatSync(0);
    if (st.isFIFO() || st.isSocket()) {
      process.stdin.on("end", () => stop("stdin closed (engine exited)", "SIGTERM"));
      process.stdin.on("error", () => stop("stdin error", "SIGTERM"));
      process.stdin.resume();
    }
  } catch {
    // No stdin at all.
  }
  watchEngine(args.engineAddress, () => stop("engine unreachable", "SIGTERM"));

  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
      process.stderr.write(`pulumi-privnet language host: could not listen: ${err.message}\n`);
      process.exit(1);
    }
    trace(`listening on 127.0.0.1:${port} engine=${args.engineAddress} node=${process.version}`);
    // The first stdout line is how the CLI learns our port.
    process.stdout.write(`${port}\n`);
  });
}

if (require.main === module) {
  main();
}

module.exports = { parseArgs, programInfo, locateRunner, LanguageHost, stackEnv };
