import type { Metrics } from '#contract/metrics.ts';
import { processFaults } from '#main/ground/log/process-guard.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { WebhookFigures } from './metrics.ts';

/**
 * `app.metrics`: the figures the app keeps anyway, gathered when asked (the Diagnostics panel while it
 * is open, a bench): the webhook side's counters and latencies, the outbox by state, the tokens the
 * service client obtained, this process's memory, and the faults its last net caught (log/process-guard.ts).
 */
export function diagnosticsFeature(
  context: Pick<DeskContext, 'journal' | 'connection'>,
  sources: { webhooks(): WebhookFigures },
): Feature<'app.metrics'> {
  const startedAt = Date.now();
  return {
    handlers: {
      async 'app.metrics'(): Promise<Metrics> {
        const memory = process.memoryUsage();
        return {
          at: new Date().toISOString(),
          uptimeSeconds: Math.round((Date.now() - startedAt) / 100) / 10,
          webhooks: sources.webhooks(),
          outbox: await context.journal.drafts.countByState(),
          tokens: { renewals: context.connection().client().token.issued?.() ?? 0 },
          memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
          faults: processFaults(),
        };
      },
    },
  };
}
