/**
 * What the importer knows per resource kind beyond the provider's spec: how to list the objects (the spec knows
 * how to read one), which name reads well in the program, what each object may refer to, and which objects or
 * kinds cannot be written as adopted resources (and why). Every kind of provider/registry.ts has an entry
 * (tests/unit/import-plan.test.ts checks this).
 */
import { EDR_VENDORS } from "../api/edr";
import type { ApiObject, Reader } from "./read";
import { KindUnavailable } from "./read";

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

export interface KindDef {
  kind: string;
  /** The comment line above the kind's resources in index.ts. */
  title: string;
  /** Lists every object of the kind. */
  read(r: Reader): Promise<Found[]>;
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

function found(kind: string, o: ApiObject, label: string, parents: Record<string, string> = {}): Found {
  return { kind, id: str(o.id), object: o, parents, label };
}

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

async function peersById(r: Reader): Promise<Map<string, ApiObject>> {
  return new Map((await r.list("listPeers")).map((p) => [str(p.id), p]));
}

/** A singleton integration: GET answers 404 when it is not configured. */
async function optionalSingleton(r: Reader, op: string): Promise<ApiObject | undefined> {
  try {
    return await r.call<ApiObject>(op);
  } catch (err) {
    if (err instanceof KindUnavailable) return undefined;
    throw err;
  }
}

const SINGLETON_NOTE = "one per account: adopted without adoptId";

function edr(vendor: (typeof EDR_VENDORS)[number]): KindDef {
  const name = `Edr${vendor === "vendor-a" ? "VendorA" : vendor === "vendor-b" ? "VendorB" : "VendorC"}`;
  return {
    kind: name,
    title: `EDR integration ${vendor} (${SINGLETON_NOTE})`,
    read: async (r) => {
      const o = await optionalSingleton(r, `get${name}`);
      return o ? [{ kind: name, id: vendor, object: o, parents: {}, label: `edr ${vendor}` }] : [];
    },
    refersTo: ["Group"],
  };
}

function directorySync(kind: string, op: string, vendor: string): KindDef {
  return {
    kind,
    title: `Directory sync: ${vendor}`,
    read: async (r) => (await r.list(op)).map((o) => found(kind, o, `${vendor} sync`)),
    refersTo: [],
  };
}

export const KINDS: readonly KindDef[] = [
  {
    kind: "Peer",
    title:
      "Enrolled peers (adopted by peerId; destroying a Peer stops managing it, the device stays enrolled)",
    read: async (r) => (await r.list("listPeers")).map((o) => found("Peer", o, str(o.name))),
    optIn: true,
    refersTo: [],
  },
  {
    kind: "Group",
    title: "Groups (the built-in All group is not managed; peer membership is left to setup keys and users)",
    read: async (r) => (await r.list("listGroups")).map((o) => found("Group", o, str(o.name))),
    exclude: (o) =>
      o.object.name === "All" ? "the built-in All group (the program looks it up with getGroup)" : undefined,
    refersTo: [],
  },
  {
    kind: "PostureCheck",
    title: "Posture checks",
    read: async (r) => (await r.list("listPostureChecks")).map((o) => found("PostureCheck", o, str(o.name))),
    refersTo: [],
  },
  {
    kind: "Network",
    title: "Networks",
    read: async (r) => (await r.list("listNetworks")).map((o) => found("Network", o, str(o.name))),
    refersTo: [],
  },
  {
    kind: "NetworkResource",
    title: "Network resources",
    read: async (r) => {
      const networks = await r.list("listNetworks");
      const lists = await Promise.all(
        networks.map(async (n) =>
          (await r.list("listNetworkResources", { networkId: str(n.id) })).map((o) =>
            found("NetworkResource", o, str(o.name), { networkId: str(n.id) }),
          ),
        ),
      );
      return lists.flat();
    },
    refersTo: ["Network", "Group"],
  },
  {
    kind: "NetworkRouter",
    title: "Network routers",
    read: async (r) => {
      const networks = await r.list("listNetworks");
      const lists = await Promise.all(
        networks.map(async (n) =>
          (await r.list("listNetworkRouters", { networkId: str(n.id) })).map((o) =>
            found("NetworkRouter", o, `${str(n.name)} router`, { networkId: str(n.id) }),
          ),
        ),
      );
      return lists.flat();
    },
    refersTo: ["Network", "Group", "Peer"],
  },
  {
    kind: "Policy",
    title: "Access policies",
    read: async (r) => (await r.list("listPolicies")).map((o) => found("Policy", o, str(o.name))),
    refersTo: ["Group", "PostureCheck", "NetworkResource", "Peer"],
  },
  {
    kind: "Route",
    title: "Routes",
    read: async (r) =>
      (await r.list("listRoutes")).map((o) =>
        found("Route", o, `${str(o.network_id) || str(o.description)} route`),
      ),
    refersTo: ["Group", "Peer"],
  },
  {
    kind: "NameserverGroup",
    title: "DNS: nameserver groups",
    read: async (r) =>
      (await r.list("listNameserverGroups")).map((o) => found("NameserverGroup", o, str(o.name))),
    refersTo: ["Group"],
  },
  {
    kind: "DnsSettings",
    title: `DNS: account-wide settings (${SINGLETON_NOTE})`,
    read: async (r) => {
      const envelope = await r.call<{ items: ApiObject }>("getDnsSettings");
      return [
        {
          kind: "DnsSettings",
          id: "dns-settings",
          object: envelope.items,
          parents: {},
          label: "dns settings",
        },
      ];
    },
    refersTo: ["Group"],
  },
  {
    kind: "DnsZone",
    title: "DNS: zones",
    read: async (r) =>
      (await r.list("listDnsZones")).map((o) => found("DnsZone", o, str(o.name) || str(o.domain))),
    refersTo: ["Group"],
  },
  {
    kind: "DnsRecord",
    title: "DNS: records",
    // A zone lists its records: no call per zone.
    read: async (r) =>
      (await r.list("listDnsZones")).flatMap((z) =>
        ((z.records as ApiObject[] | undefined) ?? []).map((o) =>
          found("DnsRecord", o, `${relativeRecordName(str(o.name), str(z.domain))} ${str(o.type)} record`, {
            zoneId: str(z.id),
          }),
        ),
      ),
    refersTo: ["DnsZone"],
  },
  {
    kind: "SetupKey",
    title: "Setup keys (the key itself is shown only when a key is created: it is not in this program)",
    read: async (r) => (await r.list("listSetupKeys")).map((o) => found("SetupKey", o, str(o.name))),
    refersTo: ["Group"],
  },
  {
    kind: "User",
    title: "Users: service users and invited or active regular users",
    read: async (r) =>
      (await r.list("listUsers")).map((o) => found("User", o, personName(str(o.name), str(o.email)))),
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
    read: async (r) => {
      const users = await r.list("listUsers");
      const lists = await Promise.all(
        users.map(async (u) =>
          (await r.list("listTokens", { userId: str(u.id) })).map((o) =>
            found("PersonalAccessToken", o, str(o.name), { userId: str(u.id) }),
          ),
        ),
      );
      return lists.flat();
    },
    notAdoptable:
      "cannot be adopted: the API cannot change a token in place, so a resource would create a new token; " +
      "the existing tokens stay as they are",
    refersTo: ["User"],
  },
  {
    kind: "UserInvite",
    title: "User invites",
    read: async (r) => (await r.list("listInvites")).map((o) => found("UserInvite", o, str(o.email))),
    notAdoptable:
      "cannot be adopted: the API cannot change an invite in place, so a resource would issue a new invite; " +
      "pending invites stay as they are",
    refersTo: ["Group"],
  },
  {
    kind: "IdentityProvider",
    title: "Identity providers",
    read: async (r) =>
      (await r.list("listIdentityProviders")).map((o) => found("IdentityProvider", o, str(o.name))),
    refersTo: [],
  },
  {
    kind: "AccountSettings",
    title: `Account settings (${SINGLETON_NOTE}; those a new account has are left out: they are not managed)`,
    read: async (r) => {
      const accounts = await r.list("listAccounts");
      const account = accounts[0];
      if (!account) return [];
      return [
        {
          kind: "AccountSettings",
          id: str(account.id),
          object: (account.settings as ApiObject | undefined) ?? {},
          parents: {},
          label: "account settings",
        },
      ];
    },
    refersTo: ["Group"],
  },
  ...EDR_VENDORS.map(edr),
  directorySync("DirectorySyncVendorD", "listVendorDIdps", "vendor-d"),
  directorySync("DirectorySyncVendorE", "listVendorEIdps", "vendor-e"),
  {
    kind: "EventStreamingIntegration",
    title: "Event streaming",
    read: async (r) =>
      (await r.list("listEventStreamings")).map((o) =>
        found("EventStreamingIntegration", o, `${str(o.platform)} streaming`),
      ),
    refersTo: [],
  },
  {
    kind: "IngressPeer",
    title: "Ingress peers",
    read: async (r) => {
      const peers = await peersById(r);
      return (await r.list("listIngressPeers")).map((o) =>
        found("IngressPeer", o, `${str(peers.get(str(o.peer_id))?.name) || "peer"} ingress`),
      );
    },
    refersTo: ["Peer"],
  },
  {
    kind: "IngressPortAllocation",
    title: "Ingress port allocations",
    read: async (r) => {
      const peers = [...(await peersById(r)).values()];
      // One list per peer: ask the first, so that a server without ingress answers once (404), not per peer.
      const [first, ...rest] = peers;
      if (!first) {
        await r.list("listIngressPeers"); // still says whether the server has ingress at all
        return [];
      }
      const one = async (p: ApiObject) =>
        (await r.list("listPortAllocations", { peerId: str(p.id) })).map((o) =>
          found("IngressPortAllocation", o, `${str(o.name)} ports`, { peerId: str(p.id) }),
        );
      const head = await one(first);
      return [...head, ...(await Promise.all(rest.map(one))).flat()];
    },
    refersTo: ["Peer"],
  },
];

export function kindDef(kind: string): KindDef {
  const d = KINDS.find((k) => k.kind === kind);
  if (!d) throw new Error(`privnet-import: no importer entry for kind ${kind}`);
  return d;
}
