/**
 * One run of the access guard: the account now and after the stack's change, computed once per stack validation
 * and shared by the three policies.
 *
 * The work that does not depend on the resources (reading the account, reading the stack's state) starts as soon
 * as the pack starts during a preview: the engine starts policy packs before it runs the program, and the pack
 * is idle until the program has registered every resource. So the validation itself only maps the planned
 * resources and computes the network maps. During an update (not a preview) the account is read when the
 * validation comes, after the engine has applied the change: it already is the account after the change.
 */
import * as fs from "node:fs";
import { diffAccess, type AccessDiff } from "../access/diff";
import { accountOf, type Account } from "../access/report";
import { snapshotOf } from "../access/snapshot";
import { readLiveObjects, usersOf, type LiveObjects } from "../access/live";
import { affectedPeers } from "./affected";
import { afterAccount, READ_KINDS, type AfterAccount } from "./after";
import { GuardConfigError, connectionOf, tokenHint, type Connection, type PolicyConfig } from "./config";
import {
  exportState,
  parseState,
  pendingOf,
  plannedOf,
  providerUrl,
  stackName,
  type ValidatedResource,
} from "./stack";

/** What a run reads from outside, replaceable in tests. */
export interface GuardIo {
  env: NodeJS.ProcessEnv;
  now(): number;
  readLive(c: Connection): Promise<LiveObjects>;
  exportState(stack: string): Promise<string>;
  /** The pack process's age (ms) when its code was loaded, for the timings file. */
  loadedAtMs?: number;
}

export function defaultIo(env: NodeJS.ProcessEnv = process.env): GuardIo {
  return {
    env,
    now: () => Date.now(),
    readLive: (c) => {
      if (!c.token)
        return Promise.reject(
          new GuardConfigError(
            "no API token: set the stack's privnet:token, PRIVNET_TOKEN, or token in the policy config",
          ),
        );
      return readLiveObjects(c.apiUrl, c.token, READ_KINDS, undefined, tokenHint(c));
    },
    exportState: (stack) => exportState(stack, env),
  };
}

export interface Analysis {
  connection: Connection;
  /** A preview (the change is not applied yet). */
  dryRun: boolean;
  before: Account;
  after: Account;
  diff: AccessDiff;
  result: AfterAccount;
  /** URNs of the stack's resources by the id of the object they hold (policies, groups, ...). */
  owners: Map<string, string>;
  /** Notes about resources left out of the analysis. */
  notes: string[];
  timings: Record<string, number>;
}

/** A failure every policy of the run shares: reported once, by the first policy that needs the account. */
export class SharedFailure extends Error {
  reported = false;
}

export class Guard {
  private readonly live = new Map<string, Promise<LiveObjects>>();
  private state?: Promise<string>;
  private readonly runs = new Map<string, Promise<Analysis>>();
  private readonly configFailures = new Map<string, SharedFailure>();
  readonly dryRun: boolean;

  constructor(readonly io: GuardIo = defaultIo()) {
    // Without the engine's word (an older host), a run is taken as a preview: what an update changes is read
    // live anyway.
    this.dryRun = (io.env.PULUMI_NODEJS_DRY_RUN ?? io.env.PULUMI_DRY_RUN) !== "false";
  }

  /** Starts the reads that do not depend on the resources (a preview only; failures wait for the validation). */
  prefetch(): void {
    if (!this.dryRun) return;
    try {
      const c = connectionOf({}, this.io.env);
      if (c.token) void this.liveOf(c).catch(() => undefined);
    } catch {
      // A bad setting is reported by the validation.
    }
    void this.stateText().catch(() => undefined);
  }

  private liveOf(c: Connection): Promise<LiveObjects> {
    const key = `${c.apiUrl}\u0000${c.token ?? ""}`;
    let p = this.live.get(key);
    if (!p || !this.dryRun) {
      p = this.io.readLive(c);
      this.live.set(key, p);
    }
    return p;
  }

  private stateText(): Promise<string> {
    if (!this.state || !this.dryRun) {
      const stack = stackName(this.io.env);
      this.state = stack
        ? this.io.exportState(stack)
        : Promise.reject(
            new Error("cannot read the stack's state: the engine did not tell the pack which stack this is"),
          );
    }
    return this.state;
  }

  /** The run for these resources and this policy's config (shared by policies with the same connection). */
  analyze(resources: readonly ValidatedResource[], cfg: PolicyConfig): Promise<Analysis> {
    let c: Connection;
    try {
      c = connectionOf(cfg, this.io.env);
    } catch (err) {
      const m = (err as Error).message;
      const f = this.configFailures.get(m) ?? new SharedFailure(m);
      this.configFailures.set(m, f);
      return Promise.reject(f);
    }
    const key = `${c.apiUrl}\u0000${c.token ?? ""}\u0000${resources.map((r) => r.urn).join("\u0000")}`;
    let run = this.runs.get(key);
    if (!run) {
      run = this.compute(resources, c).catch((err: unknown) => {
        throw err instanceof SharedFailure ? err : new SharedFailure(messageOf(err, c));
      });
      // A run that failed is reported once; the other policies see it as reported.
      this.runs.set(key, run);
    }
    return run;
  }

  private async compute(resources: readonly ValidatedResource[], c: Connection): Promise<Analysis> {
    const timings: Record<string, number> = {};
    const t0 = Date.now();
    const [live, stateText] = await Promise.all([this.liveOf(c), this.stateText()]);
    timings.reads_waited = Date.now() - t0;
    const t1 = Date.now();
    const prior = parseState(stateText);
    const pending = pendingOf(stateText);
    const notes: string[] = [];
    if (pending.length)
      notes.push(
        `the stack has ${pending.length} pending operation(s) from an interrupted update: objects they were ` +
          "making are not known to the guard",
      );
    // Resources of another account (an explicit provider with another URL) are left out: one account is checked.
    const other = resources.filter((r) => {
      const url = providerUrl(r);
      return url !== undefined && url !== c.apiUrl;
    });
    if (other.length)
      notes.push(
        `${other.length} resource(s) of another account are left out (the guard checks ${c.apiUrl}): ` +
          other
            .slice(0, 5)
            .map((r) => r.urn.split("::").pop())
            .join(", ") +
          (other.length > 5 ? ", ..." : ""),
      );
    const otherUrns = new Set(other.map((r) => r.urn));

    const planned = plannedOf(
      resources.filter((r) => !otherUrns.has(r.urn)),
      prior,
    );
    const result = afterAccount({ live: live.objects, prior, planned });
    const now = this.io.now();
    const before = accountOf(snapshotOf(result.before, now), live.users);
    const after = accountOf(snapshotOf(result.after, now), usersOf(result.after));
    const diff = diffAccess(before, after, affectedPeers(before.snapshot, after.snapshot));
    const owners = new Map<string, string>();
    for (const [urn, o] of result.objects) owners.set(o.id, urn);
    timings.compute = Date.now() - t1;
    const file = this.io.env.PRIVNET_GUARD_TIMINGS;
    if (file) {
      // For bench/guard.ts: where a run's time goes (the process's age when the pack was loaded included).
      const record = {
        ...timings,
        pack_loaded_at: this.io.loadedAtMs ?? 0,
        lines: diff.gained.length + diff.lost.length,
      };
      fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
    }
    return {
      connection: c,
      dryRun: this.dryRun,
      before,
      after,
      diff,
      result,
      owners,
      notes: [...notes, ...result.notes],
      timings,
    };
  }
}

/** One line for a failure to read, the token never in it. */
function messageOf(err: unknown, c: Connection): string {
  const m = err instanceof Error ? err.message : String(err);
  const text = m.replace(/^privnet(-access|-import)?: /, "");
  return c.token ? text.split(c.token).join("***") : text;
}
