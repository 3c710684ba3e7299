/**
 * Lookup functions: plain async functions that read objects from the service (usable in `pulumi preview`), with
 * camelCase results. The table of lookups is sdk/lookups/table.ts; the functions and their types are generated
 * from it (`npm run gen`); the reference is docs/reference/lookups.md.
 *
 * Nothing of them loads with the package: each function's module loads when a program first uses one
 * (./lookups/exports.ts), the table and the API's schemas with the first lookup that runs, `LOOKUPS` when read.
 */
import type { LookupInfo } from "./lookups/info";
import { lazyLoad } from "./utilities";

export * from "./lookups/exports";
export type * from "./lookups/types";
export { PrivnetLookupError, isPrivnetLookupError } from "./lookups/errors";
export type { LookupOptions } from "./lookups/options";
export type { LookupFailureReason } from "./lookups/errors";
export type { LookupInfo } from "./lookups/info";

/** Every lookup: name, description, TypeScript signature, result type and the API operations it calls. */
export declare const LOOKUPS: readonly LookupInfo[];
lazyLoad(exports, ["LOOKUPS"], () => require("./lookups/table"));
