import { describe, expect, it } from 'vitest';
import { isSampleEmail } from '#contract/sandbox-panel.ts';
import type { DeskContext } from '#main/features/feature.ts';
import { samplesFor } from '#main/features/sandbox-link/sample-recipe.ts';
import { SAMPLES_IN_A_TEAM, type SampleDesk, samplesFeature } from '#main/features/sandbox-link/samples.ts';
import { deskForSuite } from '#test/support/desk/desk-harness.ts';
import { until } from '#test/support/poll.ts';

/** "Add sample customers" through the whole desk on the built-in sandbox (interface profile). */
describe('desk: sample customers', () => {
  const desk = deskForSuite();
  const CALL = { host: 'browser' } as const;

  it('adds a dozen across the statuses through the drafts, with notes, an upload and their events; twice adds nothing', async () => {
    const h = desk();
    expect(await h.call('sandbox.addSamples')).toEqual({ added: 12, alreadyThere: 0 });

    const sampleRows = async () =>
      (await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 200 })).rows.filter(
        (row) => isSampleEmail(row.email),
      );
    const rows = await until(async () => {
      const found = await sampleRows();
      return found.length === 12 && found.every((row) => row.status !== 'draft') && found;
    }, 'the dozen samples in the queue');
    const statuses = rows.map((row) => row.status).sort();
    expect(statuses).toEqual([...samplesFor('interface').map((sample) => sample.status)].sort());
    // Each was a draft the outbox sent: the audit has the draft's creation for every sample.
    const audit = await h.call('audit.window', {
      filter: { action: 'customer.create' },
      offset: 0,
      limit: 200,
    });
    const sampleIds = new Set(rows.map((row) => row.id));
    const created = audit.rows.filter((row) => row.customerId && sampleIds.has(row.customerId));
    expect(created.map((row) => row.detail)).toEqual(created.map(() => expect.stringMatching(/^draft /)));
    expect(created).toHaveLength(12);

    // The retry's note, and the rejected upload (its review finished, its webhooks recorded).
    const retry = rows.find((row) => row.status === 'retry')!;
    expect(retry.latestNote).toContain('swapped');
    const rejected = rows.find((row) => row.name.includes('Wojciechowska'))!;
    expect(rejected.status).toBe('document');
    const docs = await h.call('documents.list', { customerId: rejected.id });
    expect(docs.documents.map((doc) => doc.review)).toEqual(['rejected']);
    await until(async () => {
      await h.call('webhooks.catchUp');
      const events = await h.call('events.window', {
        topic: 'customer_verification_document_failed',
        offset: 0,
        limit: 10,
      });
      return events.rows.some((row) => row.customerId === rejected.id);
    }, 'the rejection’s event');

    expect(await h.call('sandbox.addSamples')).toEqual({ added: 0, alreadyThere: 12 });
    expect(await sampleRows()).toHaveLength(12);
  });

  it('is refused, in words, on another service', async () => {
    const h = desk();
    await h.call('settings.update', { serviceMode: 'custom' });
    await expect(h.call('sandbox.addSamples')).rejects.toMatchObject({
      code: 'NotSandbox',
      message: expect.stringContaining('only for the built-in sandbox'),
    });
  });

  it('is refused, in words, where the composition says so (a desk in a team)', async () => {
    const untouched = new Proxy({}, { get: () => () => Promise.reject(new Error('not to be called')) });
    const feature = samplesFeature({} as DeskContext, {
      desk: untouched as SampleDesk,
      refusal: SAMPLES_IN_A_TEAM,
    });
    await expect(feature.handlers['sandbox.addSamples'](undefined, CALL)).rejects.toMatchObject({
      code: 'NotSandbox',
      message: SAMPLES_IN_A_TEAM,
    });
  });
});
