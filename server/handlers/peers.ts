/**
 * Peers (spec 2.6, 2.7, 4.3): enrolled devices, the peers each one may reach, temporary access and peer jobs.
 * Peers are never created by the API: agents enroll them (server/sim.ts) with setup keys.
 *
 * Decisions where the spec is silent:
 * - Accessible peers (and `accessible_peers_count` in the list) come from the network map (netmap/, every rule
 *   in its header) of the account as stored, at the request's time: the peers of the peer's map, offline ones
 *   and routing peers included, leaving out those that depend on a posture check the stored metadata cannot
 *   decide. The response shapes are unchanged. A regular user whose view is blocked gets an empty list.
 * - `GET /internal/network-map/{peerId}` answers the full map of one peer and `GET /internal/network-map` every
 *   peer's (netmap/types.ts, PeerMap): outside /api (not part of the service's API), read-only, with the same
 *   authentication and permissions as accessible-peers (a regular user: its own peers only).
 * - Temporary access creates a temporary peer plus one policy whose rules use `sourceResource` = the temporary
 *   peer and `destinationResource` = the target peer (both of type `peer`), as the real service does; the
 *   policy id is kept in the temporary peer's `temporary_policies`. Disconnecting the temporary peer deletes it
 *   and its policies (server/sim.ts); deleting the target peer deletes its temporary peers too.
 * - Deleting a peer still named by a route, a network router, an ingress peer or a policy rule resource answers
 *   400 naming them; group membership, jobs and port allocations of the peer go with it.
 * - A user with role `user` sees only its own peers; another peer answers 404, as if it did not exist.
 */
import type { AccessiblePeer, Peer } from "../../api/peer";
import type { Job } from "../../api/job";
import { accountOf, type Ctx, type Handlers, type StoredKinds } from "../context";
import { audit, groupPeerIds, mustGet, type Reader } from "../domain";
import { badRequest, conflict, forbidden, invalid, notFound, preconditionFailed } from "../errors";
import { NetworkMap, viewAllowed, type AccountSnapshot } from "../../netmap";
import { accountSnapshot, networkMapOf } from "../network-snapshot";
import { iso } from "../clock";
import { newId } from "../ids";
import type { GroupDoc, PeerDoc } from "../model";
import { createPeerDoc, inNetworkRange, uniqueDnsLabel } from "../peer-factory";
import type { Doc, Tx } from "../store";
// The stored policy shape is owned by policies.ts; this family reads it (accessible peers, deletion checks)
// and writes it (temporary access).
import type { PolicyDoc, ResourceRefDoc, RuleDoc } from "./policies";
import { refuseIfTargeted } from "./reverse-proxies";

type BundleParameters = Job["workload"]["parameters"];

/** A stored peer job; `parent` is the peer id. */
export interface JobDoc extends Doc {
  parent: string;
  created_at: string;
  completed_at: string | null;
  triggered_by: string;
  status: Job["status"];
  failed_reason: string | null;
  workload: { type: "bundle"; parameters: BundleParameters; result?: { upload_key: string } };
}

// ---------------------------------------------------------------------------------------------------------------
// Group membership and reachability, computed once per request

/** Group membership of every peer, built once so that a list of N peers does not recompute every group. */
export class PeerIndex {
  private readonly groups: { doc: GroupDoc; members: Set<string> }[];

  constructor(r: Reader) {
    this.groups = r.all<GroupDoc>("group").map((doc) => ({ doc, members: new Set(groupPeerIds(r, doc)) }));
  }

  /** GroupSummary[] of the groups that hold the peer (`All` included), in group creation order. */
  groupsOf(peerId: string) {
    return this.groups
      .filter((g) => g.members.has(peerId))
      .map((g) => ({
        id: g.doc.id,
        name: g.doc.name,
        peers_count: g.members.size,
        resources_count: g.doc.resources.length,
        issued: g.doc.issued,
      }));
  }
}

/** The Peer response; `accessibleCount` only in list responses (the real service's single GET omits it). */
export function peerView(index: PeerIndex, p: PeerDoc, accessibleCount?: number): Peer {
  const v: Peer = {
    id: p.id,
    name: p.name,
    created_at: p.created_at,
    ip: p.ip,
    connection_ip: p.connection_ip,
    connected: p.connected,
    last_seen: p.last_seen,
    os: p.os,
    kernel_version: p.kernel_version,
    geoname_id: p.geoname_id,
    version: p.version,
    groups: index.groupsOf(p.id),
    ssh_enabled: p.ssh_enabled,
    user_id: p.user_id,
    hostname: p.hostname,
    ui_version: p.ui_version,
    dns_label: p.dns_label,
    login_expiration_enabled: p.login_expiration_enabled,
    login_expired: p.login_expired,
    last_login: p.last_login,
    inactivity_expiration_enabled: p.inactivity_expiration_enabled,
    approval_required: p.approval_required,
    country_code: p.country_code,
    city_name: p.city_name,
    serial_number: p.serial_number,
    extra_dns_labels: [...p.extra_dns_labels],
    ephemeral: p.ephemeral,
    local_flags: { ...p.local_flags } as Peer["local_flags"],
  };
  if (p.disapproval_reason !== undefined) v.disapproval_reason = p.disapproval_reason;
  if (accessibleCount !== undefined) v.accessible_peers_count = accessibleCount;
  return v;
}

function accessiblePeerView(p: PeerDoc): AccessiblePeer {
  return {
    id: p.id,
    name: p.name,
    ip: p.ip,
    dns_label: p.dns_label,
    user_id: p.user_id,
    os: p.os,
    country_code: p.country_code,
    city_name: p.city_name,
    geoname_id: p.geoname_id,
    connected: p.connected,
    last_seen: p.last_seen,
  };
}

/** The Job response. */
export function jobView(j: JobDoc): Job {
  const workload: Job["workload"] = { type: j.workload.type, parameters: { ...j.workload.parameters } };
  if (j.workload.result) workload.result = { upload_key: j.workload.result.upload_key };
  return {
    id: j.id,
    created_at: j.created_at,
    completed_at: j.completed_at,
    triggered_by: j.triggered_by,
    status: j.status,
    failed_reason: j.failed_reason,
    workload,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Visibility and lookups

/** Regular users (role `user`) see only the peers they enrolled. */
function visibleTo(ctx: Ctx, p: PeerDoc): boolean {
  const user = ctx.actor?.user;
  return !user || user.role !== "user" || p.user_id === user.id;
}

/** The restricted view of the network map (netmap's viewAllowed) for the caller. */
function mayView(ctx: Ctx, snapshot: AccountSnapshot, p: PeerDoc): boolean {
  const user = ctx.actor?.user;
  const peer = snapshot.peers.find((x) => x.id === p.id);
  return !user || !peer || viewAllowed(snapshot, { id: user.id, role: user.role }, peer);
}

/** The path's peer, or 404 (also when the caller may not see it). */
function peerOf(r: Reader, ctx: Ctx): PeerDoc {
  const p = mustGet<PeerDoc>(r, "peer", ctx.params.peerId as string, "peer");
  if (!visibleTo(ctx, p)) throw notFound(`peer ${p.id} not found`);
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// Deletion

/** What {@link removePeer} deleted. */
export interface RemovedPeers {
  /** The peer and the temporary peers that existed only to reach it. */
  peers: string[];
  /** Temporary-access policies deleted with them. */
  policies: string[];
}

/**
 * Deletes a peer inside `tx` with everything that exists only because of it: its group memberships, jobs and
 * port allocations, the temporary peers created to reach it and the temporary-access policies of all of these.
 * Throws 400 naming the objects that still use the peer (routes, network routers, ingress peers, policy rules).
 */
export function removePeer(tx: Tx, peer: PeerDoc): RemovedPeers {
  const doomed = [peer, ...tx.all<PeerDoc>("peer").filter((x) => x.temporary_for === peer.id)];
  const ids = new Set(doomed.map((d) => d.id));
  const owned = new Set(doomed.flatMap((d) => d.temporary_policies ?? []));
  const uses: string[] = [];
  for (const d of doomed) refuseIfTargeted(tx, "peer", d.id, `peer ${d.name} (${d.id})`);
  const names = (v: unknown) => typeof v === "string" && ids.has(v);
  for (const x of tx.all("route")) if (names(x.peer)) uses.push(`route ${String(x.network_id)} (${x.id})`);
  for (const x of tx.all("network_router"))
    if (names(x.peer)) uses.push(`network router ${x.id} of network ${String(x.parent)}`);
  for (const x of tx.all("ingress_peer")) if (names(x.peer_id)) uses.push(`ingress peer ${x.id}`);
  for (const pol of tx.all<PolicyDoc>("policy")) {
    if (owned.has(pol.id) || !Array.isArray(pol.rules)) continue;
    const refs = (res: ResourceRefDoc | undefined) => res?.type === "peer" && ids.has(res.id);
    if (pol.rules.some((r) => refs(r.sourceResource) || refs(r.destinationResource)))
      uses.push(`policy ${pol.name} (${pol.id})`);
  }
  if (uses.length) throw badRequest(`peer ${peer.name} (${peer.id}) is in use by ${uses.join(", ")}`);

  // Membership lives only in group docs: take the peers out of every group that lists them.
  for (const g of tx.all<GroupDoc>("group")) {
    const peers = g.peers.filter((id) => !ids.has(id));
    const resources = g.resources.filter((x) => !(x.type === "peer" && ids.has(x.id)));
    if (peers.length !== g.peers.length || resources.length !== g.resources.length)
      tx.put("group", { ...g, peers, resources });
  }
  for (const d of doomed) {
    for (const j of tx.all("job", d.id)) tx.delete("job", j.id);
    for (const a of tx.all("port_allocation", d.id)) tx.delete("port_allocation", a.id);
    if (tx.get("edr_bypass", d.id)) tx.delete("edr_bypass", d.id);
    tx.delete("peer", d.id);
  }
  const policies: string[] = [];
  for (const id of owned) {
    if (!tx.get("policy", id)) continue; // already deleted through the policies API
    tx.delete("policy", id);
    policies.push(id);
  }
  return { peers: [...ids], policies };
}

// ---------------------------------------------------------------------------------------------------------------
// Temporary access

/** A policy rule granting `tempId` access to `targetId` for one `protocol/port[-port]` rule string. */
function temporaryRule(text: string, tempId: string, targetId: string): RuleDoc {
  const [proto, ports] = text.split("/") as [RuleDoc["protocol"], string | undefined];
  const rule: RuleDoc = {
    id: newId(),
    name: `Temporary access ${text}`,
    description: "",
    enabled: true,
    action: "accept",
    bidirectional: false,
    protocol: proto,
    sources: [],
    destinations: [],
    sourceResource: { id: tempId, type: "peer" },
    destinationResource: { id: targetId, type: "peer" },
  };
  if (ports !== undefined) {
    const [start, end] = ports.split("-").map(Number) as [number, number | undefined];
    if (end === undefined || end === start) rule.ports = [String(start)];
    else rule.port_ranges = [{ start, end }];
  }
  return rule;
}

interface PeerUpdateBody {
  name: string;
  ssh_enabled: boolean;
  login_expiration_enabled: boolean;
  inactivity_expiration_enabled: boolean;
  approval_required?: boolean;
  ip?: string;
}

// ---------------------------------------------------------------------------------------------------------------

/** The documents this module stores (see StoredKind). */
export const kinds = {
  peer: {},
  job: {},
} satisfies StoredKinds;

export const handlers: Handlers = {
  listPeers: (ctx) => {
    const { store } = ctx.state;
    const name = ctx.query.name as string | undefined;
    const ip = ctx.query.ip as string | undefined;
    const index = new PeerIndex(store);
    const map = networkMapOf(store, ctx.now);
    return store
      .all<PeerDoc>("peer")
      .filter((p) => visibleTo(ctx, p))
      .filter((p) => (name === undefined || p.name === name) && (ip === undefined || p.ip === ip))
      .map((p) => peerView(index, p, map.accessiblePeerIds(p.id)?.length ?? 0));
  },

  getPeer: (ctx) => {
    const { store } = ctx.state;
    return peerView(new PeerIndex(store), peerOf(store, ctx));
  },

  updatePeer: (ctx) =>
    ctx.state.store.tx((tx) => {
      const p = peerOf(tx, ctx);
      const body = ctx.body as PeerUpdateBody;
      const next: PeerDoc = {
        ...p,
        name: body.name,
        ssh_enabled: body.ssh_enabled,
        login_expiration_enabled: body.login_expiration_enabled,
        inactivity_expiration_enabled: body.inactivity_expiration_enabled,
      };
      if (body.ip !== undefined && body.ip !== p.ip) {
        if (!inNetworkRange(tx, body.ip)) {
          const range = String(accountOf(tx).settings.network_range || "100.64.0.0/10");
          throw invalid(`ip: ${body.ip} is not a usable address of the account network range ${range}`);
        }
        const holder = tx.all<PeerDoc>("peer").find((x) => x.ip === body.ip && x.id !== p.id);
        if (holder) throw invalid(`ip: ${body.ip} is already assigned to peer ${holder.name} (${holder.id})`);
        next.ip = body.ip;
      }
      // A new name gets a new DNS label, unique among the other peers.
      if (body.name !== p.name) next.dns_label = uniqueDnsLabel(tx, body.name, p.id);
      // Peer approval exists only in the cloud offering; elsewhere the field is accepted and ignored.
      if (ctx.state.options.cloud && body.approval_required !== undefined) {
        next.approval_required = body.approval_required;
        if (!body.approval_required) delete next.disapproval_reason;
      }
      tx.put("peer", next);
      const changed = (
        [
          "name",
          "ip",
          "ssh_enabled",
          "login_expiration_enabled",
          "inactivity_expiration_enabled",
          "approval_required",
        ] as const
      ).filter((k) => next[k] !== p[k]);
      audit(tx, ctx, "peer.update", "Peer updated", p.id, { name: next.name, changed });
      return peerView(new PeerIndex(tx), next);
    }),

  deletePeer: (ctx) =>
    ctx.state.store.tx((tx) => {
      const p = peerOf(tx, ctx);
      const removed = removePeer(tx, p);
      audit(tx, ctx, "peer.delete", "Peer deleted", p.id, {
        name: p.name,
        temporary_peers_deleted: removed.peers.filter((id) => id !== p.id),
        policies_deleted: removed.policies,
      });
      return {};
    }),

  listAccessiblePeers: (ctx) => {
    const { store } = ctx.state;
    const p = peerOf(store, ctx);
    const snapshot = accountSnapshot(store, ctx.now);
    if (!mayView(ctx, snapshot, p)) return [];
    const ids = new Set(new NetworkMap(snapshot).accessiblePeerIds(p.id));
    return store
      .all<PeerDoc>("peer")
      .filter((x) => ids.has(x.id))
      .map(accessiblePeerView);
  },

  getNetworkMap: (ctx) => {
    const { store } = ctx.state;
    const p = peerOf(store, ctx);
    const snapshot = accountSnapshot(store, ctx.now);
    if (!mayView(ctx, snapshot, p))
      throw forbidden(`the network map of peer ${p.id} is not visible to this user`);
    return new NetworkMap(snapshot).peerMap(p.id);
  },

  listNetworkMaps: (ctx) => {
    const { store } = ctx.state;
    const snapshot = accountSnapshot(store, ctx.now);
    const map = new NetworkMap(snapshot);
    return store
      .all<PeerDoc>("peer")
      .filter((p) => visibleTo(ctx, p) && mayView(ctx, snapshot, p))
      .map((p) => map.peerMap(p.id));
  },

  createTemporaryAccess: (ctx) =>
    ctx.state.store.tx((tx) => {
      const target = peerOf(tx, ctx);
      const body = ctx.body as { name: string; wg_pub_key: string; rules: string[] };
      const clash = tx.all<PeerDoc>("peer").find((x) => x.wg_pub_key === body.wg_pub_key);
      if (clash) throw conflict(`wg_pub_key: peer ${clash.id} already uses this WireGuard key`);
      const policyId = newId();
      const temp = createPeerDoc(tx, {
        hostname: body.name,
        wgPubKey: body.wg_pub_key,
        now: ctx.now,
        // The real service marks temporary peers ephemeral: they are meant to vanish.
        ephemeral: true,
        temporaryFor: target.id,
        temporaryPolicies: [policyId],
      });
      const policy: PolicyDoc = {
        id: policyId,
        name: `Temporary access for ${temp.name}`,
        description: `Lets temporary peer ${temp.name} reach ${target.name} until it disconnects`,
        enabled: true,
        source_posture_checks: [],
        rules: body.rules.map((r) => temporaryRule(r, temp.id, target.id)),
      };
      tx.put("policy", policy);
      audit(tx, ctx, "peer.temporary.access.create", "Temporary access created", temp.id, {
        name: temp.name,
        target_peer: target.id,
        policy_id: policyId,
        rules: body.rules,
      });
      return { name: temp.name, id: temp.id, rules: [...body.rules] };
    }),

  listPeerJobs: (ctx) => {
    const { store } = ctx.state;
    return store.all<JobDoc>("job", peerOf(store, ctx).id).map(jobView);
  },

  createPeerJob: (ctx) =>
    ctx.state.store.tx((tx) => {
      const p = peerOf(tx, ctx);
      const body = ctx.body as { workload: { type: "bundle"; parameters: BundleParameters } };
      const job: JobDoc = {
        id: newId(),
        parent: p.id,
        created_at: iso(ctx.now),
        completed_at: null,
        triggered_by: ctx.actor?.user.id ?? "",
        status: "pending",
        failed_reason: null,
        workload: { type: body.workload.type, parameters: { ...body.workload.parameters } },
      };
      tx.put("job", job);
      audit(tx, ctx, "peer.job.create", "Peer job created", job.id, {
        peer_id: p.id,
        type: job.workload.type,
      });
      return jobView(job);
    }),

  getPeerJob: (ctx) => {
    const { store } = ctx.state;
    const p = peerOf(store, ctx);
    return jobView(mustGet<JobDoc>(store, "job", ctx.params.jobId as string, "job", p.id));
  },
};

/**
 * Finishes a pending job of a peer (the agent's side, used by server/sim.ts): `succeeded` with an upload key,
 * or `failed` with a reason. 404 for a job of another peer, 412 when the job is not pending any more.
 */
export function finishJobDoc(
  tx: Tx,
  peerId: string,
  jobId: string,
  now: number,
  outcome: { status: "succeeded"; uploadKey: string } | { status: "failed"; reason: string },
): JobDoc {
  mustGet<PeerDoc>(tx, "peer", peerId, "peer");
  const job = mustGet<JobDoc>(tx, "job", jobId, "job", peerId);
  if (job.status !== "pending") throw preconditionFailed(`job ${job.id} is already ${job.status}`);
  const next: JobDoc = {
    ...job,
    status: outcome.status,
    completed_at: iso(now),
    failed_reason: outcome.status === "failed" ? outcome.reason : null,
    workload:
      outcome.status === "succeeded"
        ? { ...job.workload, result: { upload_key: outcome.uploadKey } }
        : { ...job.workload },
  };
  tx.put("job", next);
  return next;
}
