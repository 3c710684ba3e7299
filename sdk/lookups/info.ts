/** The public facts about a lookup (the registry exported as `LOOKUPS`), declared apart from the table. */

/** Public facts about a lookup (the registry exported as `LOOKUPS`). */
export interface LookupInfo {
  name: string;
  description: string;
  /** TypeScript signature, e.g. `getPeer(args: GetPeerArgs, opts?: LookupOptions): Promise<PeerResult>`. */
  signature: string;
  /** Name of the arguments type, when the function takes an arguments object. */
  argsType?: string;
  /** Name of the result type (an array of it when `many`). */
  resultType: string;
  many: boolean;
  /** The API operations it calls, as `GET /api/peers/{peerId}`. */
  operations: string[];
  /** Available only against the cloud offering (`privnet-server --cloud`). */
  cloudOnly: boolean;
  /** Available only with the embedded identity provider (`privnet-server --embedded-idp`). */
  embeddedIdpOnly: boolean;
}
