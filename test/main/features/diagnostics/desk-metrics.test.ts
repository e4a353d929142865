import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MetricsSchema } from '#contract/metrics.ts';
import { signBody } from '#main/features/webhooks/signature.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { eventBody, nextEvent, send } from '../webhooks/helpers.ts';

/** `app.metrics` counts what the desk did: deliveries, duplicates, refusals, refreshes, tokens. */
describe('desk: app.metrics', () => {
  it('counts deliveries, duplicates, refusals and refreshes, with ingest and event-to-screen latencies', async () => {
    const h: DeskHarness = await startDesk();
    try {
      await nextEvent(h, 'webhooks.caughtUp');
      const port = (await h.call('webhooks.list')).listener.port!;
      const vault = openFileKeyVault({ dir: h.dataDir });
      const secret = vault.get(vault.names().find((name) => name.startsWith('webhookSecret:'))!)!;
      const post = (body: string, signingSecret: string) =>
        send(port, { body, headers: { 'X-Request-Signature-SHA-256': signBody(body, signingSecret) } });

      const before = await h.call('app.metrics');
      // A customer the service does not have: its refresh (a 404) is all the processing there is.
      const body = eventBody({ customerId: randomUUID() });
      expect((await post(body, secret)).status).toBe(200);
      expect((await post(body, secret)).status).toBe(200);
      expect((await post(body, 'a guess')).status).toBe(401);

      await expect
        .poll(
          async () =>
            (await h.call('app.metrics')).webhooks.eventToScreen.samples -
            before.webhooks.eventToScreen.samples,
        )
        .toBeGreaterThanOrEqual(1);
      const after = MetricsSchema.parse(await h.call('app.metrics'));
      expect(after.webhooks.deliveries - before.webhooks.deliveries).toBe(2);
      expect(after.webhooks.duplicates - before.webhooks.duplicates).toBe(1);
      expect(after.webhooks.refusals - before.webhooks.refusals).toBe(1);
      expect(after.webhooks.refreshes - before.webhooks.refreshes).toBe(1);
      expect(after.webhooks.reconcileBacklog).toBe(0);
      expect(after.webhooks.inboxBacklog).toBe(0);
      // Few deliveries: nothing is kept behind the answers for long.
      await expect
        .poll(async () => (await h.call('app.metrics')).webhooks.eventsBehind, { timeout: 10_000 })
        .toBe(0);
      expect(after.webhooks.ingest.samples).toBeGreaterThanOrEqual(2);
      expect(after.webhooks.ingest.p99Ms).toBeGreaterThanOrEqual(after.webhooks.ingest.p50Ms ?? 0);
      expect(after.tokens.renewals).toBeGreaterThanOrEqual(1);
      expect(after.outbox).toMatchObject({ draft: 0, queued: 0 });
      expect(after.memory.rssBytes).toBeGreaterThan(after.memory.heapUsedBytes);
    } finally {
      await h.close();
      removeDir(h.dataDir);
    }
  });
});
