/**
 * `pulumi-resource-privnet`: the process the engine starts for the resource plugin. It serves the provider
 * (./server.ts) on a free loopback port and prints that port as its first line of stdout, as the engine expects;
 * the engine's address is its first argument (warnings go there). It stops when the engine signals it (SIGINT, as
 * the engine does, or SIGTERM) or closes its stdin (the engine is gone): calls in flight are answered first.
 *
 * The launcher (bin/pulumi-resource-privnet) runs `dist/plugin/bundle.js`, this module and everything it loads in
 * one file (scripts/bundle-plugin.js), which calls {@link start}; `dist/plugin/main.js` runs the same. Node's own
 * compile cache, which the launcher turns on, keeps the compiled file between starts; Node writes it as the process
 * exits.
 */
import { fstatSync } from "node:fs";
import { setEngineAddress } from "../provider/diagnostics";
import { serve } from "./server";

export async function main(argv: string[]): Promise<void> {
  const engine = argv.find((a) => !a.startsWith("-"));
  if (engine) setEngineAddress(engine);
  const { port, stop: stopServing } = await serve();
  // Ready to stop before the port is out: the engine may stop the plugin as soon as it has read the port.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void stopServing().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // The engine holds the other end of a pipe on our stdin (it never writes to it): its end means the engine is gone.
  // (A terminal or /dev/null is no engine's.)
  if (stdinIsPipe()) {
    process.stdin.on("end", stop);
    process.stdin.on("error", stop);
    process.stdin.resume();
  }
  process.stdout.write(`${port}\n`);
}

function stdinIsPipe(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isSocket(); // a pipe (Go's exec), or a socket pair (Node's child_process)
  } catch {
    return false;
  }
}

/** Runs the plugin with this process's arguments; a failure to start is printed and ends the process. */
export function start(): void {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`pulumi-resource-privnet: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

if (require.main === module) start();
