/** users handlers (to be implemented). */
import type { Handlers } from "../context";

export const usersHandlers: Handlers = {};
