/**
 * Reverse-proxy service: publishes peers or network resources at a host name served by a proxy cluster. The auth
 * block is a secret input (passwords, PINs, header values, and who may sign in); the API answers its secret values
 * empty, so those are kept from what the program sent (create, update) or what state held (refresh).
 */
import {
  canonicalDuration,
  ReverseProxyServiceRequestSchema,
  ReverseProxyServiceSchema,
} from "../../api/reverse-proxy";
import { PrivnetProvider } from "../lifecycle";
import { isRecord, type Props } from "../spec";

/** Target kinds whose host the server sets itself (the peer's IP, the resource's address). */
const DERIVED_HOST = new Set(["peer", "host", "domain"]);

const list = (v: unknown): Props[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/**
 * The targets as outputs: a host the server filled in is left out where the program (or state) names none, and a
 * duration the server stored in its own spelling (`2m0s`) keeps the program's (`2m`) when it means the same.
 */
function mergeTargets(stored: unknown, given: unknown): unknown {
  if (!Array.isArray(stored)) return stored;
  const mine = list(given);
  return stored.map((t, i) => {
    if (!isRecord(t)) return t;
    const m = mine[i] ?? {};
    const out: Props = { ...t };
    const noHost = m.host === undefined || m.host === null || m.host === "";
    if (noHost && DERIVED_HOST.has(String(t.targetType))) delete out.host;
    if (isRecord(t.options)) {
      const options: Props = { ...t.options };
      const myOptions = isRecord(m.options) ? m.options : {};
      for (const k of ["requestTimeout", "sessionIdleTimeout"]) {
        const a = myOptions[k];
        if (typeof a === "string" && typeof options[k] === "string" && canonicalDuration(a) === options[k])
          options[k] = a;
      }
      out.options = options;
    }
    return out;
  });
}

/** Country codes the server stored in upper case keep the program's spelling. */
function mergeRestrictions(stored: unknown, given: unknown): unknown {
  if (!isRecord(stored)) return stored;
  const mine = isRecord(given) ? given : {};
  const out: Props = { ...stored };
  for (const k of ["allowedCountries", "blockedCountries"]) {
    const a = mine[k];
    const b = out[k];
    if (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => typeof x === "string" && x.toUpperCase() === b[i])
    )
      out[k] = a;
  }
  return out;
}

/** The auth block with the secret values the API answers empty taken from what the program (or state) holds. */
function mergeAuth(stored: unknown, given: unknown): unknown {
  if (!isRecord(stored)) return stored;
  const mine = isRecord(given) ? given : {};
  const out: Props = { ...stored };
  const keep = (block: string, field: string) => {
    const s = out[block];
    const m = mine[block];
    if (
      isRecord(s) &&
      (s[field] === "" || s[field] === undefined) &&
      isRecord(m) &&
      typeof m[field] === "string"
    )
      out[block] = { ...s, [field]: m[field] };
  };
  keep("passwordAuth", "password");
  keep("pinAuth", "pin");
  if (Array.isArray(out.headerAuths)) {
    const byName = new Map(list(mine.headerAuths).map((h) => [String(h.header).toLowerCase(), h.value]));
    out.headerAuths = list(out.headerAuths).map((h) => {
      const v = byName.get(String(h.header).toLowerCase());
      return (h.value === "" || h.value === undefined) && typeof v === "string" ? { ...h, value: v } : h;
    });
  }
  return out;
}

export = new PrivnetProvider({
  name: "ReverseProxyService",
  file: "reverse-proxy-service",
  description:
    "A reverse-proxy service: publishes peers or network resources (`targets`) at `domain`, a host name under a " +
    "proxy cluster's address or a custom domain (`ReverseProxyDomain`). A public service is reachable by anyone " +
    "who passes its `accessRestrictions` and its `auth`; a `private` one only by the peers of `accessGroups`. " +
    "`auth` is a secret input: the API never answers its password, PIN or header values, so they are kept from " +
    "state (a change made elsewhere cannot be detected). Changing `mode` replaces the service (the API cannot " +
    "change it; the old one is deleted first, since domains are unique); the domain, targets and auth change in " +
    "place. In tcp and udp modes a `listenPort` left out is " +
    "chosen by the cluster and kept. The service's status (pending until a proxy serves it, then active) is not " +
    "kept in state, since it changes by itself: `getReverseProxyService` answers it.",
  input: ReverseProxyServiceRequestSchema,
  // Without `meta`: its status (pending, then active once a proxy serves the service) changes by itself, moments
  // after a write on the reference. State holds what the program manages; getReverseProxyService tells the status.
  output: ReverseProxyServiceSchema.omit({ meta: true }),
  ops: {
    create: "createReverseProxyService",
    read: "getReverseProxyService",
    update: "updateReverseProxyService",
    delete: "deleteReverseProxyService",
  },
  idParam: "serviceId",
  replaceOnChange: ["mode"],
  secretInputs: ["auth"],
  secretPaths: ["auth.passwordAuth.password", "auth.pinAuth.pin", "auth.headerAuths[].value"],
  deleteBeforeReplace: true,
  defaults: { mode: "http" },
  computedIfAbsent: ["listenPort"],
  mergeOutputs: (outs: Props, inputs: Props) => {
    const { meta: _status, ...rest } = outs;
    return {
      ...rest,
      targets: mergeTargets(outs.targets, inputs.targets),
      accessRestrictions: mergeRestrictions(outs.accessRestrictions, inputs.accessRestrictions),
      auth: mergeAuth(outs.auth, inputs.auth),
    };
  },
});
