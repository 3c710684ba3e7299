/**
 * What an account holds, read back through the API: the main job prints it after `pulumi up`, the e2e tests
 * count objects with it.
 *
 *   PRIVNET_API_URL=http://127.0.0.1:8080 PRIVNET_TOKEN_FILE=owner-token node dist/scripts/inventory.js [--json]
 *
 * (PRIVNET_TOKEN works too; a file keeps the token out of the environment of every child process.)
 */
import * as fs from "node:fs";
import { PrivnetClient } from "../client";

/** The kinds of objects an inventory lists, in the order they are printed. */
export const INVENTORY_KINDS = [
  "peers",
  "groups",
  "policies",
  "postureChecks",
  "setupKeys",
  "routes",
  "networks",
  "networkResources",
  "networkRouters",
  "nameserverGroups",
  "dnsZones",
  "dnsRecords",
  "users",
  "personalAccessTokens",
  "identityProviders",
] as const;

export type InventoryKind = (typeof INVENTORY_KINDS)[number];

/** An object as listed: its id and a readable name. */
export interface InventoryItem {
  id: string;
  name: string;
}

/** Every object of every kind, plus the account's settings (as the API returns them, snake_case). */
export type Inventory = Record<InventoryKind, InventoryItem[]> & { accountSettings: Record<string, unknown> };

type Obj = Record<string, unknown>;

function items(list: Obj[], name: (o: Obj) => unknown): InventoryItem[] {
  return list.map((o) => ({ id: String(o.id), name: String(name(o)) }));
}

/**
 * Reads everything through the API. The built-in `All` group and the calling user are included, as the API
 * lists them; compare against a baseline taken before to count what a program created.
 */
export async function readInventory(client: PrivnetClient): Promise<Inventory> {
  // Some servers answer an empty list as null.
  const list = async (op: string, params?: Record<string, string>): Promise<Obj[]> =>
    (await client.call<Obj[] | null>(op, params ? { params } : {})) ?? [];
  const [
    peers,
    groups,
    policies,
    postureChecks,
    setupKeys,
    routes,
    networks,
    nsGroups,
    zones,
    users,
    idps,
    accounts,
  ] = await Promise.all([
    list("listPeers"),
    list("listGroups"),
    list("listPolicies"),
    list("listPostureChecks"),
    list("listSetupKeys"),
    list("listRoutes"),
    list("listNetworks"),
    list("listNameserverGroups"),
    list("listDnsZones"),
    list("listUsers"),
    list("listIdentityProviders"),
    list("listAccounts"),
  ]);
  const perNetwork = await Promise.all(
    networks.map(async (n) => ({
      resources: await list("listNetworkResources", { networkId: String(n.id) }),
      routers: await list("listNetworkRouters", { networkId: String(n.id) }),
    })),
  );
  const records = await Promise.all(zones.map((z) => list("listDnsRecords", { zoneId: String(z.id) })));
  const tokens = await Promise.all(users.map((u) => list("listTokens", { userId: String(u.id) })));
  return {
    peers: items(peers, (p) => p.name),
    groups: items(groups, (g) => g.name),
    policies: items(policies, (p) => p.name),
    postureChecks: items(postureChecks, (p) => p.name),
    setupKeys: items(setupKeys, (k) => k.name),
    routes: items(routes, (r) => r.network_id),
    networks: items(networks, (n) => n.name),
    networkResources: items(
      perNetwork.flatMap((n) => n.resources),
      (r) => r.name,
    ),
    networkRouters: items(
      perNetwork.flatMap((n) => n.routers),
      (r) => r.id,
    ),
    nameserverGroups: items(nsGroups, (n) => n.name),
    dnsZones: items(zones, (z) => z.domain),
    dnsRecords: items(records.flat(), (r) => `${String(r.name)} ${String(r.type)}`),
    users: items(users, (u) => u.name || u.email),
    personalAccessTokens: items(tokens.flat(), (t) => t.name),
    identityProviders: items(idps, (i) => i.name),
    accountSettings: ((accounts[0] ?? {}) as { settings?: Obj }).settings ?? {},
  };
}

/** Number of objects per kind. */
export function countInventory(inv: Inventory): Record<InventoryKind, number> {
  return Object.fromEntries(INVENTORY_KINDS.map((k) => [k, inv[k].length])) as Record<InventoryKind, number>;
}

/** A short table: one line per kind with its count and up to a few names. */
export function formatInventory(inv: Inventory): string {
  const width = Math.max(...INVENTORY_KINDS.map((k) => k.length));
  return INVENTORY_KINDS.map((k) => {
    const names = inv[k].map((i) => i.name);
    const shown = names.slice(0, 4).join(", ") + (names.length > 4 ? `, ... (${names.length - 4} more)` : "");
    return `  ${k.padEnd(width)}  ${String(names.length).padStart(3)}  ${shown}`;
  }).join("\n");
}

async function main(): Promise<void> {
  const apiUrl = process.env.PRIVNET_API_URL;
  const tokenFile = process.env.PRIVNET_TOKEN_FILE;
  const token = tokenFile ? fs.readFileSync(tokenFile, "utf8").trim() : process.env.PRIVNET_TOKEN;
  if (!apiUrl || !token) {
    throw new Error("set PRIVNET_API_URL and PRIVNET_TOKEN_FILE (or PRIVNET_TOKEN)");
  }
  const client = new PrivnetClient({ apiUrl, token });
  try {
    const inv = await readInventory(client);
    process.stdout.write(
      process.argv.includes("--json") ? `${JSON.stringify(inv, null, 2)}\n` : `${formatInventory(inv)}\n`,
    );
  } finally {
    await client.close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`inventory: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
