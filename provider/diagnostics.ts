/**
 * Warnings (and progress notes) from the provider to the person running Pulumi.
 *
 * The dynamic-provider host runs our code in its own process and gives it no logger; its first argument is the
 * engine's address. A warning is sent there as a Log call, so `pulumi preview` and `pulumi up` print it among
 * their diagnostics. Outside the host (tests, scripts), or when the engine cannot be reached, it goes to stderr.
 * A sink installed with {@link setWarningSink} takes every warning instead (tests read them); {@link info} notes
 * go to the sink of {@link setInfoSink}, else the same way at the engine's info level (stderr: `info: ...`).
 *
 * Warnings name the resource and the field, never a secret value: callers pass values of non-secret fields only.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import { createRequire } from "node:module";

type Sink = (message: string) => void;

let sink: Sink | undefined;
let infoSink: Sink | undefined;

/** Sends every warning to `fn` (undefined restores the default). Returns the previous sink. */
export function setWarningSink(fn: Sink | undefined): Sink | undefined {
  const previous = sink;
  sink = fn;
  return previous;
}

/** Sends every {@link info} note to `fn` (undefined restores the default). Returns the previous sink. */
export function setInfoSink(fn: Sink | undefined): Sink | undefined {
  const previous = infoSink;
  infoSink = fn;
  return previous;
}

type Severity = "warning" | "info";

interface EngineLogger {
  log(message: string, severity: Severity): Promise<void>;
}

let engine: EngineLogger | null | undefined;
let engineAddress: string | undefined;

/**
 * Sends warnings and notes to the engine at `address` (the resource plugin is told it on its command line and in
 * its handshake). Without it, the dynamic-provider host's address is found on its command line.
 */
export function setEngineAddress(address: string): void {
  if (address === engineAddress) return;
  engineAddress = address;
  engine = undefined;
}

/** The address of the engine this process reports to, or undefined outside a host or the plugin. */
export function currentEngineAddress(): string | undefined {
  return hostAddress();
}

function hostAddress(): string | undefined {
  if (engineAddress) return engineAddress;
  const main = require.main?.filename ?? "";
  const address = process.argv[2];
  if (!/[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(main) || !address || !address.includes(":")) {
    return undefined;
  }
  return address;
}

/** The engine connection of the dynamic-provider host or the plugin, or null when there is none. */
function engineLogger(): EngineLogger | null {
  if (engine !== undefined) return engine;
  engine = null;
  const address = hostAddress();
  if (!address) return engine;
  try {
    // The SDK's generated engine client, with the gRPC library it was generated against.
    const fromSdk = createRequire(require.resolve("@pulumi/pulumi/proto/engine_grpc_pb"));
    // A require is untyped: these annotations say what the SDK's modules export.
    const grpc: typeof grpcTypes = fromSdk("@grpc/grpc-js");
    const rpc: {
      EngineClient: new (
        address: string,
        creds: unknown,
      ) => {
        log(req: unknown, cb: (err: Error | null) => void): void;
      };
    } = fromSdk("./engine_grpc_pb");
    const pb: {
      LogRequest: new () => { setSeverity(s: number): void; setMessage(m: string): void };
      LogSeverity: { WARNING: number; INFO: number };
    } = fromSdk("./engine_pb");
    const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
    engine = {
      log: (message, severity) =>
        new Promise((resolve, reject) => {
          const req = new pb.LogRequest();
          req.setSeverity(severity === "info" ? pb.LogSeverity.INFO : pb.LogSeverity.WARNING);
          req.setMessage(message);
          client.log(req, (err) => (err ? reject(err) : resolve()));
        }),
    };
  } catch {
    engine = null;
  }
  return engine;
}

async function send(message: string, severity: Severity): Promise<void> {
  const logger = engineLogger();
  if (logger) {
    try {
      await logger.log(message, severity);
      return;
    } catch {
      // Fall through: the message must not be lost because the engine is gone.
    }
  }
  process.stderr.write(`${severity}: ${message}\n`);
}

/** Tells the user about something they should know but that does not stop the operation. */
export async function warn(message: string): Promise<void> {
  if (sink) {
    sink(message);
    return;
  }
  await send(message, "warning");
}

/** Tells the user how a long operation is going (nothing is wrong): the engine's info level. */
export async function info(message: string): Promise<void> {
  if (infoSink) {
    infoSink(message);
    return;
  }
  await send(message, "info");
}
