/**
 * The kinds one process serves, each loaded when the first call for it comes: the provider entry
 * (pulumi-privnet/provider, in the dynamic-provider host) and the resource plugin keep one of these. A process
 * serving a stack of groups loads the Group spec, the lifecycle and the group's API schemas, not the 32 kinds and
 * every schema of the API: the host's first call (Configure, Check and Diff of a group) took 113 ms of CPU with
 * every kind and 75 ms with one (docs/architecture.md, "What a command loads").
 *
 * The provider's settings (stack config or an explicit provider's arguments) are kept here and given to each kind
 * as it loads, and to every kind already loaded when they change: as if every kind had been configured.
 */
import { resolveCredentials } from "../model/credentials";
import { KIND_MODULES } from "./kind-modules";
import type { PrivnetProvider } from "./lifecycle";
import { readBatching } from "./read-batch";

/** A source of the provider's settings, keys without the `privnet:` prefix. */
export type SettingsGetter = (key: "apiUrl" | "token" | "rateLimit" | "batchReads") => string | undefined;

/** True when this version of the package has the resource kind `kind` (a name from a state or a request). */
export function isKind(kind: string): boolean {
  return Object.hasOwn(KIND_MODULES, kind);
}

export class LoadedKinds {
  readonly #loaded = new Map<string, PrivnetProvider>();
  readonly #onLoad: ((kind: string) => void) | undefined;
  #settings: SettingsGetter | undefined;

  /** `onLoad` hears each kind as it loads. */
  constructor(opts: { onLoad?: (kind: string) => void } = {}) {
    this.#onLoad = opts.onLoad;
  }

  /** The provider of `kind`, loaded and configured at its first use; undefined for a kind this version lacks. */
  get(kind: string): PrivnetProvider | undefined {
    const known = this.#loaded.get(kind);
    if (known) return known;
    if (!isKind(kind)) return undefined;
    const provider = (KIND_MODULES[kind] as () => PrivnetProvider)();
    if (this.#settings) provider.configureFrom(this.#settings);
    this.#loaded.set(kind, provider);
    this.#onLoad?.(kind);
    return provider;
  }

  /**
   * Takes the provider's settings: the kinds loaded so far now, the others as they load. Settings that cannot be
   * used (a malformed rate limit) fail here, as they did when every kind was configured at once.
   */
  configure(settings: SettingsGetter): void {
    resolveCredentials(settings);
    readBatching(settings);
    this.#settings = settings;
    for (const p of this.#loaded.values()) p.configureFrom(settings);
  }
}
