/**
 * pulumi-privnet: Pulumi resources and lookups for a private overlay-network service.
 *
 * Credentials: an explicit `privnet.Provider` per account (`{ provider }` option), else stack config
 * (`privnet:apiUrl`, `pulumi config set --secret privnet:token`), else the `PRIVNET_API_URL` and `PRIVNET_TOKEN`
 * environment variables.
 *
 * Importing the package loads the names, not what they stand for: each resource class, component and lookup
 * loads when the program first uses it (the generated indexes, sdk/utilities.ts), so a program that declares
 * groups loads the Group class alone (bench/startup.ts measures what the import costs).
 */
import { installDebugRedaction } from "./redact-debug";

// Before any resource registers: keep secret outputs out of the SDK's debug log (see redact-debug.ts).
installDebugRedaction();

export * from "./resources";
export * from "./components";
export { Provider, type ProviderArgs } from "./provider";
export * from "./lookups";
export { DEFAULT_API_URL } from "../model/api-url";
