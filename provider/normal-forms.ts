/**
 * How servers write back values that mean the same as what the program sent. A provider that knows these forms
 * compares values in them, so the server's spelling never shows as a change, and keeps the program's spelling in
 * state (see `buildOutputs`). Anything else the server stores differently is reported, not hidden.
 */
import { isIP, parseCidr } from "../api/common";
import type { NormalForm } from "./normalize";

/** A domain name: letter case and a trailing dot carry no meaning (`Corp.Example.` = `corp.example`). */
export const domainForm: NormalForm = (value) => value.toLowerCase().replace(/\.$/, "");

/**
 * An address that is a host, a prefix or a domain (a network resource's address): a host is its /32 (/128)
 * prefix, an IPv6 text is lower-cased, a domain is a {@link domainForm}.
 */
export const addressForm: NormalForm = (value) => {
  if (isIP(value)) return `${value.toLowerCase()}/${value.includes(":") ? 128 : 32}`;
  const prefix = parseCidr(value);
  if (prefix) return `${prefix.ip.toLowerCase()}/${prefix.bits}`;
  return domainForm(value);
};

/** A DNS record's content: an address as written, a name (CNAME target) in {@link domainForm}. */
export const recordContentForm: NormalForm = (value) =>
  isIP(value) ? value.toLowerCase() : domainForm(value);
