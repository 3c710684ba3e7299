/**
 * Pulumi's marker for a value not known during preview, on its own so the resource plugin can recognise it without
 * loading the schemas (model/mapping.ts re-exports it).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
