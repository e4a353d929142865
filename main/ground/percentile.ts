// Percentiles as PostgreSQL's percentile_cont computes them (continuous: interpolated between the two nearest
// values), for the figures a solo desk counts in SQLite, which has no such aggregate: a solo desk's medians
// are the team store's to the last bit (the same steps in the same float arithmetic).

/** The `fraction` (0…1) percentile of `values`; null when there are none (as percentile_cont over no row). */
export function percentileCont(values: readonly number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const first = Math.floor(position);
  const second = Math.ceil(position);
  const lo = sorted[first] as number;
  if (first === second) return lo;
  const hi = sorted[second] as number;
  return lo + (hi - lo) * (position - first);
}
