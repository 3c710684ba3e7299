/**
 * How servers write back values that mean the same as what the program sent. A provider that knows these forms
 * compares values in them, so the server's spelling never shows as a change, and keeps the program's spelling in
 * state (see `buildOutputs`). Anything else the server stores differently is reported, not hidden.
 */
import { isIP, parseCidr } from "../api/common";
import type { NormalForm } from "./normalize";

/** A domain name: letter case and a trailing dot carry no meaning (`Corp.Example.` = `corp.example`). */
export const domainForm: NormalForm = (value) => value.toLowerCase().replace(/\.$/, "");

/** IPv4 or IPv6 text as a number (IPv6 `::` expanded), for masking. */
function ipToBigInt(ip: string): bigint {
  if (!ip.includes(":")) return ip.split(".").reduce((n, o) => (n << 8n) | BigInt(Number(o)), 0n);
  const [head = "", tail = ""] = ip.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const h = groups(head);
  const t = ip.includes("::") ? groups(tail) : [];
  const all = [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return all.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function bigIntToIp(n: bigint, v6: boolean): string {
  if (!v6) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return groups.join(":");
}

/**
 * A prefix in CIDR notation with its host bits cleared (`10.0.0.1/8` -> `10.0.0.0/8`), as servers store a route's
 * range; IPv6 written out in full, lower case. Anything else is left as it is.
 */
export const prefixForm: NormalForm = (value) => {
  const prefix = parseCidr(value);
  if (!prefix) return value;
  const width = prefix.family === 6 ? 128n : 32n;
  const bits = BigInt(prefix.bits);
  const mask = ((1n << width) - 1n) ^ ((1n << (width - bits)) - 1n);
  return `${bigIntToIp(ipToBigInt(prefix.ip) & mask, prefix.family === 6)}/${prefix.bits}`;
};

/**
 * An address that is a host, a prefix or a domain (a network resource's address): a host is its /32 (/128)
 * prefix, a prefix is a {@link prefixForm}, a domain is a {@link domainForm}.
 */
export const addressForm: NormalForm = (value) => {
  if (isIP(value)) return prefixForm(`${value}/${value.includes(":") ? 128 : 32}`);
  if (parseCidr(value)) return prefixForm(value);
  return domainForm(value);
};

/** A DNS record's content: an address as written, a name (CNAME target) in {@link domainForm}. */
export const recordContentForm: NormalForm = (value) =>
  isIP(value) ? value.toLowerCase() : domainForm(value);
