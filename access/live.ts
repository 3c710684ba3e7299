/**
 * Reading an account for the access tools: every object of the kinds asked for, through the importer's reader and
 * the provider's own readers (one list per kind, one per parent for nested kinds), as `privnet-access show` reads
 * it. Reads only. The first request fails fast when the server cannot be reached (the client's default retries
 * take ~15 s); failures are one-line {@link ImportError}s (unreachable, token rejected, kind not readable).
 */
import { PrivnetClient } from "../client";
import type { Listed } from "../provider/spec";
import { displayUrl, readAccount, Reader, TOKEN_HINT, translate } from "../importer/read";
import type { Account } from "./report";
import { AGENT_NETWORK_KINDS, listAgentNetwork } from "./snapshot";

/** What was read: the objects per kind (API form, as the readers answered them) and the users' names. */
export interface LiveObjects {
  objects: Map<string, Listed[]>;
  /** Users by id: e-mail and name, which the network map's snapshot does not carry. */
  users: Account["users"];
  /** Requests sent by the readers (the first, fail-fast probe aside). */
  requests: number;
}

/** The users' e-mail addresses and names by id, from the listed users. */
export function usersOf(
  objects: ReadonlyMap<string, readonly { object: Record<string, unknown> }[]>,
): Account["users"] {
  return new Map(
    (objects.get("User") ?? []).map((u) => [
      String(u.object.id),
      { email: String(u.object.email ?? ""), name: String(u.object.name ?? "") },
    ]),
  );
}

/**
 * Reads `kinds` of the account behind `apiUrl` (reads only), reporting progress; `tokenHint` says where to look
 * when the server rejects the token (the caller's own settings).
 */
export async function readLiveObjects(
  apiUrl: string,
  token: string,
  kinds: readonly string[],
  progress: (line: string) => void = () => undefined,
  tokenHint: string = TOKEN_HINT,
): Promise<LiveObjects> {
  const shown = displayUrl(apiUrl);
  const client = new PrivnetClient({ apiUrl, token });
  const probe = new PrivnetClient({ apiUrl, token, maxRetries: 1 });
  try {
    progress(`reading the account at ${shown}`);
    await new Reader(probe, shown, tokenHint).call("listAccounts").catch((err: unknown) => {
      throw translate(err, "listAccounts", shown, tokenHint);
    });
    const reader = new Reader(client, shown, tokenHint);
    // The Agent Network is read directly (its catalog is no kind); the other kinds through their providers.
    const direct = kinds.some((k) => (AGENT_NETWORK_KINDS as readonly string[]).includes(k));
    const [read, agentNetwork] = await Promise.all([
      readAccount(
        reader,
        kinds.filter((k) => !(AGENT_NETWORK_KINDS as readonly string[]).includes(k)),
        (line) => progress(`  ${line}`),
      ),
      direct
        ? listAgentNetwork(reader.ctx.client).catch((err: unknown) => {
            throw translate(err, reader.operationOf(err), shown);
          })
        : Promise.resolve(new Map<string, Listed[]>()),
    ]);
    if (direct)
      progress(
        agentNetwork.size
          ? `  Agent Network: ${(agentNetwork.get("AgentNetworkPolicy") ?? []).length} policies, ${(agentNetwork.get("AgentNetworkProvider") ?? []).length} providers`
          : "  Agent Network: not served",
      );
    const objects = new Map<string, Listed[]>(
      [...read.objects].map(([k, list]) => [
        k,
        list.map((o) => ({ id: o.id, object: o.object, parents: o.parents })),
      ]),
    );
    for (const [k, list] of agentNetwork) objects.set(k, list);
    return { objects, users: usersOf(read.objects), requests: reader.requests };
  } finally {
    await probe.close();
    await client.close();
  }
}
