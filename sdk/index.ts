/**
 * pulumi-privnet: Pulumi resources and lookups for a private overlay-network service.
 *
 * Credentials: `privnet:apiUrl` and `privnet:token` in stack config (`pulumi config set --secret privnet:token`),
 * overridden by the `PRIVNET_API_URL` and `PRIVNET_TOKEN` environment variables.
 */
import { installDebugRedaction } from "./redact-debug";

// Before any resource registers: keep secret outputs out of the SDK's debug log (see redact-debug.ts).
installDebugRedaction();

export * from "./resources";
export * from "./lookups";
export { DEFAULT_API_URL } from "../provider/config";
