/**
 * The simulated agent (only with --simulate), outside /api: enroll peers with setup keys, connect and
 * disconnect them, finish peer jobs. Usable over HTTP (tests, `privnet-server sim`) and in-process.
 *
 * Routes (JSON in and out; errors in the service's `{message, code}` shape, never a 500 for bad input):
 * - `POST /sim/enroll` {setup_key, hostname, wg_pub_key?, extra_dns_labels?, ...metadata} → the new Peer
 * - `POST /sim/peers/{peerId}/meta` {...metadata} → {peer, meta}: the agent reports new metadata (only the
 *   members sent change), so a test can move a peer in and out of a posture check
 * - `POST /sim/peers/{peerId}/connect` → the Peer
 * - `POST /sim/peers/{peerId}/disconnect` → {peer, deleted, policies_deleted}
 * - `POST /sim/peers/{peerId}/login` → the Peer: the user logs in again (last_login = now, login_expired false)
 * - `POST /sim/peers/{peerId}/jobs/{jobId}/complete` {upload_key?} → the Job (succeeded)
 * - `POST /sim/peers/{peerId}/jobs/{jobId}/fail` {reason} → the Job (failed)
 * - `POST /sim/ephemeral/sweep` → {deleted: peer ids}
 *
 * The routes take no Authorization header: they play the agent, whose only credential is the setup key at
 * enrollment. --simulate is a switch for local testing, never for a shared server.
 *
 * Decisions where the spec is silent:
 * - Enrollment checks the key in the real service's order: unknown → 401, revoked / expired / usage limit
 *   reached → 403 (message says which), extra DNS labels with a key that does not allow them → 412.
 * - Metadata, as an agent reports it: `version`, `os`, `goos` (the OS family the posture checks use: linux,
 *   darwin, windows, android, ios), `os_version`, `kernel_version`, `country_code`, `city_name`,
 *   `connection_ip`, `network_addresses` (local addresses with their prefix, e.g. 192.168.1.10/24) and
 *   `processes` (paths of running processes). What enrollment is not told is the agent's default (peer-factory.ts):
 *   agent 0.40.0 on linux, kernel 6.1.0, in DE/Berlin, one LAN address 192.168.1.10/24, no process of interest,
 *   and no OS version (linux and windows checks read the kernel version; for darwin, android and ios send
 *   `os_version`, or the network map says the check depends on it). `goos` left out follows `os` when it names
 *   a family. Setting metadata is not audited (agents report it on every login).
 * - Connecting and disconnecting change only the peer's status (connected, last_seen); like the real service,
 *   they write no audit event, since they are agent heartbeats, not changes of the configuration. Enrollment
 *   (`peer.add`), job completion and the deletions below are audited.
 * - A temporary-access peer is deleted when it disconnects, with its policies (spec part 3).
 * - An ephemeral peer is NOT deleted when it disconnects: the real service removes ephemeral peers after about
 *   10 minutes offline. Here {@link sweepEphemeralPeers} (or `POST /sim/ephemeral/sweep`) deletes those that
 *   have been disconnected for at least {@link EPHEMERAL_TTL_MS}; nothing runs it on a timer, so tests decide.
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { ipAddress, parseCidr, strLen, validate, z } from "../api/common";
import type { Job } from "../api/job";
import type { Peer } from "../api/peer";
import { iso } from "./clock";
import { accountOf, type ServerState } from "./context";
import { mustGet } from "./domain";
import { conflict, forbidden, invalid, isApiError, preconditionFailed, unauthorized } from "./errors";
import { finishJobDoc, jobView, PeerIndex, peerView, removePeer, type RemovedPeers } from "./handlers/peers";
import { findSetupKeyByValue, setupKeyState, type SetupKeyDoc } from "./handlers/setup-keys";
import { newId } from "./ids";
import type { AgentMeta, GroupDoc, PeerDoc } from "./model";
import { applyReport, createPeerDoc } from "./peer-factory";
import type { Tx } from "./store";

/** How long an ephemeral peer may stay disconnected before a sweep deletes it (the real service: 10 minutes). */
export const EPHEMERAL_TTL_MS = 10 * 60_000;

const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** What an agent reports about its host; every member optional. */
const metaFields = {
  version: strLen(1, 64).optional(),
  os: strLen(1, 64).optional(),
  goos: z
    .string()
    .regex(/^[a-z0-9]{1,32}$/, { error: "must be an OS family in lower case, such as linux or darwin" })
    .optional(),
  os_version: strLen(0, 64).optional(),
  kernel_version: strLen(0, 64).optional(),
  country_code: z
    .string()
    .regex(/^([A-Z]{2})?$/, { error: "must be an ISO 3166-1 alpha-2 code such as DE, or empty" })
    .optional(),
  city_name: strLen(0, 255).optional(),
  connection_ip: ipAddress().optional(),
  network_addresses: z
    .array(
      z.string().refine((a) => parseCidr(a) !== undefined, {
        error: "must be an address with its prefix length, such as 192.168.1.10/24",
      }),
    )
    .max(64, { error: "must have at most 64 items" })
    .optional(),
  processes: z.array(strLen(1, 4096)).max(256, { error: "must have at most 256 items" }).optional(),
};

const EnrollSchema = z.object({
  setup_key: z.string().min(1, { error: "must not be empty" }),
  hostname: strLen(1, 255),
  wg_pub_key: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, { error: "must be a WireGuard public key (44 base64 characters)" })
    .optional(),
  extra_dns_labels: z
    .array(z.string().regex(DNS_LABEL, { error: "must be a DNS label (letters, digits, hyphens)" }))
    .optional(),
  ...metaFields,
});

const MetaSchema = z.strictObject(metaFields).refine((m) => Object.keys(m).length > 0, {
  error: `at least one of ${Object.keys(metaFields).join(", ")} is required`,
});

/** Metadata an agent reports (enrollment, `POST /sim/peers/{peerId}/meta`). */
export type AgentReport = z.input<typeof MetaSchema>;

/** What an agent sends to enroll. */
export type EnrollInput = z.input<typeof EnrollSchema>;

const CompleteSchema = z.object({ upload_key: strLen(1, 255).optional() });
const FailSchema = z.object({ reason: strLen(1, 1024) });

function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const v = validate(schema, data ?? {});
  if (!v.ok) throw invalid(v.message);
  return v.value;
}

/** Audit events of the agent: no user initiates them; the initiator is the setup key or the peer. */
function agentAudit(
  tx: Tx,
  now: number,
  code: string,
  activity: string,
  initiator: string,
  target: string,
  meta: Record<string, unknown>,
): void {
  tx.audit({
    timestamp: iso(now),
    activity,
    activity_code: code,
    initiator_id: initiator,
    target_id: target,
    meta,
  });
}

/** Enrolls a new peer with a setup key, as an agent's first login does. Returns the Peer. */
export function enrollPeer(state: ServerState, input: EnrollInput): Peer {
  const body = parse(EnrollSchema, input);
  return state.store.tx((tx) => {
    const now = state.clock.now();
    // Messages below never echo the key: it is a secret.
    const key = findSetupKeyByValue(tx, body.setup_key);
    if (!key) throw unauthorized("setup_key: unknown setup key");
    const keyState = setupKeyState(key, now);
    if (keyState === "revoked") throw forbidden(`setup key ${key.id} is revoked`);
    if (keyState === "expired") throw forbidden(`setup key ${key.id} is expired`);
    if (keyState === "overused") throw forbidden(`setup key ${key.id} has reached its usage limit`);
    const labels = [...new Set(body.extra_dns_labels ?? [])];
    if (labels.length && !key.allow_extra_dns_labels)
      throw preconditionFailed(`extra_dns_labels: setup key ${key.id} does not allow extra DNS labels`);
    const wgPubKey = body.wg_pub_key ?? randomBytes(32).toString("base64");
    const clash = tx.all<PeerDoc>("peer").find((p) => p.wg_pub_key === wgPubKey);
    if (clash) throw conflict(`wg_pub_key: peer ${clash.id} is already enrolled with this WireGuard key`);
    const extra = accountOf(tx).settings.extra as { peer_approval_enabled?: boolean } | undefined;
    const peer = createPeerDoc(tx, {
      hostname: body.hostname,
      wgPubKey,
      now,
      report: body,
      ephemeral: key.ephemeral,
      setupKeyId: Number(key.id),
      extraDnsLabels: labels,
      // Peer approval is a cloud feature; setup-key peers wait for approval when the account enables it.
      approvalRequired: state.options.cloud && extra?.peer_approval_enabled === true,
    });
    for (const gid of key.auto_groups) {
      const g = tx.get<GroupDoc>("group", gid);
      // `All` holds every peer implicitly; a deleted group is skipped (group deletion refuses used groups).
      if (g && !g.builtin && !g.peers.includes(peer.id))
        tx.put("group", { ...g, peers: [...g.peers, peer.id] });
    }
    const usedKey: SetupKeyDoc = { ...key, used_times: key.used_times + 1, last_used: iso(now) };
    tx.put("setup_key", usedKey);
    agentAudit(tx, now, "peer.add", "Peer added with a setup key", key.id, peer.id, {
      name: peer.name,
      setup_key_id: Number(key.id),
      ephemeral: peer.ephemeral,
    });
    return peerView(new PeerIndex(tx), peer);
  });
}

/** The agent reports new metadata: the members given replace the peer's; returns the Peer and its metadata. */
export function reportMeta(
  state: ServerState,
  peerId: string,
  input: AgentReport,
): { peer: Peer; meta: AgentMeta } {
  const report = parse(MetaSchema, input);
  return state.store.tx((tx) => {
    const p = mustGet<PeerDoc>(tx, "peer", peerId, "peer");
    const next = applyReport(p, report);
    tx.put("peer", next);
    return { peer: peerView(new PeerIndex(tx), next), meta: { ...next.meta } };
  });
}

/** The user of a peer logs in again: last_login = now and the login is no longer expired. */
export function loginPeer(state: ServerState, peerId: string): Peer {
  return state.store.tx((tx) => {
    const p = mustGet<PeerDoc>(tx, "peer", peerId, "peer");
    const next: PeerDoc = { ...p, last_login: iso(state.clock.now()), login_expired: false };
    tx.put("peer", next);
    return peerView(new PeerIndex(tx), next);
  });
}

/** Marks a peer connected (last_seen = now). */
export function connectPeer(state: ServerState, peerId: string): Peer {
  return state.store.tx((tx) => {
    const p = mustGet<PeerDoc>(tx, "peer", peerId, "peer");
    const next: PeerDoc = { ...p, connected: true, last_seen: iso(state.clock.now()) };
    tx.put("peer", next);
    return peerView(new PeerIndex(tx), next);
  });
}

/** The result of {@link disconnectPeer}: the peer as it was left, and what was deleted. */
export interface DisconnectResult {
  peer: Peer;
  /** True for a temporary-access peer, which is deleted on disconnect. */
  deleted: boolean;
  policies_deleted: string[];
}

function deleteAudited(tx: Tx, now: number, peer: PeerDoc, reason: string): RemovedPeers {
  const removed = removePeer(tx, peer);
  agentAudit(tx, now, "peer.delete", "Peer deleted", peer.id, peer.id, {
    name: peer.name,
    reason,
    policies_deleted: removed.policies,
  });
  return removed;
}

/** Marks a peer disconnected; a temporary-access peer is deleted with its policies. */
export function disconnectPeer(state: ServerState, peerId: string): DisconnectResult {
  return state.store.tx((tx) => {
    const now = state.clock.now();
    const p = mustGet<PeerDoc>(tx, "peer", peerId, "peer");
    const next: PeerDoc = { ...p, connected: false, last_seen: iso(now) };
    // The view is taken before any deletion so the caller sees the peer's last state.
    const view = peerView(new PeerIndex(tx), next);
    if (p.temporary_for !== undefined) {
      const removed = deleteAudited(tx, now, p, "temporary access peer disconnected");
      return { peer: view, deleted: true, policies_deleted: removed.policies };
    }
    tx.put("peer", next);
    return { peer: view, deleted: false, policies_deleted: [] };
  });
}

/** Deletes ephemeral peers disconnected for at least {@link EPHEMERAL_TTL_MS}; returns their ids. */
export function sweepEphemeralPeers(state: ServerState): string[] {
  return state.store.tx((tx) => {
    const now = state.clock.now();
    const deleted: string[] = [];
    for (const p of tx.all<PeerDoc>("peer")) {
      if (!p.ephemeral || p.connected || !tx.get("peer", p.id)) continue;
      if (now - Date.parse(p.last_seen) < EPHEMERAL_TTL_MS) continue;
      try {
        deleted.push(...deleteAudited(tx, now, p, "ephemeral peer offline").peers);
      } catch (err) {
        // removePeer checks before it writes: a peer still in use (e.g. by a route) stays, nothing half-done.
        if (!isApiError(err)) throw err;
      }
    }
    return deleted;
  });
}

/** The agent finishes a pending job: `succeeded` (with an upload key) or `failed` (with a reason). */
export function finishJob(
  state: ServerState,
  peerId: string,
  jobId: string,
  outcome: { status: "succeeded"; uploadKey?: string } | { status: "failed"; reason: string },
): Job {
  return state.store.tx((tx) => {
    const now = state.clock.now();
    const done = finishJobDoc(
      tx,
      peerId,
      jobId,
      now,
      outcome.status === "succeeded"
        ? { status: "succeeded", uploadKey: outcome.uploadKey ?? `bundles/${peerId}/${newId()}.zip` }
        : outcome,
    );
    agentAudit(
      tx,
      now,
      outcome.status === "succeeded" ? "peer.job.succeed" : "peer.job.fail",
      outcome.status === "succeeded" ? "Peer job succeeded" : "Peer job failed",
      peerId,
      jobId,
      { peer_id: peerId, status: done.status },
    );
    return jobView(done);
  });
}

/** Registers the /sim routes on the server's app (only with --simulate). */
export function registerSimulator(app: FastifyInstance, state: ServerState): void {
  type Params = { peerId: string; jobId: string };
  app.post("/sim/enroll", async (req) => enrollPeer(state, (req.body ?? {}) as EnrollInput));
  app.post<{ Params: Params }>("/sim/peers/:peerId/meta", async (req) =>
    reportMeta(state, req.params.peerId, (req.body ?? {}) as AgentReport),
  );
  app.post<{ Params: Params }>("/sim/peers/:peerId/login", async (req) =>
    loginPeer(state, req.params.peerId),
  );
  app.post<{ Params: Params }>("/sim/peers/:peerId/connect", async (req) =>
    connectPeer(state, req.params.peerId),
  );
  app.post<{ Params: Params }>("/sim/peers/:peerId/disconnect", async (req) =>
    disconnectPeer(state, req.params.peerId),
  );
  app.post<{ Params: Params }>("/sim/peers/:peerId/jobs/:jobId/complete", async (req) => {
    const body = parse(CompleteSchema, req.body);
    return finishJob(state, req.params.peerId, req.params.jobId, {
      status: "succeeded",
      uploadKey: body.upload_key,
    });
  });
  app.post<{ Params: Params }>("/sim/peers/:peerId/jobs/:jobId/fail", async (req) => {
    const body = parse(FailSchema, req.body);
    return finishJob(state, req.params.peerId, req.params.jobId, { status: "failed", reason: body.reason });
  });
  app.post("/sim/ephemeral/sweep", async () => ({ deleted: sweepEphemeralPeers(state) }));
}
