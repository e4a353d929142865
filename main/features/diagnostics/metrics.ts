import type { Latency } from '#contract/metrics.ts';

/**
 * Latencies over the most recent samples (a ring: memory stays the same however long the app runs),
 * summarised as p50 and p99 when asked, which is rare (the Diagnostics panel, a bench).
 */
export interface LatencyRecorder {
  add(ms: number): void;
  summary(): Latency;
}

export const LATENCY_SAMPLES = 4096;

export function latencyRecorder(capacity = LATENCY_SAMPLES): LatencyRecorder {
  const ring = new Float64Array(capacity);
  let written = 0;
  return {
    add(ms) {
      ring[written % capacity] = ms;
      written++;
    },
    summary() {
      const samples = Math.min(written, capacity);
      if (samples === 0) return { samples, p50Ms: null, p99Ms: null };
      const sorted = ring.slice(0, samples).sort();
      return { samples, p50Ms: round(rank(sorted, 0.5)), p99Ms: round(rank(sorted, 0.99)) };
    },
  };
}

/** Nearest rank: the smallest sample with at least q of them at or below it. */
function rank(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** What the webhook side counts as it works. */
export interface WebhookFigures {
  deliveries: number;
  duplicates: number;
  refusals: number;
  inboxBacklog: number;
  eventsBehind: number;
  reconcileBacklog: number;
  refreshes: number;
  ingest: Latency;
  eventToScreen: Latency;
}
