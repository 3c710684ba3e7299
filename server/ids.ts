/** Identifiers and secret values: object ids, personal access tokens, setup keys, invite and SCIM tokens. */
import { createHash, randomBytes, randomUUID } from "node:crypto";

const BASE32HEX = "0123456789abcdefghijklmnopqrstuv";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The last id's time and counter: ids made in one second count up from a random start. */
let lastSecond = -1;
let counter = 0;

/**
 * A 20-character id, base32hex of 12 bytes, in the shape of the service's ids: 4 bytes of the time in seconds, a
 * 3-byte counter, 5 random bytes. The service's ids grow with time, and it orders by them where an order matters
 * (a caller in several groups is metered in the lowest id's bucket: netmap/llm.ts), so ours grow too: ids made
 * later compare greater, also within one second.
 */
export function newId(now: number = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    counter = randomBytes(3).readUIntBE(0, 3) & 0x7fffff;
  } else counter = (counter + 1) & 0xffffff;
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(second >>> 0, 0);
  // The counter before the random part, so that it decides the order within a second.
  bytes.writeUIntBE(counter, 4, 3);
  randomBytes(5).copy(bytes, 7);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  // 96 bits make 19 full characters and 1 leftover bit, padded into a 20th.
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

function randomBase62(n: number): string {
  let out = "";
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      // Reject values that would bias the distribution.
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}

function toBase62(n: number, width: number): string {
  let out = "";
  let v = n >>> 0;
  do {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  } while (v > 0);
  return out.padStart(width, "0");
}

let crcTable: Uint32Array | undefined;
/** CRC-32 (IEEE), as used for token checksums. */
export function crc32(text: string): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[i] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Personal access tokens: `pnp_` + 30 random base62 characters + 6-character base62 CRC32 of the random part. */
export const PAT_PREFIX = "pnp_";

export function newPersonalAccessToken(): string {
  const secret = randomBase62(30);
  return `${PAT_PREFIX}${secret}${toBase62(crc32(secret), 6)}`;
}

/** Checks the shape and checksum of a token before any lookup. */
export function patChecksumValid(token: string): boolean {
  if (token.length !== PAT_PREFIX.length + 36 || !token.startsWith(PAT_PREFIX)) return false;
  const secret = token.slice(PAT_PREFIX.length, PAT_PREFIX.length + 30);
  const checksum = token.slice(PAT_PREFIX.length + 30);
  if (!/^[0-9A-Za-z]{36}$/.test(secret + checksum)) return false;
  return toBase62(crc32(secret), 6) === checksum;
}

/** The stored form of a secret token: base64 SHA-256. */
export function hashSecret(value: string): string {
  return createHash("sha256").update(value).digest("base64");
}

/** Proxy tokens (what self-hosted proxies register with): `pnx_` + 36 random base62 characters. */
export const PROXY_TOKEN_PREFIX = "pnx_";

export function newProxyToken(): string {
  return `${PROXY_TOKEN_PREFIX}${randomBase62(36)}`;
}

/** Setup keys look like an upper-case UUID. */
export function newSetupKey(): string {
  return randomUUID().toUpperCase();
}

/** The masked form: the first 5 characters, then asterisks. */
export function maskSetupKey(key: string): string {
  return `${key.slice(0, 5)}****`;
}

/** Invite link tokens carry a fixed prefix. */
export const INVITE_PREFIX = "pni_";

export function newInviteToken(): string {
  return `${INVITE_PREFIX}${randomBase62(40)}`;
}

/** SCIM provisioning tokens carry a fixed prefix (the masked form keeps it and a few characters more). */
export const SCIM_TOKEN_PREFIX = "pns_";

/** A SCIM bearer token: the prefix and 40 random base62 characters (238 bits). */
export function newScimToken(): string {
  return `${SCIM_TOKEN_PREFIX}${randomBase62(40)}`;
}

/** A random password for users created through the embedded IdP. */
export function newPassword(): string {
  return randomBase62(20);
}
