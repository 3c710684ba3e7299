/** identity-providers handlers (to be implemented). */
import type { Handlers } from "../context";

export const identityProvidersHandlers: Handlers = {};
