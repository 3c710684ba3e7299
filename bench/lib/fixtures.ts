/**
 * Prerequisites made through the API of a running server (not measured): enrolled peers (the simulated agent),
 * groups, a network, a DNS zone, a service user, an ingress peer. The ids go to the program's input file.
 */
import { PrivnetClient } from "../../client";

export interface KindFixtures {
  suffix: string;
  /** 8 enrolled peers: 0-2 group members, 3 the Peer resource, 4 a router peer, 5 a port allocation target,
   * 6 the IngressPeer resource, 7 an ingress peer made here (the allocation needs one). */
  peers: string[];
  groups: string[];
  network: string;
  zone: { id: string; domain: string };
  user: string;
}

/** Enrolls `count` peers with the simulated agent (POST /sim/enroll with a setup key). */
export async function enrollPeers(
  server: { url: string; token: string },
  client: PrivnetClient,
  count: number,
  prefix: string,
): Promise<string[]> {
  const key = await client.call<{ key: string }>("createSetupKey", {
    body: { name: `${prefix}-enroll`, type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 },
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${server.url}/sim/enroll`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ setup_key: key.key, hostname: `${prefix}-${i + 1}` }),
    });
    const body = (await res.json()) as { id?: string; message?: string };
    if (!res.ok || !body.id) throw new Error(`sim enroll: ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.id);
  }
  return ids;
}

export async function makeKindFixtures(server: { url: string; token: string }): Promise<KindFixtures> {
  const client = new PrivnetClient({ apiUrl: server.url, token: server.token, rateLimit: false });
  try {
    const suffix = `${process.pid}-${Date.now().toString(36)}`;
    const peers = await enrollPeers(server, client, 8, `bench-peer-${suffix}`);
    const groups: string[] = [];
    for (let i = 1; i <= 3; i++) {
      groups.push(
        (await client.call<{ id: string }>("createGroup", { body: { name: `pre-${suffix}-${i}` } })).id,
      );
    }
    const network = (
      await client.call<{ id: string }>("createNetwork", { body: { name: `pre-net-${suffix}` } })
    ).id;
    const zone = await client.call<{ id: string; domain: string }>("createDnsZone", {
      body: {
        name: "z",
        domain: `pre-${suffix}.example`,
        enable_search_domain: false,
        distribution_groups: [groups[0]],
      },
    });
    const user = (
      await client.call<{ id: string }>("createUser", {
        body: { name: `pre-svc-${suffix}`, role: "admin", auto_groups: [], is_service_user: true },
      })
    ).id;
    await client.call("createIngressPeer", { body: { peer_id: peers[7], enabled: true, fallback: true } });
    return { suffix, peers, groups, network, zone: { id: zone.id, domain: zone.domain }, user };
  } finally {
    await client.close();
  }
}
