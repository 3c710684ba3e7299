/**
 * The API URL used when neither a provider's arguments, stack config nor the environment name one: where
 * `privnet-server` listens by default. Apart from ./credentials.ts so that the package's public types reach
 * nothing of the client.
 */
export const DEFAULT_API_URL = "http://127.0.0.1:8080";
