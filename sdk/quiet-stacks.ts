/**
 * Registering a resource makes the Pulumi Node SDK create several promises per property (the resource's URN, id
 * and every input and output: four each), and it formats a stack trace for every one (`new Error().stack`, kept
 * only to print if the promise is leaked). Under ts-node and source-map-support each trace maps every frame
 * through their hooks: with a class's dozen properties, that is most of a resource's cost in the program
 * (bench: `preview` per resource, BENCHMARKS.md section 10). The classes therefore register with
 * `Error.stackTraceLimit` at 0 for the synchronous part of registration (the SDK creates those promises before
 * its first await), and restore it at once:
 *
 * - The resource's source position the SDK reports to the engine is unaffected: the SDK raises the limit itself
 *   to take it.
 * - An error thrown while registering (an invalid option, say) gets the stack of the class's caller again, as it
 *   would have had, so the user sees their line.
 * - A promise-leak report names the resource and property as before, without the SDK's internal frames.
 */

/** Lowers the stack-trace limit for a registration; returns the limit to restore. */
export function quietStacks(): number {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return limit;
}

/**
 * Restores the limit. With an error thrown during registration: the error, its stack retaken at the class's
 * caller (`ctor` excluded) when it was made without frames.
 */
export function restoreStacks(
  limit: number,
  err?: unknown,
  ctor?: (abstract new (...args: never[]) => unknown) | ((...args: never[]) => unknown),
): unknown {
  Error.stackTraceLimit = limit;
  if (err instanceof Error && ctor && !/\n\s+at /.test(err.stack ?? "")) Error.captureStackTrace(err, ctor);
  return err;
}
