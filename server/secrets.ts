/**
 * Integration credentials at rest. The server must read them back (a real integration would use them), so they
 * cannot be hashed like tokens; they are encrypted instead, with AES-256-GCM under a 32-byte key that lives in a
 * file of its own, never in the database: a copy of the database alone reveals nothing.
 *
 * - The key file holds the key in base64 (one line). `--secrets-key-file FILE` names it; without it the key is
 *   `<database>.key`, created (mode 0600) on the first start. It must not be readable by others.
 * - `:memory:` databases get a random key that lives only as long as the process (unless a file is named).
 * - The database records a check value sealed under the key: a start with another key (or without the file)
 *   fails before anything is written, with a message that says which files disagree.
 * - Sealed values are `enc:v1:` + base64(12-byte IV | 16-byte tag | ciphertext); the additional authenticated
 *   data binds each to its row and field, so a value cannot be moved to another row.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import type { Kind } from "./store";

export const KEY_BYTES = 32;
const PREFIX = "enc:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The fields sealed per kind: each field's whole value (any JSON) is encrypted as one string. */
export const SEALED_FIELDS: Partial<Record<Kind, readonly string[]>> = {
  identity_provider: ["client_secret"],
  edr: ["secrets"],
  directory_sync: ["secrets"],
  // The whole config: credentials and destination together (nothing queries it inside the database).
  event_streaming: ["config"],
  // A reverse-proxy service's password, PIN and header-auth values (the rest of the service stays queryable).
  proxy_service: ["auth_secrets"],
  // The whole target: webhook header values are credentials, and a webhook URL often carries a token too.
  notification_channel: ["target"],
  // An LLM provider's API key (the gateway must send it upstream, so it is sealed, not hashed).
  agent_network_provider: ["api_key"],
};

/** Encrypts and decrypts values under one key. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`a secrets key is ${KEY_BYTES} bytes, not ${key.length}`);
  }

  static isSealed(v: unknown): v is string {
    return typeof v === "string" && v.startsWith(PREFIX);
  }

  seal(value: unknown, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(aad, "utf8"));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
  }

  /** Decrypts a sealed value; throws when the key (or the row it was sealed for) is not the one used. */
  open(sealed: string, aad: string): unknown {
    const raw = Buffer.from(sealed.slice(PREFIX.length), "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString("utf8")) as unknown;
  }
}

/** Where the key comes from, and whether the file still has to be written (only once the database accepts it). */
export interface SecretsKey {
  key: Buffer;
  /** The key file, or undefined for an in-memory key. */
  file?: string;
  /** True when the file does not exist yet: {@link writeKeyFile} creates it. */
  isNew: boolean;
}

/** The default key file of a database file. */
export function defaultKeyFile(db: string): string {
  return `${db}.key`;
}

/**
 * Reads the key of `file` (checking its permissions and contents) or, when the file does not exist, makes a new
 * key for it without writing anything yet. No file and an in-memory database: a key for this process only.
 */
export function resolveSecretsKey(db: string, file?: string): SecretsKey {
  const keyFile = file ?? (db === ":memory:" ? undefined : defaultKeyFile(db));
  if (!keyFile) return { key: randomBytes(KEY_BYTES), isNew: false };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(keyFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { key: randomBytes(KEY_BYTES), file: keyFile, isNew: true };
    throw err;
  }
  if (!stat.isFile()) throw new Error(`secrets key file ${keyFile} is not a file`);
  if ((stat.mode & 0o077) !== 0) {
    throw new Error(
      `secrets key file ${keyFile} is readable or writable by others (mode ` +
        `${(stat.mode & 0o777).toString(8).padStart(4, "0")}): chmod 600 ${keyFile}`,
    );
  }
  const text = fs.readFileSync(keyFile, "utf8").trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== KEY_BYTES || !/^[A-Za-z0-9+/=]+$|^[0-9a-fA-F]+$/.test(text)) {
    throw new Error(
      `secrets key file ${keyFile} does not hold a key: expected ${KEY_BYTES} bytes in base64 (or 64 hex digits)`,
    );
  }
  return { key, file: keyFile, isNew: false };
}

/** Writes a new key file, owner-only, failing rather than overwriting one that appeared meanwhile. */
export function writeKeyFile(k: SecretsKey): void {
  if (!k.file || !k.isNew) return;
  fs.writeFileSync(k.file, `${k.key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  fs.chmodSync(k.file, 0o600);
  k.isNew = false;
}
