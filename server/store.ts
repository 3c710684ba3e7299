/**
 * Persistence: one SQLite file (WAL) holding every object as a JSON document, with a write-through in-memory
 * copy so reads never touch the disk. Integration credentials are sealed in the file and clear only in memory
 * (server/secrets.ts); the files are the owner's alone (0600). Writes happen only inside {@link Store.tx}: the SQL runs immediately in a
 * transaction and the memory copy changes only after COMMIT, so a failed request changes nothing.
 */
import * as fs from "node:fs";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { Kind } from "./handlers";
import { SEALED_FIELDS, SecretBox, writeKeyFile, type SecretsKey } from "./secrets";

/** The kinds of stored documents: those the handler modules declare (handlers/index.ts). */
export type { Kind };

/** A stored document: always has an id; `parent` scopes children (records of a zone, routers of a network). */
export interface Doc {
  id: string;
  parent?: string;
  [key: string]: unknown;
}

export interface AuditRow {
  id: number;
  timestamp: string;
  activity: string;
  activity_code: string;
  initiator_id: string;
  target_id: string;
  meta: Record<string, unknown>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS objects (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  parent TEXT NOT NULL DEFAULT '',
  seq INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS objects_parent ON objects (kind, parent);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS audit_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  timestamp TEXT NOT NULL,
  activity TEXT NOT NULL,
  activity_code TEXT NOT NULL,
  initiator_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/**
 * SQLite's `synchronous` setting in WAL mode. `full` (the default) syncs the WAL at every commit: a write the
 * server acknowledged survives a power loss or an OS crash. `normal` syncs only at checkpoints: still safe
 * against a killed process, but the last commits before a power loss may be lost (BENCHMARKS.md: the cost).
 */
export type Synchronous = "full" | "normal";

/** The meta row holding a value sealed under the secrets key: a start with another key fails on it. */
const KEY_CHECK = "secrets_key_check";
const KEY_CHECK_AAD = `meta/${KEY_CHECK}`;
const KEY_CHECK_TEXT = "privnet secrets key check";

/** The database file and the companions SQLite makes beside it. */
function dbFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

type Change = { kind: Kind; id: string; doc?: Doc };

/** A write transaction; obtained from {@link Store.tx}. Reads see the transaction's own writes. */
export class Tx {
  readonly changes: Change[] = [];
  private readonly overlay = new Map<string, Doc | null>();
  readonly audits: AuditRow[] = [];

  constructor(private readonly store: Store) {}

  get<T extends Doc = Doc>(kind: Kind, id: string): T | undefined {
    const key = `${kind}\u0000${id}`;
    if (this.overlay.has(key)) return (this.overlay.get(key) ?? undefined) as T | undefined;
    return this.store.get<T>(kind, id);
  }

  all<T extends Doc = Doc>(kind: Kind, parent?: string): T[] {
    const base = this.store.all<T>(kind, parent);
    if (!this.changes.some((c) => c.kind === kind)) return base;
    const byId = new Map(base.map((d) => [d.id, d]));
    for (const c of this.changes) {
      if (c.kind !== kind) continue;
      if (c.doc && (parent === undefined || (c.doc.parent ?? "") === parent)) byId.set(c.id, c.doc as T);
      else byId.delete(c.id);
    }
    return [...byId.values()];
  }

  /** The document of `kind` whose indexed `field` is `value` (see {@link Store.findBy}), seeing own writes. */
  findBy<T extends Doc = Doc>(kind: Kind, field: string, value: string): T | undefined {
    for (let i = this.changes.length - 1; i >= 0; i--) {
      const c = this.changes[i] as Change;
      // Only a write that is still the document's latest state counts.
      if (c.kind === kind && c.doc && c.doc[field] === value && this.get(kind, c.id) === c.doc)
        return c.doc as T;
    }
    const found = this.store.findBy<T>(kind, field, value);
    if (!found) return undefined;
    const now = this.get<T>(kind, found.id);
    return now && now[field] === value ? now : undefined;
  }

  /** Inserts or replaces a document. */
  put<T extends Doc>(kind: Kind, doc: T): T {
    this.store.sqlPut(kind, doc);
    this.overlay.set(`${kind}\u0000${doc.id}`, doc);
    this.changes.push({ kind, id: doc.id, doc });
    return doc;
  }

  delete(kind: Kind, id: string): void {
    this.store.sqlDelete(kind, id);
    this.overlay.set(`${kind}\u0000${id}`, null);
    this.changes.push({ kind, id });
  }

  /** Next value of a named integer sequence (setup key ids, integration ids, ...). */
  nextInt(name: string): number {
    return this.store.sqlNextInt(name);
  }

  audit(row: Omit<AuditRow, "id">): void {
    const id = this.store.sqlAudit(row);
    this.audits.push({ ...row, id });
  }
}

/**
 * Unique secondary indexes: fields looked up on every request (a token by its hash) are found in O(1), never by
 * scanning every document of the kind.
 */
const INDEXES: Partial<Record<Kind, string[]>> = {
  token: ["hashed_token"],
  invite: ["hashed_token"],
};

export class Store {
  readonly db: DatabaseSync;
  private readonly cache = new Map<Kind, Map<string, Doc>>();
  /** `${kind}\u0000${field}` -> field value -> document id. */
  private readonly indexes = new Map<string, Map<string, string>>();
  private seq = 0;
  private inTx = false;
  private readonly stmts: {
    put: StatementSync;
    del: StatementSync;
    counterGet: StatementSync;
    counterSet: StatementSync;
    audit: StatementSync;
  };
  /** Number of write transactions committed (used by tests and benchmarks). */
  writes = 0;
  private readonly box: SecretBox;

  /**
   * Opens (or creates) the database. `secrets` is the key integration credentials are sealed with
   * (server/secrets.ts); a key that does not open this database's credentials throws before anything is written,
   * and a new key file is written only once the database has accepted the key.
   */
  constructor(
    readonly file: string,
    secrets: SecretsKey,
    opts: { synchronous?: Synchronous } = {},
  ) {
    const onDisk = file !== ":memory:";
    // SQLite gives -wal and -shm the mode of the database file: create it owner-only, before SQLite does.
    if (onDisk && !fs.existsSync(file)) fs.closeSync(fs.openSync(file, "wx", 0o600));
    this.db = new DatabaseSync(file);
    try {
      this.box = new SecretBox(secrets.key);
      this.checkKey(secrets);
      writeKeyFile(secrets);
    } catch (err) {
      this.db.close();
      throw err;
    }
    if (onDisk) {
      // Files of a database made before they were created owner-only.
      for (const f of dbFiles(file)) if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec(`PRAGMA synchronous = ${(opts.synchronous ?? "full").toUpperCase()}`);
    }
    this.db.exec("PRAGMA foreign_keys = ON");
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.db.exec(SCHEMA);
    if (!this.db.prepare("SELECT 1 FROM meta WHERE name = ?").get(KEY_CHECK)) {
      this.db
        .prepare("INSERT INTO meta (name, value) VALUES (?, ?)")
        .run(KEY_CHECK, this.box.seal(KEY_CHECK_TEXT, KEY_CHECK_AAD));
    }
    this.stmts = {
      put: this.db.prepare(
        "INSERT INTO objects (kind, id, parent, seq, data) VALUES (?, ?, ?, ?, ?) " +
          "ON CONFLICT (kind, id) DO UPDATE SET parent = excluded.parent, data = excluded.data",
      ),
      del: this.db.prepare("DELETE FROM objects WHERE kind = ? AND id = ?"),
      counterGet: this.db.prepare("SELECT value FROM counters WHERE name = ?"),
      counterSet: this.db.prepare(
        "INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      ),
      audit: this.db.prepare(
        "INSERT INTO audit_events (timestamp, activity, activity_code, initiator_id, target_id, meta) VALUES (?, ?, ?, ?, ?, ?)",
      ),
    };
    this.load();
  }

  /** Throws unless `secrets` opens the check value this database recorded (if it has one yet). Reads only. */
  private checkKey(secrets: SecretsKey): void {
    const hasMeta = this.db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
      .get();
    const row = hasMeta
      ? (this.db.prepare("SELECT value FROM meta WHERE name = ?").get(KEY_CHECK) as
          { value: string } | undefined)
      : undefined;
    if (!row) return;
    const sealedUnder = `the integration secrets of ${this.file} are encrypted under a key`;
    if (secrets.isNew) {
      throw new Error(
        `secrets key file ${secrets.file} does not exist, but ${sealedUnder}: start with the key file they ` +
          "were written with (--secrets-key-file FILE)",
      );
    }
    let opened: unknown;
    try {
      opened = this.box.open(row.value, KEY_CHECK_AAD);
    } catch {
      opened = undefined;
    }
    if (opened !== KEY_CHECK_TEXT) {
      throw new Error(
        `the secrets key in ${secrets.file ?? "memory"} does not open the integration secrets of ${this.file}: ` +
          "wrong key file? Start with the key file they were written with (--secrets-key-file FILE)",
      );
    }
  }

  private load(): void {
    const rows = this.db.prepare("SELECT kind, id, seq, data FROM objects ORDER BY seq").all() as {
      kind: Kind;
      id: string;
      seq: number;
      data: string;
    }[];
    /** Documents written before credentials were sealed: sealed now, below. */
    const plain: { kind: Kind; doc: Doc }[] = [];
    for (const r of rows) {
      const doc = JSON.parse(r.data) as Doc;
      let wasPlain = false;
      for (const f of SEALED_FIELDS[r.kind] ?? []) {
        const v = doc[f];
        if (SecretBox.isSealed(v)) doc[f] = this.box.open(v, `${r.kind}/${doc.id}/${f}`);
        else if (v !== undefined) wasPlain = true;
      }
      if (wasPlain) plain.push({ kind: r.kind, doc });
      this.setCached(r.kind, doc);
      if (r.seq > this.seq) this.seq = r.seq;
    }
    if (plain.length) this.sealPlain(plain);
  }

  /**
   * Seals the credentials of documents stored in the clear, and leaves no plaintext behind in the files: the old
   * row contents are zeroed (secure_delete) and the WAL, which held the old pages, is checkpointed and emptied.
   */
  private sealPlain(plain: { kind: Kind; doc: Doc }[]): void {
    this.db.exec("PRAGMA secure_delete = ON");
    try {
      this.tx((tx) => {
        for (const { kind, doc } of plain) tx.put(kind, doc);
      });
      if (this.file !== ":memory:") this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } finally {
      this.db.exec("PRAGMA secure_delete = OFF");
    }
  }

  /** The stored form of `doc`: its credential fields sealed, bound to this row and field. */
  private sealed(kind: Kind, doc: Doc): Doc {
    const fields = SEALED_FIELDS[kind];
    if (!fields) return doc;
    const out: Doc = { ...doc };
    for (const f of fields) {
      if (out[f] !== undefined) out[f] = this.box.seal(out[f], `${kind}/${doc.id}/${f}`);
    }
    return out;
  }

  private index(kind: Kind, field: string): Map<string, string> {
    const key = `${kind}\u0000${field}`;
    let ix = this.indexes.get(key);
    if (!ix) {
      ix = new Map();
      this.indexes.set(key, ix);
    }
    return ix;
  }

  /** Puts `doc` in the memory copy and its indexes. */
  private setCached(kind: Kind, doc: Doc): void {
    const b = this.bucket(kind);
    const fields = INDEXES[kind];
    if (fields) {
      const old = b.get(doc.id);
      for (const f of fields) {
        const ix = this.index(kind, f);
        if (old && typeof old[f] === "string" && ix.get(old[f]) === doc.id) ix.delete(old[f]);
        if (typeof doc[f] === "string") ix.set(doc[f], doc.id);
      }
    }
    b.set(doc.id, doc);
  }

  private deleteCached(kind: Kind, id: string): void {
    const b = this.bucket(kind);
    const old = b.get(id);
    for (const f of INDEXES[kind] ?? []) {
      const ix = this.index(kind, f);
      if (old && typeof old[f] === "string" && ix.get(old[f]) === id) ix.delete(old[f]);
    }
    b.delete(id);
  }

  /**
   * The document of `kind` whose `field` is `value`, through the field's unique index (INDEXES): O(1). Only
   * indexed fields may be asked for.
   */
  findBy<T extends Doc = Doc>(kind: Kind, field: string, value: string): T | undefined {
    if (!INDEXES[kind]?.includes(field)) throw new Error(`no index on ${kind}.${field}`);
    const id = this.index(kind, field).get(value);
    return id === undefined ? undefined : (this.bucket(kind).get(id) as T | undefined);
  }

  private bucket(kind: Kind): Map<string, Doc> {
    let b = this.cache.get(kind);
    if (!b) {
      b = new Map();
      this.cache.set(kind, b);
    }
    return b;
  }

  /** True when the database holds no account yet (a new file). */
  isEmpty(): boolean {
    return this.bucket("account").size === 0;
  }

  get<T extends Doc = Doc>(kind: Kind, id: string): T | undefined {
    return this.bucket(kind).get(id) as T | undefined;
  }

  /** All documents of a kind (optionally under one parent), in creation order. */
  all<T extends Doc = Doc>(kind: Kind, parent?: string): T[] {
    const docs = [...this.bucket(kind).values()] as T[];
    return parent === undefined ? docs : docs.filter((d) => (d.parent ?? "") === parent);
  }

  count(kind: Kind): number {
    return this.bucket(kind).size;
  }

  /**
   * Runs `fn` in one SQLite transaction. If `fn` throws, nothing is written and the error propagates.
   * Transactions do not nest: a handler runs synchronously inside exactly one.
   */
  tx<R>(fn: (tx: Tx) => R): R {
    if (this.inTx) throw new Error("nested transaction");
    this.inTx = true;
    const tx = new Tx(this);
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn(tx);
      this.db.exec("COMMIT");
      for (const c of tx.changes) {
        if (c.doc) this.setCached(c.kind, c.doc);
        else this.deleteCached(c.kind, c.id);
      }
      if (tx.changes.length || tx.audits.length) this.writes++;
      return result;
    } catch (err) {
      this.db.exec("ROLLBACK");
      throw err;
    } finally {
      this.inTx = false;
    }
  }

  /** @internal */
  sqlPut(kind: Kind, doc: Doc): void {
    const existing = this.bucket(kind).get(doc.id);
    const seq = existing ? 0 : ++this.seq;
    this.stmts.put.run(kind, doc.id, doc.parent ?? "", seq, JSON.stringify(this.sealed(kind, doc)));
  }

  /** @internal */
  sqlDelete(kind: Kind, id: string): void {
    this.stmts.del.run(kind, id);
  }

  /** @internal */
  sqlNextInt(name: string): number {
    const row = this.stmts.counterGet.get(name) as { value: number } | undefined;
    const next = (row?.value ?? 0) + 1;
    this.stmts.counterSet.run(name, next);
    return next;
  }

  /** @internal */
  sqlAudit(row: Omit<AuditRow, "id">): number {
    const r = this.stmts.audit.run(
      row.timestamp,
      row.activity,
      row.activity_code,
      row.initiator_id,
      row.target_id,
      JSON.stringify(row.meta),
    );
    return Number(r.lastInsertRowid);
  }

  /** Audit events, oldest first. */
  auditEvents(): AuditRow[] {
    const rows = this.db
      .prepare(
        "SELECT id, timestamp, activity, activity_code, initiator_id, target_id, meta FROM audit_events ORDER BY id",
      )
      .all() as (Omit<AuditRow, "meta"> & { meta: string })[];
    return rows.map((r) => ({ ...r, meta: JSON.parse(r.meta) as Record<string, unknown> }));
  }

  /** Removes every object and event (account deletion). */
  wipe(): void {
    this.db.exec("DELETE FROM objects; DELETE FROM counters; DELETE FROM audit_events;");
    this.cache.clear();
    this.indexes.clear();
  }

  /** SQLite's own consistency check; "ok" when the file is sound. */
  integrityCheck(): string {
    const row = this.db.prepare("PRAGMA integrity_check").get() as Record<string, string>;
    return Object.values(row)[0] ?? "";
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
