/**
 * What the generated indexes (sdk/resources, sdk/components, sdk/plugin, sdk/lookups) use to load a module when a
 * program first uses one of its names, not when it imports the package: Pulumi's own generated SDKs do the same
 * with their `utilities.lazyLoad`. A program that declares groups loads the Group class, not every kind's class,
 * every lookup and the API's schemas. Each name stays an enumerable property of the index, so `Object.keys` and
 * `import * as privnet` see every one.
 */

/**
 * Defines each of `names` on `target` as a getter that loads `load()` (Node's require cache keeps it) and answers
 * that module's export of the same name.
 */
export function lazyLoad(
  target: object,
  names: readonly string[],
  load: () => Record<string, unknown>,
): void {
  for (const name of names) {
    Object.defineProperty(target, name, {
      enumerable: true,
      configurable: true,
      get: () => load()[name],
    });
  }
}
