import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '#contract/customers.ts';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { customersWithEmail, setFaults, validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';

/**
 * Exactly once under faults, through the whole desk: 300 drafts submitted at once while the sandbox fails
 * 20 % of customer requests: 500 and connection resets after the work is done (lost answers), 503 before it.
 */
const DRAFTS = 300;

describe('outbox: exactly once under faults', () => {
  let h: DeskHarness;

  beforeAll(async () => {
    h = await startDesk();
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it(`creates ${DRAFTS} customers, each once and linked to its draft`, { timeout: 90_000 }, async () => {
    const service = h.desk.connection();
    const client = service.client();
    const ids: string[] = [];
    const emails = new Map<string, string>();
    for (let i = 0; i < DRAFTS; i++) {
      const form = validForm({ firstName: `Faulty${i}` });
      const { id } = await h.call('drafts.create');
      await h.call('drafts.save', { id, form });
      ids.push(id);
      emails.set(id, form.email!);
    }

    await setFaults(service.sandbox!, client, {
      rate: 0.2,
      kinds: ['500', 'reset', '503'],
      paths: ['/customers', '/customers/{id}'],
    });
    try {
      const result = await h.call('drafts.submit', { ids });
      expect(result.queued).toHaveLength(DRAFTS);
      await until(
        async () => {
          const status = await h.call('outbox.status');
          return !status.draining && status.counts.created >= DRAFTS;
        },
        `${DRAFTS} drafts created`,
        80_000,
      );
    } finally {
      await setFaults(service.sandbox!, client, { rate: 0 });
    }

    const { drafts } = await h.call('drafts.list');
    expect(drafts.filter((draft) => draft.state !== 'created')).toEqual([]);
    const linked = new Set(drafts.map((draft) => draft.customerId));
    expect(linked.size).toBe(DRAFTS);
    for (const draft of drafts) {
      const customers = await customersWithEmail(client, emails.get(draft.id)!);
      expect(customers.map((customer) => customer.id)).toEqual([draft.customerId]);
    }
    const all = await client.customers.list({ limit: 1 });
    expect('total' in all && all.total).toBe(DRAFTS);

    const progress = h.events
      .filter((e) => e.event === 'job.progress')
      .map((e) => e.payload as Progress)
      .filter((p) => p.job === 'outbox');
    expect(progress.at(-1)).toMatchObject({ job: 'outbox', done: DRAFTS, total: DRAFTS, finished: true });
  });
});
