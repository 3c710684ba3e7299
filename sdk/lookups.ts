/**
 * Lookup functions: plain async functions that read objects from the service (usable in `pulumi preview`), with
 * camelCase results. The table of lookups is sdk/lookups/table.ts; the functions and their types are generated
 * from it (`npm run gen`); the reference is docs/reference/lookups.md.
 */
export * from "./lookups/functions";
export type * from "./lookups/types";
export { PrivnetLookupError, isPrivnetLookupError, type LookupOptions } from "./lookups/runner";
export { LOOKUPS } from "./lookups/table";
export type { LookupFailureReason, LookupInfo } from "./lookups/spec";
