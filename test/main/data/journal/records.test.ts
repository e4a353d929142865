import { describe, expect, it } from 'vitest';
import { JournalError, openJournal } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import {
  journalFile,
  MINUTE,
  manualClock,
  openTestJournal,
  serviceCustomer,
  WITHOUT_REPLICA,
} from './helpers.ts';

// Drafts, outbox, events and retries: the tables later issues build on, with their minimal repositories.

describe('drafts and outbox', () => {
  it('keeps a draft with its form, listed without it', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock });
    const form = {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.mil',
      dateOfBirth: '1906-12-09',
    };
    const draft = await journal.drafts.insert({ form });
    expect(draft).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created: time.iso(),
      updated: time.iso(),
      state: 'draft',
      name: 'Grace Hopper',
      email: 'grace@navy.mil',
      customerId: null,
      fieldErrors: {},
      attempts: 0,
      nextAttemptAt: null,
      lastError: null,
      form,
    });
    time.advance(MINUTE);
    const queued = await journal.drafts.insert({ form: {}, state: 'queued' });
    expect(await journal.drafts.get(draft.id)).toEqual(draft);
    expect((await journal.drafts.list()).map((summary) => [summary.id, summary.state])).toEqual([
      [draft.id, 'draft'],
      [queued.id, 'queued'],
    ]);
    expect((await journal.drafts.list())[0]).not.toHaveProperty('form');
    expect(await journal.drafts.get('nope')).toBeUndefined();
  });

  it('gives a draft one Idempotency-Key, stored durably before it is used', async () => {
    const file = journalFile();
    const key = createFieldKey();
    const journal = openJournal({ file, dataKey: key });
    const draft = await journal.drafts.insert({ form: { firstName: 'Ada' } });
    const entry = await journal.outbox.ensureKey(draft.id);
    expect(entry).toMatchObject({ draftId: draft.id, attempts: 0 });
    expect(entry.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await journal.outbox.ensureKey(draft.id)).toEqual(entry);
    await journal.close();

    const reopened = await openTestJournal({ file, dataKey: key });
    expect(await reopened.outbox.ensureKey(draft.id)).toEqual(entry);
    expect(await reopened.outbox.list()).toEqual([entry]);
    await expect(reopened.outbox.ensureKey('no-such-draft')).rejects.toThrow(JournalError);
  });
});

describe('events', () => {
  const event = {
    id: 'ev-1',
    topic: 'customer_verified',
    resourceId: 'c-1',
    customerId: 'c-1',
    created: '2026-03-01T08:59:00.000Z',
    signatureVerified: true,
  };

  it('records an event once and counts redeliveries as duplicates', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock });
    const first = await journal.events.record(event);
    expect(first).toEqual({
      duplicate: false,
      event: {
        ...event,
        receivedAt: time.iso(),
        duplicatesSeen: 0,
        processedAt: null,
      },
    });
    time.advance(MINUTE);
    const again = await journal.events.record(event);
    expect(again.duplicate).toBe(true);
    expect(again.event).toMatchObject({ duplicatesSeen: 1, receivedAt: first.event.receivedAt });
    expect((await journal.events.record(event)).event.duplicatesSeen).toBe(2);
  });

  it('lists events newest first, and those not yet processed oldest first', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock });
    for (const id of ['ev-1', 'ev-2', 'ev-3']) {
      await journal.events.record({ ...event, id, customerId: null });
      time.advance(MINUTE);
    }
    await journal.events.markProcessed('ev-2');
    expect((await journal.events.list()).map((e) => e.id)).toEqual(['ev-3', 'ev-2', 'ev-1']);
    expect((await journal.events.list({ limit: 1, offset: 1 })).map((e) => e.id)).toEqual(['ev-2']);
    expect((await journal.events.unprocessed()).map((e) => e.id)).toEqual(['ev-1', 'ev-3']);
    expect((await journal.events.get('ev-2'))?.processedAt).toBe(time.iso());
  });
});

describe('retries', () => {
  it.skipIf(WITHOUT_REPLICA)(
    'records the one retry as used, keeping when it was used as its outcome becomes known',
    async () => {
      const time = manualClock();
      const journal = await openTestJournal({ clock: time.clock });
      await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), { source: 'poll' });
      const used = await journal.retries.record('c-1', null);
      expect(used).toEqual({ customerId: 'c-1', usedAt: time.iso(), outcome: null });
      time.advance(MINUTE);
      expect(await journal.retries.record('c-1', 'verified')).toEqual({ ...used, outcome: 'verified' });
      expect(await journal.retries.list()).toEqual([{ ...used, outcome: 'verified' }]);
      expect(await journal.retries.get('c-2')).toBeUndefined();
      await expect(journal.retries.record('unknown', null)).rejects.toThrow(JournalError);
    },
  );
});
