/** Small statistics and formatting helpers for the benchmarks. */

/** The q-quantile (0..1) of `values` by nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** The median; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
export const p99 = (values: readonly number[]): number => quantile(values, 0.99);

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** A number with `digits` decimals, or "n/a" when it is not finite. */
export function fmt(n: number | undefined, digits = 1): string {
  return n === undefined || !Number.isFinite(n) ? "n/a" : n.toFixed(digits);
}

/** Milliseconds since `start` (a `performance.now()` value). */
export function since(start: number): number {
  return performance.now() - start;
}

/** A Markdown table; `align` holds "l" or "r" per column (default: first left, others right). */
export function markdownTable(header: string[], rows: string[][], align?: ("l" | "r")[]): string {
  const al = align ?? header.map((_, i) => (i === 0 ? "l" : "r"));
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells
      .map((c, i) => (al[i] === "r" ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join(" | ")} |`;
  const sep = `| ${widths.map((w, i) => (al[i] === "r" ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(header), sep, ...rows.map(line)].join("\n");
}

/** "ok" or "MISSED" against a target. */
export function verdict(ok: boolean): string {
  return ok ? "ok" : "MISSED";
}
