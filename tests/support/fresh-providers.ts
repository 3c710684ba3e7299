/**
 * The providers as a new provider process has them: the modules loaded afresh (jest.isolateModulesAsync), so
 * their per-process state (the read cache, the client and its token bucket, the diagnostics sinks) starts empty.
 */
import type * as Diagnostics from "../../provider/diagnostics";
import type { PrivnetProvider } from "../../provider/lifecycle";
import type * as ReadBatch from "../../provider/read-batch";
import type * as Registry from "../../provider/registry";

export interface FreshProviders {
  provider(name: string): PrivnetProvider;
  readBatch: typeof ReadBatch;
  diagnostics: typeof Diagnostics;
}

/** Loads and configures every provider for `server`, with `config` (stack config keys) on top. */
export async function freshProviders(
  server: { url: string; token: string },
  config: Record<string, string | boolean> = {},
): Promise<FreshProviders> {
  let registry!: typeof Registry;
  let readBatch!: typeof ReadBatch;
  let diagnostics!: typeof Diagnostics;
  await jest.isolateModulesAsync(async () => {
    registry = await import("../../provider/registry");
    readBatch = await import("../../provider/read-batch");
    diagnostics = await import("../../provider/diagnostics");
  });
  const values: Record<string, string> = {
    "privnet:apiUrl": server.url,
    "privnet:token": server.token,
    ...config,
  };
  for (const p of registry.PROVIDERS)
    await p.configure({ config: { get: (k: string) => values[k] } } as never);
  return {
    provider: (name) => {
      const p = registry.PROVIDERS.find((x) => x.spec.name === name);
      if (!p) throw new Error(`no provider ${name}`);
      return p;
    },
    readBatch,
    diagnostics,
  };
}
