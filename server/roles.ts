/**
 * The role matrix. The spec leaves it open (part 5, rule 5); ours follows the real service's roles:
 *
 * | role          | what it may do                                                                        |
 * |---------------|---------------------------------------------------------------------------------------|
 * | owner         | everything, including deleting the account                                            |
 * | admin         | everything except deleting the account                                                |
 * | network_admin | manage the network (peers, groups, policies, posture checks, routes, networks, DNS,   |
 * |               | setup keys, ingress); read users, account, events and reverse-proxy services          |
 * | auditor       | read everything                                                                       |
 * | billing_admin | read the account                                                                      |
 * | user          | read itself and its own peers; manage its own tokens                                   |
 *
 * Every user may read itself (`/api/users/current`) and manage its own personal access tokens. A password can
 * only be changed by its user (spec part 5, rule 4), whatever the role. Object-level rules live in the handlers:
 * nobody changes the owner's role, blocks or deletes the owner, or mints or deletes the owner's tokens but the
 * owner; nobody blocks, deletes or changes the role of itself.
 */
import { FAMILIES, type ApiRoute, type PermissionModule } from "../api/routes";

export type Module = PermissionModule;
/** Every module, as the route families name them (api/routes.ts FAMILIES), in that order. */
export const MODULES: readonly Module[] = [...new Set(Object.values(FAMILIES))];

export type Op = "read" | "create" | "update" | "delete";
export type Grants = Record<Module, Record<Op, boolean>>;

const NONE = { read: false, create: false, update: false, delete: false };
const READ = { read: true, create: false, update: false, delete: false };
const ALL = { read: true, create: true, update: true, delete: true };

function grants(fill: (m: Module) => Record<Op, boolean>): Grants {
  return Object.fromEntries(MODULES.map((m) => [m, { ...fill(m) }])) as Grants;
}

const NETWORK_MODULES: readonly Module[] = [
  "peers",
  "groups",
  "policies",
  "posture_checks",
  "routes",
  "networks",
  "dns",
  "setup_keys",
  "ingress",
];

/** What each role may do per module. */
export function grantsFor(role: string): Grants {
  switch (role) {
    case "owner":
    case "admin":
      return grants(() => ALL);
    case "network_admin":
      return grants((m) =>
        NETWORK_MODULES.includes(m)
          ? ALL
          : m === "users" || m === "accounts" || m === "events" || m === "services"
            ? READ
            : NONE,
      );
    case "auditor":
      return grants(() => READ);
    case "billing_admin":
      return grants((m) => (m === "accounts" ? READ : NONE));
    default:
      return grants((m) => (m === "peers" ? READ : NONE));
  }
}

function opOf(route: ApiRoute): Op {
  switch (route.method) {
    case "GET":
      return "read";
    case "POST":
      return route.operationId.startsWith("create") ? "create" : "update";
    case "PUT":
      return "update";
    case "DELETE":
      return "delete";
  }
}

/** The User `permissions` object for a role. */
export function permissionsFor(role: string): { is_restricted: boolean; modules: Grants } {
  return { is_restricted: role === "user", modules: grantsFor(role) };
}

/**
 * Whether `role` may call `route`. Self-service routes (own user, own tokens, own password) are decided here
 * too; handlers add object-level checks (e.g. a regular user sees only its own peers, only the owner may
 * delete the account).
 */
export function allowed(
  role: string,
  route: ApiRoute,
  userId: string,
  params: Record<string, string>,
): boolean {
  if (route.operationId === "getCurrentUser") return true;
  // The catalog of LLM provider types is the same for everyone: the service lets every signed-in user read it.
  if (route.operationId === "listAgentNetworkCatalogProviders") return true;
  if (route.family === "tokens" && params.userId === userId) return true;
  // Not even an owner or admin may set another user's password.
  if (route.operationId === "changeUserPassword") return params.userId === userId;
  if (route.operationId === "deleteAccount") return role === "owner";
  return grantsFor(role)[FAMILIES[route.family]][opOf(route)];
}
