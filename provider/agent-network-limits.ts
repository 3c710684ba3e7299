/**
 * The limits of Agent Network policies and budget rules, as outputs. The service answers both limits always, a
 * limit that is off as `{enabled: false}` with zeros; a program leaves such a limit out. In outputs a limit that is
 * off and all zeros is left out too, so that the program's "no budget limit" and the server's zeros agree (a
 * limit that is off but holds values, as the service may store it, stays and is compared).
 */
import { isRecord, type Props } from "./spec";

function isOff(limit: unknown): boolean {
  return (
    isRecord(limit) &&
    limit.enabled !== true &&
    Object.entries(limit).every(([k, v]) => k === "enabled" || v === 0 || v === undefined || v === null)
  );
}

/** `mergeOutputs` of the kinds with `limits`: limits that are off and empty are left out. */
export function dropLimitsOff(outs: Props): Props {
  if (!isRecord(outs.limits)) return outs;
  const limits = Object.fromEntries(Object.entries(outs.limits).filter(([, l]) => !isOff(l)));
  const out = { ...outs };
  if (Object.keys(limits).length) out.limits = limits;
  else delete out.limits;
  return out;
}
