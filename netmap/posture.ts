/**
 * Posture checks against a peer's reported metadata. Each check answers pass, fail, or unknown (the metadata
 * it needs is not in the snapshot); see the decisions in network-map.ts.
 */
import { ipBytes, isIP } from "../api/common";
import type { PeerMeta, SnapshotPostureCheck } from "./types";

export type Outcome =
  { result: "pass" } | { result: "fail"; reason: string } | { result: "unknown"; unknown: string[] };

const PASS: Outcome = { result: "pass" };
const fail = (reason: string): Outcome => ({ result: "fail", reason });
const unknown = (...fields: string[]): Outcome => ({ result: "unknown", unknown: fields });

/**
 * A version as numbers: `v0.40.1-dev` is [0, 40, 1] (a pre-release or build suffix is dropped, as the service
 * does). Undefined when the text does not start with a number.
 */
export function versionParts(v: string): number[] | undefined {
  const m = /^v?(\d+(?:\.\d+)*)/.exec(v.trim());
  return m ? (m[1] as string).split(".").map(Number) : undefined;
}

/** a >= b, missing parts counting as 0. */
function atLeast(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

function minVersion(have: string | undefined, field: string, min: string): Outcome {
  if (have === undefined) return unknown(field);
  const h = versionParts(have);
  const m = versionParts(min);
  if (!h) return fail(`${field} ${JSON.stringify(have)} is not a version`);
  if (!m) return fail(`minimum ${JSON.stringify(min)} is not a version`);
  return atLeast(h, m) ? PASS : fail(`${field} ${have} is below ${min}`);
}

function inRange(ip: string, range: string): boolean {
  const [base, bitsText] = range.split("/");
  if (!base || !isIP(base) || !isIP(ip)) return false;
  const a = ipBytes(ip);
  const b = ipBytes(base);
  if (a.length !== b.length) return false;
  const bits = bitsText === undefined ? a.length * 8 : Number(bitsText);
  for (let i = 0; i < a.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    const mask = (0xff << (8 - keep)) & 0xff;
    if (((a[i] as number) & mask) !== ((b[i] as number) & mask)) return false;
  }
  return true;
}

const OS_KEYS: Record<string, { key: "android" | "ios" | "darwin" | "linux" | "windows"; kernel: boolean }> =
  {
    android: { key: "android", kernel: false },
    ios: { key: "ios", kernel: false },
    darwin: { key: "darwin", kernel: false },
    linux: { key: "linux", kernel: true },
    windows: { key: "windows", kernel: true },
  };

const PROCESS_PATH: Record<string, "linux_path" | "mac_path" | "windows_path"> = {
  linux: "linux_path",
  darwin: "mac_path",
  windows: "windows_path",
};

/** One kind of check against the metadata. */
function checkOne(kind: string, spec: unknown, m: PeerMeta): Outcome {
  switch (kind) {
    case "nb_version_check":
      return minVersion(m.version, "version", (spec as { min_version: string }).min_version);
    case "os_version_check": {
      if (m.goos === undefined) return unknown("goos");
      const os = OS_KEYS[m.goos.toLowerCase()];
      const rule = os
        ? (spec as Record<string, Record<string, string> | null | undefined>)[os.key]
        : undefined;
      if (!os || !rule) return fail(`operating system ${m.goos} is not allowed by the check`);
      return os.kernel
        ? minVersion(m.kernel_version, "kernel_version", rule.min_kernel_version ?? "")
        : minVersion(m.os_version, "os_version", rule.min_version ?? "");
    }
    case "geo_location_check": {
      const g = spec as { locations: { country_code: string; city_name?: string }[]; action: string };
      if (m.country_code === undefined) return unknown("country_code");
      if (m.country_code === "") return fail("the peer's location is not known to the service");
      const match = g.locations.some(
        (l) => l.country_code === m.country_code && (!l.city_name || l.city_name === m.city_name),
      );
      const where = `${m.country_code}${m.city_name ? `/${m.city_name}` : ""}`;
      if (g.action === "allow") return match ? PASS : fail(`location ${where} is not an allowed location`);
      if (g.action === "deny") return match ? fail(`location ${where} is a denied location`) : PASS;
      return fail(`unknown action ${g.action}`);
    }
    case "peer_network_range_check": {
      const r = spec as { ranges: string[]; action: string };
      if (m.network_addresses === undefined) return unknown("network_addresses");
      if (m.network_addresses.length === 0) return fail("the peer reported no network addresses");
      const hit = m.network_addresses.find((a) =>
        r.ranges.some((range) => inRange(a.split("/")[0] ?? "", range)),
      );
      if (r.action === "allow") return hit ? PASS : fail("no network address in an allowed range");
      if (r.action === "deny") return hit ? fail(`network address ${hit} is in a denied range`) : PASS;
      return fail(`unknown action ${r.action}`);
    }
    case "process_check": {
      const p = spec as { processes: { linux_path?: string; mac_path?: string; windows_path?: string }[] };
      if (m.goos === undefined) return unknown("goos");
      const field = PROCESS_PATH[m.goos.toLowerCase()];
      if (!field) return fail(`process checks do not support operating system ${m.goos}`);
      if (m.processes === undefined) return unknown("processes");
      const running = new Set(m.processes);
      for (const proc of p.processes) {
        const path = proc[field];
        if (!path) return fail(`a process of the check has no ${field}`);
        if (!running.has(path)) return fail(`process ${path} is not running`);
      }
      return PASS;
    }
    default:
      return PASS;
  }
}

/**
 * A posture check against a peer: fail when any of its checks fails, else unknown when any cannot be evaluated
 * (listing the missing metadata), else pass.
 */
export function evaluatePostureCheck(check: SnapshotPostureCheck, meta: PeerMeta): Outcome {
  const missing = new Set<string>();
  for (const [kind, spec] of Object.entries(check.checks ?? {})) {
    if (spec === undefined || spec === null) continue;
    const o = checkOne(kind, spec, meta);
    if (o.result === "fail") return o;
    if (o.result === "unknown") for (const f of o.unknown) missing.add(f);
  }
  return missing.size ? unknown(...missing) : PASS;
}
