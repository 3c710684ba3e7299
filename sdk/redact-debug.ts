/**
 * The Pulumi Node SDK logs every RegisterResource / ReadResource / Invoke response at debug level, and those
 * responses carry secret outputs in plaintext (inside the secret envelope the engine sends to programs). Debug
 * messages stay hidden in the default display, but `pulumi up --json` (and `--debug`) prints them: a setup
 * key or a personal access token would end up in CI logs. Loading pulumi-privnet therefore wraps the SDK's
 * `log.debug` so that a message carrying a secret has its response part replaced.
 *
 * The wrapper also sends each message with stack traces off (sdk/quiet-stacks.ts): the SDK's `log` makes a
 * keep-alive promise with a formatted stack trace before its first await, and it logs four or five messages per
 * resource, so under ts-node those traces were the largest part of a resource's cost in the program after its
 * registration. The message and its order are unchanged.
 */
import * as log from "@pulumi/pulumi/log";
import { quietStacks, restoreStacks } from "./quiet-stacks";

/** The signature key of Pulumi's secret envelope on the wire. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
const MARK = Symbol.for("pulumi-privnet.redact-debug");

type DebugFn = (msg: string, ...rest: unknown[]) => Promise<void>;

/** The message with everything after `resp:` (or all of it) replaced when it carries a secret. */
export function redactSecretDebug(message: string): string {
  if (!message.includes(SECRET_SIGNATURE)) return message;
  const at = message.indexOf("resp: ");
  const head = at >= 0 ? message.slice(0, at + "resp: ".length) : "";
  return `${head}[redacted by pulumi-privnet: the message carries secret values]`;
}

/** Installs the wrapper once per copy of @pulumi/pulumi. */
export function installDebugRedaction(): void {
  // Cast: the module's exports are read-only in its typings, but are a plain object that can be patched.
  const mod = log as unknown as { debug: DebugFn & { [MARK]?: true } };
  if (mod.debug[MARK]) return;
  const original = mod.debug;
  const wrapped: DebugFn & { [MARK]?: true } = (msg, ...rest) => {
    const text = typeof msg === "string" ? redactSecretDebug(msg) : msg;
    const limit = quietStacks();
    try {
      return original(text, ...rest);
    } finally {
      restoreStacks(limit);
    }
  };
  wrapped[MARK] = true;
  try {
    mod.debug = wrapped;
  } catch {
    // A future SDK may freeze its exports; then there is nothing to wrap.
  }
}
