/** setup-keys handlers (to be implemented). */
import type { Handlers } from "../context";

export const setupKeysHandlers: Handlers = {};
