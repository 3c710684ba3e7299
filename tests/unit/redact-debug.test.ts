/** Loading the sdk keeps secrets out of the Pulumi SDK's debug log (which `pulumi up --json` prints). */
import * as log from "@pulumi/pulumi/log";
import * as settings from "@pulumi/pulumi/runtime/settings";
import { installDebugRedaction, redactSecretDebug } from "../../sdk/redact-debug";

const SIG = "4dabf18193072939515e22adb298388d";
const response = `urn:pulumi:dev::p::x,id1,key,,,,,${SIG},,,1b47061264138c4ac30d75fd1eb44270,value,,,SETUP-KEY-VALUE`;

test("a debug message carrying a secret loses its response part", () => {
  const msg = `RegisterResource RPC finished: resource:k; err: null, resp: ${response}`;
  expect(redactSecretDebug(msg)).toBe(
    "RegisterResource RPC finished: resource:k; err: null, resp: [redacted by pulumi-privnet: the message carries secret values]",
  );
  expect(redactSecretDebug("RegisterResource RPC finished: resource:g; err: null, resp: urn,id")).toBe(
    "RegisterResource RPC finished: resource:g; err: null, resp: urn,id",
  );
});

test("after install, the SDK's log.debug never passes the secret on", async () => {
  installDebugRedaction();
  installDebugRedaction(); // idempotent
  const printed: string[] = [];
  const spy = jest.spyOn(console, "log").mockImplementation((m: string) => void printed.push(m));
  const s = settings as unknown as { excessiveDebugOutput: boolean };
  const before = s.excessiveDebugOutput;
  s.excessiveDebugOutput = true; // without an engine, debug messages go to console.log
  try {
    await log.debug(`ReadResource RPC finished: x; err: null, resp: ${response}`);
  } finally {
    s.excessiveDebugOutput = before;
    spy.mockRestore();
  }
  expect(printed.join("\n")).toContain("ReadResource RPC finished");
  expect(printed.join("\n")).not.toContain("SETUP-KEY-VALUE");
});

test("log.debug runs without stack traces and restores the limit, also when it throws", async () => {
  installDebugRedaction();
  const limits: number[] = [];
  const s = settings as unknown as { excessiveDebugOutput: boolean };
  const before = s.excessiveDebugOutput;
  const saved = Error.stackTraceLimit;
  s.excessiveDebugOutput = true;
  Error.stackTraceLimit = 25;
  const spy = jest.spyOn(console, "log").mockImplementation(() => void limits.push(Error.stackTraceLimit));
  try {
    await log.debug("Registering resource: t=privnet:index:Group, name=g");
    expect(limits).toEqual([0]);
    expect(Error.stackTraceLimit).toBe(25);
    spy.mockImplementation(() => {
      throw new Error("console is gone");
    });
    expect(() => log.debug("RegisterResource RPC prepared: t=privnet:index:Group, name=g")).toThrow(
      "console is gone",
    );
    expect(Error.stackTraceLimit).toBe(25);
  } finally {
    Error.stackTraceLimit = saved;
    s.excessiveDebugOutput = before;
    spy.mockRestore();
  }
});
