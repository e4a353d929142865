import { z } from 'zod';
import { DraftStateSchema } from './drafts.ts';

/**
 * The figures the app keeps anyway, for the Diagnostics panel and the benches alike (`app.metrics`):
 * counts since start, backlogs now, and latencies over the most recent samples. Nothing personal.
 */
const count = z.number().int().nonnegative();

export const LatencySchema = z.object({
  /** Samples the quantiles are taken over (the most recent ones). */
  samples: count,
  p50Ms: z.number().nonnegative().nullable(),
  p99Ms: z.number().nonnegative().nullable(),
});
export type Latency = z.infer<typeof LatencySchema>;

export const MetricsSchema = z.object({
  at: z.iso.datetime(),
  uptimeSeconds: z.number().nonnegative(),
  webhooks: z.object({
    deliveries: count,
    duplicates: count,
    refusals: count,
    /** Deliveries received and not yet answered (waiting for their group's sync). */
    inboxBacklog: count,
    /** Events answered (durable in the inbox log) and not yet in the journal's tables: a flood's backlog. */
    eventsBehind: count,
    /** Events waiting for their customer's refresh. */
    reconcileBacklog: count,
    /** GETs made for events: fewer than events when several for one customer are served by one. */
    refreshes: count,
    /** From a delivery's body read to its answer. */
    ingest: LatencySchema,
    /** From a delivery's arrival to its customer's refresh pushed to the screen. */
    eventToScreen: LatencySchema,
  }),
  outbox: z.record(DraftStateSchema, count),
  tokens: z.object({ renewals: count }),
  memory: z.object({ rssBytes: count, heapUsedBytes: count }),
  /**
   * Exceptions nothing caught and promises rejected with no handler, since start (main/ground/log/process-guard.ts):
   * logged, the process going on. Any is a bug; the log has its words.
   */
  faults: z.object({
    count,
    last: z
      .object({ at: z.iso.datetime(), kind: z.enum(['uncaughtException', 'unhandledRejection']) })
      .nullable(),
  }),
});
export type Metrics = z.infer<typeof MetricsSchema>;

export const metricsChannels = {
  'app.metrics': { input: z.undefined(), output: MetricsSchema },
} as const;
