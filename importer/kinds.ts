/**
 * What the importer knows per resource kind beyond the provider's spec: which name reads well in the program, what
 * each object may refer to, and which objects or kinds cannot be written as adopted resources (and why). How a
 * kind is read is the provider's (provider/list.ts, the hooks of singletons and settings): nothing here describes
 * a response's shape. Every kind of provider/registry.ts has an entry (tests/unit/import-plan.test.ts checks
 * this).
 */
import { EDR_VENDORS } from "../api/edr";
import type { OperationId } from "../api/routes";
import type { Listed } from "../provider/spec";
import type { ApiObject } from "./read";

/** An object as read: its kind, id, the API's form (snake_case), parent ids and a readable name. */
export interface Found {
  kind: string;
  id: string;
  object: ApiObject;
  /** Parent ids by Pulumi input name (`networkId`, `zoneId`, `peerId`). */
  parents: Record<string, string>;
  /** The name the program's variable and resource name are derived from. */
  label: string;
}

/** Another object read, by kind and id (for labels that name a related object: a router's network). */
export type Related = (kind: string, id: string) => ApiObject | undefined;

export interface KindDef {
  kind: string;
  /** The comment line above the kind's resources in index.ts. */
  title: string;
  /** The name an object is written under (see {@link Found.label}). */
  label(o: Listed, related: Related): string;
  /**
   * For a kind under parents the account may have none of: an operation that answers 404 when the server does
   * not serve the kind at all (asked only when no object was found, so that such a kind is reported, not empty).
   */
  servedIf?: OperationId;
  /** Why an object of the kind is not written (undefined: it is). */
  exclude?(o: Found): string | undefined;
  /** Why no object of the kind is written (the kind cannot be adopted). */
  notAdoptable?: string;
  /** Written only when asked for (`--peers`). */
  optIn?: boolean;
  /** Kinds whose ids the kind's inputs may hold (for `--kinds`: the objects referred to are written too). */
  refersTo: string[];
}

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));

/** The object's own name. */
const named = (o: Listed): string => str(o.object.name);

/** The local part of an address (`alice@example.com` -> `alice`); other names as they are. */
function personName(name: string, email: string): string {
  const n = name || email;
  return n.includes("@") ? (n.split("@")[0] as string) : n;
}

/** A record's name relative to its zone (`db.corp.example` in `corp.example` -> `db`; the apex -> `apex`). */
export function relativeRecordName(name: string, domain: string): string {
  const n = name.toLowerCase().replace(/\.$/, "");
  const d = domain.toLowerCase().replace(/\.$/, "");
  if (n === d) return "apex";
  return n.endsWith(`.${d}`) ? n.slice(0, -(d.length + 1)) : n;
}

const SINGLETON_NOTE = "one per account: adopted without adoptId";

function edr(vendor: (typeof EDR_VENDORS)[number]): KindDef {
  const name = `Edr${vendor === "vendor-a" ? "VendorA" : vendor === "vendor-b" ? "VendorB" : "VendorC"}`;
  return {
    kind: name,
    title: `EDR integration ${vendor} (${SINGLETON_NOTE})`,
    label: () => `edr ${vendor}`,
    refersTo: ["Group"],
  };
}

function directorySync(kind: string, vendor: string): KindDef {
  return { kind, title: `Directory sync: ${vendor}`, label: () => `${vendor} sync`, refersTo: [] };
}

export const KINDS: readonly KindDef[] = [
  {
    kind: "Peer",
    title:
      "Enrolled peers (adopted by peerId; destroying a Peer stops managing it, the device stays enrolled)",
    label: named,
    optIn: true,
    refersTo: [],
  },
  {
    kind: "Group",
    title: "Groups (the built-in All group is not managed; peer membership is left to setup keys and users)",
    label: named,
    exclude: (o) =>
      o.object.name === "All" ? "the built-in All group (the program looks it up with getGroup)" : undefined,
    refersTo: [],
  },
  { kind: "PostureCheck", title: "Posture checks", label: named, refersTo: [] },
  { kind: "Network", title: "Networks", label: named, refersTo: [] },
  { kind: "NetworkResource", title: "Network resources", label: named, refersTo: ["Network", "Group"] },
  {
    kind: "NetworkRouter",
    title: "Network routers",
    label: (o, related) => `${str(related("Network", o.parents.networkId ?? "")?.name)} router`,
    refersTo: ["Network", "Group", "Peer"],
  },
  {
    kind: "Policy",
    title: "Access policies",
    label: named,
    refersTo: ["Group", "PostureCheck", "NetworkResource", "Peer"],
  },
  {
    kind: "Route",
    title: "Routes",
    label: (o) => `${str(o.object.network_id) || str(o.object.description)} route`,
    refersTo: ["Group", "Peer"],
  },
  { kind: "NameserverGroup", title: "DNS: nameserver groups", label: named, refersTo: ["Group"] },
  {
    kind: "DnsSettings",
    title: `DNS: account-wide settings (${SINGLETON_NOTE})`,
    label: () => "dns settings",
    refersTo: ["Group"],
  },
  {
    kind: "DnsZone",
    title: "DNS: zones",
    label: (o) => named(o) || str(o.object.domain),
    refersTo: ["Group"],
  },
  {
    kind: "DnsRecord",
    title: "DNS: records",
    label: (o, related) => {
      const domain = str(related("DnsZone", o.parents.zoneId ?? "")?.domain);
      return `${relativeRecordName(named(o), domain)} ${str(o.object.type)} record`;
    },
    refersTo: ["DnsZone"],
  },
  {
    kind: "SetupKey",
    title: "Setup keys (the key itself is shown only when a key is created: it is not in this program)",
    label: named,
    refersTo: ["Group"],
  },
  {
    kind: "User",
    title: "Users: service users and invited or active regular users",
    label: (o) => personName(named(o), str(o.object.email)),
    exclude: (o) => {
      if (o.object.role === "owner") return "the account owner (a User resource cannot hold the owner role)";
      if (o.object.is_current === true)
        return "the user the import's token belongs to (a user cannot change or delete itself)";
      return undefined;
    },
    refersTo: ["Group"],
  },
  {
    kind: "PersonalAccessToken",
    title: "Personal access tokens",
    label: named,
    notAdoptable:
      "cannot be adopted: the API cannot change a token in place, so a resource would create a new token; " +
      "the existing tokens stay as they are",
    refersTo: ["User"],
  },
  {
    kind: "UserInvite",
    title: "User invites",
    label: (o) => str(o.object.email),
    notAdoptable:
      "cannot be adopted: the API cannot change an invite in place, so a resource would issue a new invite; " +
      "pending invites stay as they are",
    refersTo: ["Group"],
  },
  { kind: "IdentityProvider", title: "Identity providers", label: named, refersTo: [] },
  {
    kind: "AccountSettings",
    title: `Account settings (${SINGLETON_NOTE}; those a new account has are left out: they are not managed)`,
    label: () => "account settings",
    refersTo: ["Group"],
  },
  ...EDR_VENDORS.map(edr),
  directorySync("DirectorySyncVendorD", "vendor-d"),
  directorySync("DirectorySyncVendorE", "vendor-e"),
  {
    kind: "EventStreamingIntegration",
    title: "Event streaming",
    label: (o) => `${str(o.object.platform)} streaming`,
    refersTo: [],
  },
  {
    kind: "ScimIntegration",
    title:
      "SCIM provisioning (tokens are not read back: set rotateToken to have a new one made and kept as a secret " +
      "output)",
    label: (o) => `${str(o.object.provider)} ${str(o.object.prefix)} scim`,
    refersTo: [],
  },
  {
    kind: "OktaScimIntegration",
    title:
      "Okta SCIM provisioning (connection names and tokens are not read back: the connection name comes from " +
      "stack config)",
    label: (o) => `okta scim ${o.id}`,
    refersTo: [],
  },
  {
    kind: "NotificationChannel",
    title:
      "Notification channels (webhook header values come from stack config; a webhook URL is written as the API " +
      "shows it: move one that carries a token to config too)",
    label: (o) => {
      const target = (o.object.target ?? {}) as { emails?: unknown[]; url?: unknown };
      if (o.object.type === "email") return `${str(target.emails?.[0]).split("@")[0]} email`;
      const host = /^[a-z]+:\/\/([^/:?#]+)/i.exec(str(target.url))?.[1] ?? "";
      return `${host.split(".")[0] || "webhook"} webhook`;
    },
    refersTo: [],
  },
  {
    kind: "IngressPeer",
    title: "Ingress peers",
    label: (o, related) => `${str(related("Peer", str(o.object.peer_id))?.name) || "peer"} ingress`,
    refersTo: ["Peer"],
  },
  {
    kind: "IngressPortAllocation",
    title: "Ingress port allocations",
    label: (o) => `${named(o)} ports`,
    // Listed per peer: without peers, the ingress peers' list says whether the server has ingress at all.
    servedIf: "listIngressPeers",
    refersTo: ["Peer"],
  },
  {
    kind: "ReverseProxyService",
    title: "Reverse-proxy services (the secret values of their auth are config secrets you set)",
    label: (o) => named(o) || str(o.object.domain),
    refersTo: ["Group", "Peer", "NetworkResource"],
  },
  {
    kind: "ReverseProxyDomain",
    title: "Reverse-proxy custom domains (each cluster's own domain is not the account's to manage)",
    label: (o) => str(o.object.domain),
    refersTo: [],
  },
  {
    kind: "ProxyToken",
    title: "Proxy tokens in force (their values are shown only when a token is created: not in this program)",
    label: named,
    refersTo: [],
  },
  // Agent Networks
  {
    kind: "AgentNetworkSettings",
    title: `Agent Networks: the gateway settings (${SINGLETON_NOTE}; adopted by their address)`,
    label: () => "agent network settings",
    refersTo: [],
  },
  {
    kind: "AgentNetworkProvider",
    title: "Agent Networks: LLM providers (their API keys come from stack config: the API never shows them)",
    label: named,
    refersTo: [],
  },
  { kind: "AgentNetworkGuardrail", title: "Agent Networks: guardrails", label: named, refersTo: [] },
  {
    kind: "AgentNetworkPolicy",
    title: "Agent Networks: policies",
    label: named,
    refersTo: ["Group", "AgentNetworkProvider", "AgentNetworkGuardrail"],
  },
  {
    kind: "AgentNetworkBudgetRule",
    title: "Agent Networks: budget rules",
    label: named,
    refersTo: ["Group", "User"],
  },
];

export function kindDef(kind: string): KindDef {
  const d = KINDS.find((k) => k.kind === kind);
  if (!d) throw new Error(`privnet-import: no importer entry for kind ${kind}`);
  return d;
}
