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
//           About and Cancel are implemented. Everything else (InstallDependencies, RunPlugin, GenerateProject,
//           Pack, Link, Template, ...) answers UNIMPLEMENTED, which the CLI tolerates where it matters.
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

module.exports = { parseArgs, programInfo, locateRunner, LanguageHost };
