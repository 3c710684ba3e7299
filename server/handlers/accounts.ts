/** accounts handlers (to be implemented). */
import type { Handlers } from "../context";

export const accountsHandlers: Handlers = {};
