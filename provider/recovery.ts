/**
 * Creates an interrupted run left behind. When `pulumi up` is killed (CI runner gone, laptop asleep, `kill -9`)
 * after a create reached the server but before the engine recorded its result, the object exists on the server
 * and not in the state. The engine keeps a note of it in the state, a pending "creating" operation for the
 * resource's URN (with the object's id when the create had answered), and on the next `pulumi up` it asks the
 * provider to create the resource again: a unique name answers 409, a name that may repeat makes a second
 * object, and the first one is never deleted by `pulumi destroy`.
 *
 * So before creating, the provider looks for such an object and takes it over instead:
 *
 * 1. Which stack and resource a create is for (an {@link Owner}), handed in by whoever calls check and create, in
 *    every language the same facts: the resource plugin takes them from the URN the engine sends with each Check
 *    and Create (`urn:pulumi:<stack>::<project>::...`, {@link ownerOfUrn}); the dynamic-provider host sends only
 *    inputs, so there the sdk's resource classes pass a hidden input, {@link OWNER_INPUT} =
 *    `{ stack: "org/project/stack", urn }` (no secret; kept in inputs and outputs like `__provider`; never
 *    compared, never sent to the API). This module never learns which of them called it. A create without an
 *    owner (tests, hand-made providers) is an ordinary create.
 * 2. The stack's notes: its state is read once per provider process with `pulumi stack export` (the CLI that
 *    runs the update, in the provider's working directory, the project's, with the environment the engine gave
 *    it: so any backend it is logged in to, also on a fresh CI machine), or, when `PULUMI_BACKEND_URL` names a file
 *    backend, from the stack's checkpoint file the CLI would read ({@link readCheckpointFile}: the same document,
 *    without starting the CLI), before any create of the run can start:
 *    - the check of a resource the state does not hold (no old inputs: a create follows) waits for it, and so does
 *      every check once the read has begun;
 *    - a diff that answers a replacement (a create follows) waits for it;
 *    - the check of a resource the state holds does not start it: a run that creates nothing (a preview or an up
 *      without new resources) reads nothing. The engine may still replace such a resource without asking the
 *      provider's diff (`--replace`, a changed provider), so its create could be noted before the read: pending
 *      creates of resources checked before the read began are left out of the notes, as maybe this run's.
 *    So every pending create the notes keep was left by an earlier run. Only then, and only if there are pending
 *    creates of privnet kinds without an id, the objects of those kinds (per parent), the token's user and the
 *    audit log are read once, so that objects this run creates are never candidates.
 * 3. Takeover happens only for a resource whose create the state records as interrupted (a pending create of a
 *    privnet type, of either hosting, with that URN), and only of:
 *    - the object whose id the engine recorded for that create (the create had answered), if it still exists;
 *    - else an object of the same kind (and parent) whose values equal what the interrupted create sent (so the
 *      same name), that the audit log shows was created by this token's user, that no resource of this stack's
 *      state holds, that no other resource took over in this run, and only when it is not ambiguous (no more
 *      such objects than interrupted creates with those values).
 *    Taking over keeps the object's id and updates it where the program has changed since. Kinds whose create
 *    returns a value only once (a setup key's key, a token, an invite link) and objects the program now needs
 *    replaced are deleted and made anew, so the program gets the value: such an object is the stack's own.
 * 4. Anything else with the same name is not the stack's: a unique name still fails, and the error names the
 *    existing object's id, why it is not taken over and how to adopt it (`adoptId`); for a name that may repeat
 *    the new object is created and a warning names the other one.
 *
 * Limits: the server keeps no mark of who asked for an object beyond its user. If the interrupted create never
 * reached the server and, meanwhile, someone using the same user (another stack with the same token, a script)
 * made an object with exactly the values this resource has, that object is taken over (a warning names it): one
 * user per stack rules this out. Without the CLI on PATH, or with `PULUMI_SKIP_CHECKPOINTS` (no notes are
 * written), nothing is recognised and a warning says so.
 */
import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import isEqual from "lodash/isEqual";
import { operationById, operations } from "../api/operations";
import { isPrivnetApiError } from "../client";
import { warn } from "./diagnostics";
import type { Comparison } from "./lifecycle";
import type * as KindModules from "./kind-modules";
import {
  isRecord,
  listAnswer,
  parentPathParams,
  type LifecycleContext,
  type Props,
  type ResourceSpec,
} from "./spec";

import { kindOfType, OWNER_INPUT, projectOfUrn, type Owner } from "../model/hidden-inputs";

/** The owner the hidden input of a set of inputs names, if any (a value unknown during preview names none). */
export function ownerOf(props: Props | undefined): Owner | undefined {
  const v = props?.[OWNER_INPUT];
  if (!isRecord(v)) return undefined;
  const { stack, urn } = v;
  if (typeof stack !== "string" || typeof urn !== "string" || !stack || !urn.startsWith("urn:pulumi:"))
    return undefined;
  return { stack, urn };
}

/**
 * Keeps the owner input in outputs (from the inputs after a create or update, from the previous outputs after a
 * read), so that what a refresh reports as inputs still holds it.
 */
export function carryOwner(out: Props, from: Props | undefined): Props {
  const v = from?.[OWNER_INPUT];
  if (v !== undefined) out[OWNER_INPUT] = v;
  return out;
}

// --- the stack's state ---------------------------------------------------------------------------------------

/** A create the state records as interrupted. */
export interface PendingCreate {
  urn: string;
  /** The privnet kind (`Group`), whichever hosting made it (see {@link kindOfType}). */
  kind: string;
  /** The object's id, when the create had answered before the run was killed. */
  id?: string;
  inputs: Props;
}

/** What the state says about interrupted creates. */
export interface StackNotes {
  /** Interrupted creates of privnet resources, by URN. */
  pending: Map<string, PendingCreate[]>;
  /** Ids of the state's resources. */
  managed: Set<string>;
  /** URNs of the state's resources. */
  urns: Set<string>;
  /** Ids the state holds: its resources', and every pending operation's that has one. */
  held: Set<string>;
}

/** Reads the state of the stack an owner names: the text `pulumi stack export` prints (secrets stay encrypted). */
export type StateReader = (owner: Owner) => Promise<string>;

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.trim().slice(0, 300);
}

/** Where and with what environment the CLI runs: this process's unless given (tests). */
export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** `pulumi <args>` with the CLI on PATH, in this process's directory, with its environment; stdout. */
const pulumi = (args: string[], opts: CliOptions = {}): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive"],
      {
        ...(opts.cwd ? { cwd: opts.cwd } : {}),
        env: { ...(opts.env ?? process.env), PULUMI_SKIP_UPDATE_CHECK: "true" },
        maxBuffer: 1024 * 1024 * 1024,
        timeout: 120_000,
      },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(`pulumi ${args.slice(0, 2).join(" ")}: ${firstLine(String(stderr)) || err.message}`),
          );
        else resolve(String(stdout));
      },
    );
  });

/** The stack's name (`dev`) and project an owner names, when its stack is not fully qualified. */
function shortStack(owner: Owner): { stack: string; project: string } | undefined {
  const project = projectOfUrn(owner.urn);
  return owner.stack.includes("/") || !project ? undefined : { stack: owner.stack, project };
}

/** How messages name an owner's stack. */
function stackLabel(owner: Owner): string {
  const short = shortStack(owner);
  return short ? `${short.stack} (project ${short.project})` : owner.stack;
}

/**
 * The stack's checkpoint file, read as the CLI would read it, when the backend is a directory that
 * `PULUMI_BACKEND_URL` names (`file:///<absolute path>`: a CI job's, an Automation API program's, these tests'; the
 * variable decides the CLI's backend over any other setting): `.pulumi/stacks/<project>/<stack>.json` under it, the
 * layout of `.pulumi/meta.yaml` version 1. It holds the same deployment `pulumi stack export` prints (as
 * `checkpoint.latest`), without starting the CLI, a 0.1 s start of CPU that every `up` creating resources paid before
 * its first create. Undefined whenever the CLI's own answer could differ: another backend, a path the CLI resolves
 * itself (`~`, relative, escaped), another layout, a compressed checkpoint (the CLI takes the newest of `.json`,
 * `.json.gz` and `.json.zst`), an organization other than a file backend's one, no such file; the CLI then reads it.
 */
export async function readCheckpointFile(
  owner: Owner,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const url = env.PULUMI_BACKEND_URL ?? "";
  if (!url.startsWith("file://") || process.platform === "win32") return undefined;
  const dir = url.slice("file://".length).split("?")[0]!;
  if (!path.isAbsolute(dir) || dir.includes("%")) return undefined;
  const parts = owner.stack.split("/");
  const [stack, project] =
    parts.length === 3 && parts[0] === "organization"
      ? [parts[2]!, parts[1]!]
      : parts.length === 1
        ? [parts[0]!, projectOfUrn(owner.urn)]
        : [];
  if (!stack || !project || [stack, project].some((p) => p === "." || p === ".." || p.includes(path.sep)))
    return undefined;
  const state = path.join(dir, ".pulumi");
  const file = path.join(state, "stacks", project, `${stack}.json`);
  try {
    if ((await readFile(path.join(state, "meta.yaml"), "utf8")).trim() !== "version: 1") return undefined;
    for (const compressed of [".gz", ".zst"]) {
      const found = await stat(file + compressed).then(
        () => true,
        () => false,
      );
      if (found) return undefined;
    }
    return await readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The owner's stack as `pulumi stack export` prints it: from the checkpoint file of a file backend
 * ({@link readCheckpointFile}), else from `pulumi stack export`, with the CLI on PATH (the one the engine runs under,
 * with the environment it gave this process: its backend and credentials).
 *
 * A fully qualified stack (`organization/project/stack`) is exported as named. A stack named as the URN names it
 * (its name alone) is looked up as the CLI looks it up: first in this process's directory, which the engine sets to
 * the project's (or its `main` directory, under the project); an export that holds no resource of that stack and
 * project (the directory of an Automation API inline program is its process's, anywhere) is not taken, and the
 * stack is then named in full, `<organization>/<project>/<stack>`, with the backend's default organization
 * (`pulumi org get-default`; the user's own without one; `organization` on a self-managed backend).
 */
const exportStack: StateReader = async (owner) => {
  const file = await readCheckpointFile(owner);
  if (file !== undefined) return file;
  return exportWithCli(owner);
};

/** `pulumi stack export` of the owner's stack (see {@link exportStack}). */
export async function exportWithCli(owner: Owner, opts: CliOptions = {}): Promise<string> {
  const short = shortStack(owner);
  if (!short) return pulumi(["stack", "export", "--stack", owner.stack], opts);
  const mine = `"urn:pulumi:${short.stack}::${short.project}::`;
  const here = await pulumi(["stack", "export", "--stack", short.stack], opts).catch(() => undefined);
  if (here?.includes(mine)) return here;
  let org = await pulumi(["org", "get-default"], opts).then(
    (out) => out.trim(),
    // "backends of this type ... do not support organizations": a self-managed backend's one organization.
    () => "organization",
  );
  if (org === "" || /^No Default Org/i.test(org)) org = (await pulumi(["whoami"], opts)).trim();
  return pulumi(["stack", "export", "--stack", `${org}/${short.project}/${short.stack}`], opts);
}

let readState: StateReader = exportStack;

/** Replaces how the state is read (tests); undefined restores `pulumi stack export`. Returns the previous one. */
export function setStateReader(fn: StateReader | undefined): StateReader {
  const previous = readState;
  readState = fn ?? exportStack;
  before.clear();
  checkedEarly.clear();
  claimed.clear();
  warnedUnreadable = false;
  return previous;
}

/**
 * The notes in an export (`{ deployment: { resources, pending_operations } }`) or in a checkpoint file, which holds
 * the same deployment as `{ checkpoint: { latest } }`.
 */
export function parseNotes(text: string): StackNotes {
  const doc: unknown = JSON.parse(text);
  const d = !isRecord(doc)
    ? {}
    : isRecord(doc.deployment)
      ? doc.deployment
      : isRecord(doc.checkpoint) && isRecord(doc.checkpoint.latest)
        ? doc.checkpoint.latest
        : {};
  const resources = Array.isArray(d.resources) ? d.resources : [];
  const pendingOperations = Array.isArray(d.pending_operations) ? d.pending_operations : [];
  const managed = new Set<string>();
  const urns = new Set<string>();
  const pending = new Map<string, PendingCreate[]>();
  for (const r of resources) {
    if (!isRecord(r)) continue;
    const { id, urn } = r;
    if (typeof id === "string" && id !== "") managed.add(id);
    if (typeof urn === "string") urns.add(urn);
  }
  const held = new Set(managed);
  for (const op of pendingOperations) {
    if (!isRecord(op)) continue;
    const { type, resource } = op;
    if (!isRecord(resource)) continue;
    const id = typeof resource.id === "string" && resource.id !== "" ? resource.id : undefined;
    if (id) held.add(id);
    const kind = typeof resource.type === "string" ? kindOfType(resource.type) : undefined;
    if (type !== "creating" || !kind) continue;
    const urn = String(resource.urn ?? "");
    const entry: PendingCreate = {
      urn,
      kind,
      inputs: isRecord(resource.inputs) ? resource.inputs : {},
    };
    if (id) entry.id = id;
    pending.set(urn, [...(pending.get(urn) ?? []), entry]);
  }
  return { pending, managed, urns, held };
}

// --- what the server held before this run's first create -----------------------------------------------------

/** The first audit event of an object: who created it, and when. */
interface Creation {
  initiator: string;
  at: string;
}

/** The stack's notes, and (only when there are interrupted creates without an id) the server before this run. */
interface Before {
  notes: StackNotes | Error;
  userId?: string | Error;
  creations?: Map<string, Creation> | Error;
  /** Objects (as the API answers them) by `type + parent params`. */
  lists: Map<string, Props[] | Error>;
}

/** By stack (see {@link stackLabel}). */
const before = new Map<string, Promise<Before>>();

/**
 * By stack, before its state is read: URNs of resources the state holds whose check has answered (see step 2 of
 * the module comment). The engine may already have noted a create of this run for them.
 */
const checkedEarly = new Map<string, Set<string>>();

/**
 * A kind's spec, its module loaded when first needed (only the kinds a stack's pending creates name): each kind's
 * module loads this one.
 */
function specByKind(kind: string): ResourceSpec | undefined {
  const { KIND_MODULES }: typeof KindModules = require("./kind-modules");
  return Object.hasOwn(KIND_MODULES, kind) ? KIND_MODULES[kind]?.().spec : undefined;
}

/** The operation that lists a kind's objects: GET of the read path without its id (or the read itself). */
export function listOperation(spec: ResourceSpec): string | undefined {
  const read = operationById(spec.ops.read);
  if (!spec.idParam || !read.path.endsWith(`/{${spec.idParam}}`))
    return read.method === "GET" ? read.operationId : undefined;
  const path = read.path.slice(0, -`/{${spec.idParam}}`.length);
  return operations().find((r) => r.method === "GET" && r.path === path)?.operationId;
}

function listKey(spec: ResourceSpec, params: Record<string, string>): string {
  return `${spec.name} ${JSON.stringify(params)}`;
}

function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function settle<T>(p: Promise<T>): Promise<T | Error> {
  try {
    return await p;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

async function loadBefore(owner: Owner, ctx: () => LifecycleContext): Promise<Before> {
  const notes = await settle(
    readState(owner).then((text) => {
      try {
        return parseNotes(text);
      } catch (err) {
        throw new Error(`the state does not parse: ${describeError(err)}`, { cause: err });
      }
    }),
  );
  const result: Before = { notes, lists: new Map() };
  if (notes instanceof Error) return result;
  // Maybe this run's (a replacement the engine decided alone): not known to be an earlier run's.
  for (const urn of checkedEarly.get(stackLabel(owner)) ?? []) notes.pending.delete(urn);
  const unproven = [...notes.pending.values()].flat().filter((p) => !p.id);
  if (unproven.length === 0) return result;
  let client: LifecycleContext["client"];
  try {
    client = ctx().client;
  } catch (err) {
    result.userId = err instanceof Error ? err : new Error(String(err));
    return result;
  }
  for (const p of unproven) {
    const spec = specByKind(p.kind);
    const op = spec && listOperation(spec);
    const params = spec && parentPathParams(spec, p.inputs);
    if (!spec || !op || !params) continue;
    const key = listKey(spec, params);
    if (!result.lists.has(key))
      result.lists.set(
        key,
        await settle(client.call(op, { params }).then((answer) => listAnswer(answer, op))),
      );
  }
  result.userId = await settle(
    client.call<{ id?: unknown }>("getCurrentUser").then((u) => {
      if (u.id === undefined || u.id === null) throw new Error("the current user has no id");
      return String(u.id);
    }),
  );
  result.creations = await settle(
    client.call("listAuditEvents").then((events) => {
      const first = new Map<string, Creation & { order: number }>();
      listAnswer(events, "listAuditEvents").forEach((e, i) => {
        const target = e.target_id === undefined || e.target_id === null ? "" : String(e.target_id);
        if (target === "") return;
        const at = String(e.timestamp ?? "");
        const order = typeof e.id === "number" ? e.id : -i;
        const seen = first.get(target);
        // The oldest event of a target is its creation (the log is answered newest first).
        if (!seen || Date.parse(at) < Date.parse(seen.at) || (at === seen.at && order < seen.order)) {
          const code = String(e.activity_code ?? "");
          first.set(target, {
            initiator: /\.(add|create|invite)$/.test(code) ? String(e.initiator_id ?? "") : "",
            at,
            order,
          });
        }
      });
      return new Map([...first].map(([k, v]) => [k, { initiator: v.initiator, at: v.at }]));
    }),
  );
  return result;
}

function beforeOf(owner: Owner, ctx: () => LifecycleContext): Promise<Before> {
  const key = stackLabel(owner);
  let p = before.get(key);
  if (!p) {
    p = loadBefore(owner, ctx);
    before.set(key, p);
  }
  return p;
}

/**
 * Called by check with the resource's owner and its old inputs (none or empty: the state does not hold it): reads
 * the stack's notes (once per process) before a check that a create may follow returns, and before any check once
 * the read has begun (see step 2 of the module comment). Never fails: a failure is reported at the first create.
 */
export async function prepareRecovery(
  owner: Owner | undefined,
  olds: Props | undefined,
  ctx: () => LifecycleContext,
): Promise<void> {
  if (!owner) return;
  const key = stackLabel(owner);
  if (!before.has(key) && olds && Object.keys(olds).length > 0) {
    let early = checkedEarly.get(key);
    if (!early) checkedEarly.set(key, (early = new Set()));
    early.add(owner.urn);
    return;
  }
  await beforeOf(owner, ctx);
}

/**
 * Called by diff before it answers a replacement (its create follows): reads the stack's notes first, as a check
 * of a new resource does. The resource's own notes are kept: its create cannot have started yet.
 */
export async function prepareReplacement(
  owner: Owner | undefined,
  ctx: () => LifecycleContext,
): Promise<void> {
  if (!owner) return;
  checkedEarly.get(stackLabel(owner))?.delete(owner.urn);
  await beforeOf(owner, ctx);
}

// --- at create -----------------------------------------------------------------------------------------------

/** What recovery needs of a kind's provider. */
export interface RecoveryHost {
  spec: ResourceSpec;
  ctx(): LifecycleContext;
  read(id: string, props: Props): Promise<{ id?: string; props?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs?: Props }>;
  delete(id: string, props: Props): Promise<void>;
  /** Compares outputs (olds) with inputs (news), field by field, as diff does. */
  compare(olds: Props, news: Props): Comparison;
  /** Outputs of an API object, as a create would build them from these inputs. */
  outputsOf(object: Props, inputs: Props): Props;
}

/** Why an object with the resource's name was not taken over. */
export interface Refusal {
  id: string;
  reason: string;
}

/** The outcome of looking for an object an interrupted run created. */
export interface Recovery {
  /** The object taken over: create returns this instead of creating. */
  result?: { id: string; outs: Props };
  /** Objects with this resource's name that were not taken over, and why. */
  refused: Refusal[];
  /** Why nothing with this name could be the stack's, when there is one reason for all. */
  reason?: string;
}

/** Ids taken over (or deleted to be made anew) in this process: no other resource may take them. */
const claimed = new Set<string>();

let queue: Promise<unknown> = Promise.resolve();
/** Runs decisions one at a time, so that two resources never take the same object. */
function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

let warnedUnreadable = false;

/** Inputs as a comparison sees them: without the provider, the owner, secrets and write-only values. */
function comparable(spec: ResourceSpec, props: Props): Props {
  const out: Props = {};
  const skip = new Set([...(spec.secretInputs ?? []), ...(spec.writeOnly ?? [])]);
  for (const [k, v] of Object.entries(props)) {
    if (k === "__provider" || k === OWNER_INPUT || skip.has(k)) continue;
    // A secret recorded in the state is ciphertext: it cannot be compared, so it is left out.
    if (v && typeof v === "object" && "4dabf18193072939515e22adb298388d" in v) continue;
    out[k] = v;
  }
  return out;
}

/** What names an object: its email where it has one (users and invites: unique), else its name. */
function labelKey(props: Props): "email" | "name" {
  return typeof props.email === "string" && props.email !== "" ? "email" : "name";
}

function labelOf(props: Props): string | undefined {
  const label = props[labelKey(props)];
  return typeof label === "string" && label !== "" ? label : undefined;
}

function describe(spec: ResourceSpec, inputs: Props, id?: string): string {
  const label = labelOf(inputs);
  return `${spec.name}${label ? ` ${JSON.stringify(label)}` : ""}${id ? ` (id ${id})` : ""}`;
}

const CLEAR_HINT =
  "After this update, run `pulumi refresh --clear-pending-creates` so that the engine drops its note of the " +
  "interrupted create.";

/** Takes over `id` for this resource: reads it, then keeps it, updates it, or deletes it to be made anew. */
async function takeOver(
  host: RecoveryHost,
  inputs: Props,
  id: string,
  how: string,
): Promise<{ id: string; outs: Props } | undefined> {
  const { spec } = host;
  claimed.add(id);
  const found = await host.read(id, inputs);
  if (!found.id || !found.props) return undefined;
  const cmp = host.compare(found.props, inputs);
  const once = spec.createOnlyOutputs ?? [];
  if (once.length > 0 || cmp.replaces.length > 0) {
    await host.delete(id, found.props);
    const why =
      once.length > 0
        ? `its ${once.join(", ")} was answered only to that run`
        : `the program now sets ${cmp.replaces.join(", ")}, which the API cannot change in place`;
    await warn(
      `privnet: ${describe(spec, inputs, id)}: an interrupted run of this stack created this object (${how}), but ` +
        `${why}: it is deleted and made anew. ${CLEAR_HINT}`,
    );
    return undefined;
  }
  const outs =
    cmp.changed.length > 0 ? ((await host.update(id, found.props, inputs)).outs ?? found.props) : found.props;
  await warn(
    `privnet: ${describe(spec, inputs, id)}: an interrupted run of this stack created this object (${how}); ` +
      `this resource takes it over instead of creating another${
        cmp.changed.length > 0 ? ` (updated: ${cmp.changed.join(", ")})` : ""
      }. ${CLEAR_HINT}`,
  );
  return { id, outs };
}

/**
 * Before a create of the resource `owner` names: takes over the object an interrupted run of this stack created
 * for it, if there is one (see the module comment). Returns what was not taken over with this resource's name,
 * and why, for the conflict error or the warning.
 */
export async function recoverInterruptedCreate(
  host: RecoveryHost,
  inputs: Props,
  owner: Owner | undefined,
): Promise<Recovery> {
  const { spec } = host;
  if (spec.singleton || !spec.ops.create) return { refused: [] };
  if (!owner) return { refused: [], reason: "the create did not say which stack and resource it is for" };
  const b = await beforeOf(owner, () => host.ctx());
  if (b.notes instanceof Error) {
    if (!warnedUnreadable) {
      warnedUnreadable = true;
      await warn(
        `privnet: could not read the state of stack ${stackLabel(owner)} to look for objects an interrupted run ` +
          `created (${b.notes.message}); such objects are not recognised in this run.`,
      );
    }
    return { refused: [], reason: "the stack's state could not be read" };
  }
  const notes = b.notes;
  const mine = notes.pending.get(owner.urn) ?? [];
  if (mine.length === 0)
    return { refused: [], reason: "the stack's state records no interrupted create of this resource" };

  return serialized(async () => {
    // 1. The engine recorded the id: the object is this resource's.
    // (Not when a resource of the state has that id: a stale note, and the object is that resource's.)
    for (const op of mine) {
      if (!op.id || claimed.has(op.id) || notes.managed.has(op.id)) continue;
      const result = await takeOver(host, inputs, op.id, "the engine recorded its id");
      if (result) return { result, refused: [] };
    }
    const unproven = mine.filter((op) => !op.id);
    if (unproven.length === 0)
      return { refused: [], reason: "the object the interrupted create made no longer exists" };

    // 2. Matched by kind, values, creator, and being nobody else's.
    const params = parentPathParams(spec, inputs) ?? {};
    const list = b.lists.get(listKey(spec, params));
    const unreadable = (what: string, e: Error) => ({
      refused: [],
      reason: `${what} could not be read (${describeError(e)}), so no object can be recognised as this stack's`,
    });
    if (!list) return { refused: [], reason: "this kind's objects could not be listed" };
    if (list instanceof Error) return unreadable(`the ${spec.name} list`, list);
    if (b.userId === undefined || b.userId instanceof Error)
      return unreadable("the token's user", b.userId ?? new Error("not read"));
    if (!b.creations || b.creations instanceof Error)
      return unreadable("the audit log", b.creations ?? new Error("not read"));
    const userId = b.userId;
    const creations = b.creations;

    const sent = unproven.map((op) => comparable(spec, op.inputs));
    const label = labelOf(inputs) ?? labelOf(unproven[0]?.inputs ?? {});
    const refused: Refusal[] = [];
    const matches: { id: string; at: string }[] = [];
    for (const object of list) {
      const id = String(object.id);
      const outs = host.outputsOf(object, unproven[0]?.inputs ?? inputs);
      const sameName = label !== undefined && labelOf(outs) === label;
      const refuse = (reason: string) => {
        if (sameName) refused.push({ id, reason });
      };
      if (notes.held.has(id)) {
        refuse("a resource of this stack manages it");
        continue;
      }
      if (claimed.has(id)) {
        refuse("another resource took it over in this run");
        continue;
      }
      let differs: string[] | undefined;
      for (const s of sent) {
        const cmp = host.compare(comparable(spec, outs), s);
        // A create-only field the create did not send is the server's choice (a user's name), not a difference.
        const fields = [...cmp.changed, ...cmp.ignored.filter((n) => s[n] !== undefined && s[n] !== null)];
        if (fields.length === 0) {
          differs = undefined;
          break;
        }
        if (!differs || fields.length < differs.length) differs = fields;
      }
      if (differs) {
        refuse(`its values differ from what the interrupted create sent (${differs.join(", ")})`);
        continue;
      }
      const creation = creations.get(id);
      if (!creation || creation.initiator === "") {
        refuse("the audit log does not show who created it");
        continue;
      }
      if (creation.initiator !== userId) {
        refuse(`another user (id ${creation.initiator}) created it, not this token's user`);
        continue;
      }
      matches.push({ id, at: creation.at });
    }
    if (matches.length === 0) return { refused };

    // No more objects may fit than interrupted creates sent these values (a program may hold identical
    // objects); creates of resources the state holds now were resolved in an earlier run.
    let alike = 0;
    for (const [urn, ops] of notes.pending)
      for (const op of ops)
        if (!op.id && op.kind === spec.name && (urn === owner.urn || !notes.urns.has(urn)))
          if (sent.some((s) => isEqual(comparable(spec, op.inputs), s))) alike++;
    if (matches.length > alike) {
      throw new Error(
        `privnet: ${describe(spec, inputs)}: an interrupted run of this stack may have created this object, but ` +
          `${matches.length} objects fit (ids ${matches.map((m) => m.id).join(", ")}: the same values, created by ` +
          `this token's user, managed by no resource of this stack), more than the ${alike} interrupted ` +
          `create(s) with these values, so none is taken over. Set adoptId to the one this resource should ` +
          `manage (see README, "Adoption"), and delete the other(s) if nothing uses them.`,
      );
    }
    // The newest: the interrupted run is the stack's latest.
    const newer = (a: { id: string; at: string }, b: { id: string; at: string }) =>
      Date.parse(b.at) - Date.parse(a.at) || (a.id < b.id ? -1 : 1);
    const newest = matches.reduce((a, b) => (newer(b, a) < 0 ? b : a));
    const result = await takeOver(
      host,
      inputs,
      newest.id,
      "same kind and values, created by this token's user, held by no resource of the stack",
    );
    // Without a result it was deleted to be made anew (or is gone): the create goes ahead.
    return result ? { result, refused } : { refused };
  });
}

/** Whether an API error says that an object with the same name exists. */
function isConflict(err: unknown): boolean {
  if (!isPrivnetApiError(err)) return false;
  return err.status === 409 || (err.status === 422 && /already exists/i.test(err.serverMessage));
}

/**
 * After a create failed because the name is taken: an error that names the existing object, says why it is
 * not taken over, and how to adopt it. Undefined when the error is something else or no such object is found.
 */
export async function explainConflict(
  host: RecoveryHost,
  inputs: Props,
  err: unknown,
  recovery: Recovery,
): Promise<Error | undefined> {
  const { spec } = host;
  const label = labelOf(inputs);
  const op = listOperation(spec);
  const params = parentPathParams(spec, inputs);
  if (!isConflict(err) || !label || !op || !params) return undefined;
  let same: string[];
  try {
    const list = listAnswer(await host.ctx().client.call(op, { params }), op);
    same = list.filter((o) => labelOf(host.outputsOf(o, inputs)) === label).map((o) => String(o.id));
  } catch {
    return undefined;
  }
  const [first] = same;
  if (first === undefined) return undefined;
  // An object recovery did not weigh was not among the kind's objects when this run began: made since.
  const why = (id: string) =>
    recovery.refused.find((r) => r.id === id)?.reason ??
    recovery.reason ??
    "it was made after this run began, so no earlier run of this stack made it";
  const objects = same.map((id) => `id ${id}: ${why(id)}`).join("; ");
  return new Error(
    `privnet: ${describe(spec, inputs)}: the server already has a ${spec.name} with this ${labelKey(inputs)}, and it is not ` +
      `taken over because nothing shows that this stack created it (${objects}). To manage it with this ` +
      `resource, set adoptId: "${first}" (see README, "Adoption"); otherwise give this resource another ${labelKey(inputs)}. ` +
      `(${isPrivnetApiError(err) ? err.serverMessage : describeError(err)})`,
  );
}

/** After a create whose name may repeat: names the objects with the same name that were not taken over. */
export async function reportRefused(
  spec: ResourceSpec,
  inputs: Props,
  id: string,
  recovery: Recovery,
): Promise<void> {
  if (recovery.refused.length === 0) return;
  const objects = recovery.refused.map((r) => `id ${r.id}: ${r.reason}`).join("; ");
  await warn(
    `privnet: ${describe(spec, inputs, id)}: created anew after an interrupted create. Objects with the same ${labelKey(inputs)} ` +
      `were not taken over (${objects}). If one of them is this resource's, set adoptId to its id (see README, ` +
      `"Adoption") and delete the new one.`,
  );
}
