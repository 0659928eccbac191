/** Percentiles of the load run's timings. */

/** The percentile p (0–100) of values, nearest rank; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** How many timings, and their p50, p95 and p99. */
export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

export function percentiles(times: number[]): Percentiles {
  return { n: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}
