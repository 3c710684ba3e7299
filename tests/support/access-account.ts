/**
 * A small account for the privnet-access tests, built through the API of a privnet-server with the simulated
 * agent: laptops (laptop-1, laptop-2), a database peer (db-1), an office router (gw-1) routing the network
 * `office` with the resource `files` (10.20.0.5), an admin peer (admin-1) that must pass a posture check
 * on its local network (which the API does not show), and policies:
 *   - "web to db" / rule "postgres": laptops → db, tcp/5432
 *   - "ssh admin" / rule "ssh": admins → All, tcp/22, only for peers passing "office network"
 *   - "files" / rule "smb": laptops → the group `office-files` (the resource), tcp/445
 *   - "no ssh to db" / rule "block": laptops → db, drop tcp/22
 */
import { PrivnetClient } from "../../client";

export interface AccessAccount {
  client: PrivnetClient;
  peers: Record<string, string>;
  groups: Record<string, string>;
  policies: Record<string, string>;
  network: string;
  resource: string;
}

const HOSTS = ["laptop-1", "laptop-2", "db-1", "gw-1", "admin-1"];

/** Builds the account on a fresh server at `url` (owner `token`, started with the simulated agent). */
export async function buildAccessAccount(url: string, token: string): Promise<AccessAccount> {
  const client = new PrivnetClient({ apiUrl: url, token, rateLimit: false });
  const key = await client.call<{ key: string }>("createSetupKey", {
    body: { name: "access tests", type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 },
  });
  const peers: Record<string, string> = {};
  for (const hostname of HOSTS) {
    const res = await fetch(`${url}/sim/enroll`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ setup_key: key.key, hostname }),
    });
    if (res.status !== 200) throw new Error(`enroll ${hostname}: ${res.status} ${await res.text()}`);
    peers[hostname] = ((await res.json()) as { id: string }).id;
  }
  const group = async (name: string, members: string[]) =>
    (await client.call<{ id: string }>("createGroup", { body: { name, peers: members } })).id;
  const groups: Record<string, string> = {
    laptops: await group("laptops", [peers["laptop-1"] as string, peers["laptop-2"] as string]),
    db: await group("db", [peers["db-1"] as string]),
    routers: await group("routers", [peers["gw-1"] as string]),
    admins: await group("admins", [peers["admin-1"] as string]),
    "office-files": await group("office-files", []),
  };
  const all = (await client.call<{ id: string; name: string }[]>("listGroups")).find((g) => g.name === "All");
  const network = (await client.call<{ id: string }>("createNetwork", { body: { name: "office" } })).id;
  const resource = (
    await client.call<{ id: string }>("createNetworkResource", {
      params: { networkId: network },
      body: { name: "files", address: "10.20.0.5", enabled: true, groups: [groups["office-files"]] },
    })
  ).id;
  await client.call("createNetworkRouter", {
    params: { networkId: network },
    body: { peer: peers["gw-1"], metric: 10, masquerade: true, enabled: true },
  });
  const check = (
    await client.call<{ id: string }>("createPostureCheck", {
      body: {
        name: "office network",
        description: "",
        checks: { peer_network_range_check: { action: "allow", ranges: ["10.99.0.0/16"] } },
      },
    })
  ).id;
  const rule = (name: string, over: Record<string, unknown>) => ({
    name,
    enabled: true,
    action: "accept",
    bidirectional: false,
    protocol: "tcp",
    ...over,
  });
  const policy = async (name: string, rules: unknown[], over: Record<string, unknown> = {}) =>
    (await client.call<{ id: string }>("createPolicy", { body: { name, enabled: true, rules, ...over } })).id;
  const policies: Record<string, string> = {
    "web to db": await policy("web to db", [
      rule("postgres", { ports: ["5432"], sources: [groups.laptops], destinations: [groups.db] }),
    ]),
    "ssh admin": await policy(
      "ssh admin",
      [rule("ssh", { ports: ["22"], sources: [groups.admins], destinations: [all?.id] })],
      { source_posture_checks: [check] },
    ),
    files: await policy("files", [
      rule("smb", { ports: ["445"], sources: [groups.laptops], destinations: [groups["office-files"]] }),
    ]),
    "no ssh to db": await policy("no ssh to db", [
      rule("block", { action: "drop", ports: ["22"], sources: [groups.laptops], destinations: [groups.db] }),
    ]),
  };
  return { client, peers, groups, policies, network, resource };
}
