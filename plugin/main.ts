/**
 * `pulumi-resource-privnet`: the process the engine starts for the resource plugin. It serves the provider on a
 * free loopback port and prints that port as its first line of stdout, as the engine expects; the engine's
 * address is its first argument (warnings go there). It stops when the engine closes its stdin or signals it.
 *
 * The launcher runs `dist/plugin/bundle.js` (this module and everything it loads in one file, made by
 * scripts/bundle-plugin.js at build time), which calls {@link start}; `dist/plugin/main.js` runs the same.
 */
import { setEngineAddress } from "../provider/diagnostics";
import { serve } from "./server";

export async function main(argv: string[]): Promise<void> {
  const engine = argv.find((a) => !a.startsWith("-"));
  if (engine) setEngineAddress(engine);
  const { port, server } = await serve();
  process.stdout.write(`${port}\n`);
  const stop = () => void server.shutdown().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** Runs the plugin with this process's arguments; a failure to start is printed and ends the process. */
export function start(): void {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`pulumi-resource-privnet: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

if (require.main === module) start();
