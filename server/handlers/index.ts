/**
 * Every handler module. Each exports `handlers` (operationId -> handler) and `kinds` (the kinds of document it
 * stores, see StoredKind); the server's handler map, the store's kinds and what may hold a group's id are all
 * taken from this one list.
 *
 * The order matters in one place only: a group still in use is refused with its users named in this order.
 */
import type { Handlers, StoredKind } from "../context";
import * as policies from "./policies";
import * as routes from "./routes";
import * as networks from "./networks";
import * as nameservers from "./nameservers";
import * as dns from "./dns";
import * as setupKeys from "./setup-keys";
import * as users from "./users";
import * as integrations from "./integrations";
import * as scim from "./scim";
import * as notifications from "./notifications";
import * as invites from "./invites";
import * as accounts from "./accounts";
import * as groups from "./groups";
import * as peers from "./peers";
import * as tokens from "./tokens";
import * as postureChecks from "./posture-checks";
import * as identityProviders from "./identity-providers";
import * as ingress from "./ingress";
import * as events from "./events";
import * as reverseProxies from "./reverse-proxies";
import * as agentNetwork from "./agent-network";

export const HANDLER_MODULES = [
  policies,
  routes,
  networks,
  nameservers,
  dns,
  setupKeys,
  users,
  integrations,
  scim,
  notifications,
  invites,
  accounts,
  groups,
  peers,
  tokens,
  postureChecks,
  identityProviders,
  ingress,
  reverseProxies,
  agentNetwork,
  events,
] as const;

type KindsOf<M> = M extends { kinds: infer K } ? keyof K & string : never;

/** The kinds of stored documents: those the handler modules declare. */
export type Kind = KindsOf<(typeof HANDLER_MODULES)[number]>;

/** Every kind with what its module declares about it, in the order of the modules. */
export const KINDS: ReadonlyMap<Kind, StoredKind> = new Map(
  HANDLER_MODULES.flatMap((m) => Object.entries(m.kinds) as [Kind, StoredKind][]),
);

/** Every module's handlers, merged into one map keyed by operationId. */
export const allHandlers: Handlers = Object.fromEntries(
  HANDLER_MODULES.flatMap((m) => Object.entries(m.handlers)),
);
