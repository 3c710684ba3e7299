/** posture-checks handlers (to be implemented). */
import type { Handlers } from "../context";

export const postureChecksHandlers: Handlers = {};
