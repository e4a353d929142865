// The desk's local replica of the team store (main/data/journal/replica.ts): rows arrive decrypted, are sealed
// again with this desk's key, and reach the queue, its counts and its search as the solo journal's own do.
import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import type { ReplicaCustomer } from '#main/data/journal/replica.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { journalFile } from './helpers.ts';

// Closed here, before helpers.ts removes their folders: these are SqliteJournal, opened without the test double.
const journals: SqliteJournal[] = [];
afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close();
});
function openLocal(file = journalFile(), dataKey = createFieldKey()) {
  const journal = openJournal({ file, dataKey });
  journals.push(journal);
  return journal;
}

const PERSONAL = {
  address: { address1: '12 Quiet Lane', city: 'Springfield', state: 'IL', postalCode: '62704' },
  dateOfBirth: '1980-04-02',
  ssnLastFour: '6789',
};

function teamCustomer(overrides: Partial<ReplicaCustomer> & { id: string; seq: number }): ReplicaCustomer {
  return {
    url: `https://api.service.test/customers/${overrides.id}`,
    name: 'Jane Doe',
    email: `${overrides.id}@example.com`,
    type: 'personal',
    status: 'document',
    statusSince: '2026-03-01T09:00:00.000Z',
    created: '2026-03-01T08:00:00.000Z',
    lastRefreshed: '2026-03-01T09:05:00.000Z',
    changedAt: '2026-03-01T09:00:00.000Z',
    goneAt: null,
    pendingDocuments: 0,
    links: { self: { href: `https://api.service.test/customers/${overrides.id}` } },
    note: null,
    personal: null,
    reported: null,
    ...overrides,
  };
}

const all = { section: 'all' as const, search: '', offset: 0, limit: 50 };

/** The counts the triggers keep, against a recount of the rows: they must agree after any change. */
function countsAgree(journal: SqliteJournal) {
  const db = new DatabaseSync(journal.file, { readOnly: true });
  try {
    const kept = (sql: string) => JSON.stringify(db.prepare(sql).all());
    return {
      sections: kept('SELECT section, customers AS n FROM section_counts WHERE customers > 0 ORDER BY 1'),
      recountedSections: kept('SELECT section, count(*) AS n FROM customers GROUP BY 1 ORDER BY 1'),
      days: kept('SELECT section, day, n FROM queue_days WHERE n > 0 ORDER BY 1, 2'),
      recountedDays: kept(`SELECT section, day, n FROM (
          SELECT section, substr(status_since, 1, 10) AS day, count(*) AS n FROM customers GROUP BY 1, 2
          UNION ALL SELECT '*', substr(status_since, 1, 10), count(*) FROM customers GROUP BY 2) ORDER BY 1, 2`),
      hours: kept('SELECT section, hour, n FROM queue_hours WHERE n > 0 ORDER BY 1, 2'),
      recountedHours: kept(`SELECT section, hour, n FROM (
          SELECT section, substr(status_since, 1, 13) AS hour, count(*) AS n FROM customers GROUP BY 1, 2
          UNION ALL SELECT '*', substr(status_since, 1, 13), count(*) FROM customers GROUP BY 2) ORDER BY 1, 2`),
    };
  } finally {
    db.close();
  }
}

function expectCountsAgree(journal: SqliteJournal) {
  const c = countsAgree(journal);
  expect(c.sections).toBe(c.recountedSections);
  expect(c.days).toBe(c.recountedDays);
  expect(c.hours).toBe(c.recountedHours);
}

describe('the local replica', () => {
  it('applies customers, history, notes and retries in one go; the queue, search and case read them', async () => {
    const journal = openLocal();
    expect(await journal.replica.lastSeq()).toBe(0);
    const applied = await journal.replica.applyChanges({
      customers: [
        teamCustomer({
          id: 'c-1',
          seq: 4,
          name: 'Ada Lovelace',
          personal: PERSONAL,
          reported: { phone: '555-0100' },
          changedAt: '2026-03-01T09:30:00.000Z',
        }),
        teamCustomer({ id: 'c-2', seq: 2, name: 'Grace Hopper', status: 'verified' }),
      ],
      statusHistory: [
        {
          seq: 1,
          customerId: 'c-1',
          status: 'document',
          at: '2026-03-01T09:00:00.000Z',
          source: 'event',
          eventId: 'e-1',
        },
        {
          seq: 3,
          customerId: 'c-2',
          status: 'verified',
          at: '2026-03-01T09:00:00.000Z',
          source: 'poll',
          eventId: null,
        },
      ],
      notes: [
        { seq: 5, customerId: 'c-1', at: '2026-03-01T09:10:00.000Z', author: 'ada', text: 'Photo is blurry' },
      ],
      retries: [
        { seq: 6, customerId: 'c-1', usedAt: '2026-03-01T09:20:00.000Z', outcome: null, released: false },
      ],
      through: 7,
    });
    expect(applied.lastSeq).toBe(7);
    expect(applied.customerIds.sort()).toEqual(['c-1', 'c-2']);
    expect(await journal.replica.lastSeq()).toBe(7);

    const found = await journal.queue.window({ ...all, search: 'lovelace' });
    expect(found.rows).toMatchObject([
      { id: 'c-1', name: 'Ada Lovelace', section: 'document', changedAt: '2026-03-01T09:30:00.000Z' },
    ]);
    expect((await journal.queue.window(all)).counts).toMatchObject({ document: 1, verified: 1 });
    expect(await journal.customers.personal('c-1')).toEqual(PERSONAL);
    expect(await journal.customers.reported('c-1')).toEqual({ phone: '555-0100' });
    expect(await journal.customers.history('c-1')).toEqual([
      { status: 'document', at: '2026-03-01T09:00:00.000Z', source: 'event', eventId: 'e-1' },
    ]);
    expect(await journal.notes.list('c-1')).toMatchObject([{ text: 'Photo is blurry', author: 'ada' }]);
    expect(await journal.queue.window({ ...all, search: 'blurry' })).toMatchObject({ rows: [{ id: 'c-1' }] });
    expect(await journal.retries.get('c-1')).toEqual({
      customerId: 'c-1',
      usedAt: '2026-03-01T09:20:00.000Z',
      outcome: null,
    });
    expectCountsAgree(journal);
  });

  it('seals personal data and notes with this desk’s own key: none of it is on disk in plaintext', async () => {
    const file = journalFile();
    const dataKey = createFieldKey();
    const journal = openLocal(file, dataKey);
    await journal.replica.applyChanges({
      customers: [teamCustomer({ id: 'c-1', seq: 1, personal: PERSONAL, reported: { phone: '555-0100' } })],
      notes: [
        {
          seq: 2,
          customerId: 'c-1',
          at: '2026-03-01T09:10:00.000Z',
          author: 'ada',
          text: 'Scar above eyebrow',
        },
      ],
    });
    await journal.close();
    const bytes = Buffer.concat(
      [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)),
    ).toString('latin1');
    for (const secret of ['12 Quiet Lane', '1980-04-02', '6789', '555-0100', 'Scar above eyebrow']) {
      expect(bytes).not.toContain(secret);
    }
    const again = openLocal(file, dataKey);
    expect(await again.customers.personal('c-1')).toEqual(PERSONAL);
    expect(await again.replica.lastSeq()).toBe(2);
  });

  it('moves a customer between sections, days and names: counts, places and search follow', async () => {
    const journal = openLocal();
    await journal.replica.applyChanges({
      customers: [
        teamCustomer({ id: 'c-1', seq: 1, name: 'Ada Lovelace' }),
        teamCustomer({ id: 'c-2', seq: 2, name: 'Grace Hopper', statusSince: '2026-03-02T10:00:00.000Z' }),
      ],
    });
    const moved = await journal.replica.applyChanges({
      customers: [
        teamCustomer({
          id: 'c-1',
          seq: 3,
          name: 'Ada King',
          status: 'verified',
          statusSince: '2026-03-04T15:00:00.000Z',
          changedAt: '2026-03-04T15:00:00.000Z',
        }),
        teamCustomer({ id: 'c-2', seq: 4, name: 'Grace Hopper', pendingDocuments: 2, note: 'Two documents' }),
      ],
    });
    expect(moved.customerIds.sort()).toEqual(['c-1', 'c-2']);
    expect((await journal.queue.window({ ...all, search: 'lovelace' })).rows).toEqual([]);
    expect((await journal.queue.window({ ...all, search: 'king' })).rows).toMatchObject([
      { id: 'c-1', section: 'verified', statusSince: '2026-03-04T15:00:00.000Z' },
    ]);
    expect((await journal.queue.window(all)).counts).toMatchObject({ document: 0, review: 1, verified: 1 });
    expect(await journal.customers.get('c-2')).toMatchObject({ section: 'review', note: 'Two documents' });
    expectCountsAgree(journal);
  });

  it('applies a change once: the same changes again add no history or note and report nothing changed', async () => {
    const journal = openLocal();
    const changes = {
      customers: [teamCustomer({ id: 'c-1', seq: 1 })],
      statusHistory: [
        {
          seq: 2,
          customerId: 'c-1',
          status: 'document',
          at: '2026-03-01T09:00:00.000Z',
          source: 'created' as const,
          eventId: null,
        },
      ],
      notes: [{ seq: 3, customerId: 'c-1', at: '2026-03-01T09:10:00.000Z', author: 'ada', text: 'Once' }],
      retries: [
        {
          seq: 4,
          customerId: 'c-1',
          usedAt: '2026-03-01T09:20:00.000Z',
          outcome: 'verified',
          released: false,
        },
      ],
    };
    await journal.replica.applyChanges(changes);
    expect(await journal.replica.applyChanges(changes)).toEqual({ lastSeq: 4, customerIds: [] });
    expect(await journal.customers.history('c-1')).toHaveLength(1);
    expect(await journal.notes.count('c-1')).toBe(1);
    expect((await journal.queue.window(all)).counts).toMatchObject({ document: 1 });
    expectCountsAgree(journal);
  });

  it('never lets an older change overwrite a newer one, nor move the last change number back', async () => {
    const journal = openLocal();
    await journal.replica.applyChanges({
      customers: [teamCustomer({ id: 'c-1', seq: 9, status: 'verified', name: 'Newest Name' })],
      retries: [
        {
          seq: 10,
          customerId: 'c-1',
          usedAt: '2026-03-01T09:20:00.000Z',
          outcome: 'verified',
          released: false,
        },
      ],
    });
    const stale = await journal.replica.applyChanges({
      customers: [teamCustomer({ id: 'c-1', seq: 5, status: 'document', name: 'Old Name' })],
      retries: [
        { seq: 6, customerId: 'c-1', usedAt: '2026-03-01T09:20:00.000Z', outcome: null, released: false },
      ],
    });
    expect(stale).toEqual({ lastSeq: 10, customerIds: [] });
    expect(await journal.customers.get('c-1')).toMatchObject({ status: 'verified', name: 'Newest Name' });
    expect(await journal.retries.get('c-1')).toMatchObject({ outcome: 'verified' });
    // Within one batch too, whatever the order given: the highest change wins.
    await journal.replica.applyChanges({
      customers: [
        teamCustomer({ id: 'c-1', seq: 12, name: 'Twelve' }),
        teamCustomer({ id: 'c-1', seq: 11, name: 'Eleven' }),
      ],
    });
    expect(await journal.customers.get('c-1')).toMatchObject({ name: 'Twelve' });
    expectCountsAgree(journal);
  });

  it('keeps a released retry as a tombstone: gone for the case, and no stale copy brings it back', async () => {
    const journal = openLocal();
    const retry = (seq: number, released: boolean) => ({
      seq,
      customerId: 'c-1',
      usedAt: `2026-03-01T09:${seq}0:00.000Z`,
      outcome: null,
      released,
    });
    await journal.replica.applyChanges({
      customers: [teamCustomer({ id: 'c-1', seq: 1 })],
      retries: [retry(2, false)],
    });
    expect(await journal.retries.get('c-1')).toBeDefined();
    await journal.replica.applyChanges({ retries: [retry(4, true)] });
    expect(await journal.retries.get('c-1')).toBeUndefined();
    expect(await journal.retries.list()).toEqual([]);
    expect(await journal.replica.applyChanges({ retries: [retry(3, false)] })).toMatchObject({
      customerIds: [],
    });
    expect(await journal.retries.get('c-1')).toBeUndefined();
    await journal.replica.applyChanges({ retries: [retry(5, false)] });
    expect(await journal.retries.get('c-1')).toMatchObject({ usedAt: '2026-03-01T09:50:00.000Z' });
  });

  it('rolls back the whole batch, last change number included, when one row cannot be applied', async () => {
    const journal = openLocal();
    await expect(
      journal.replica.applyChanges({
        customers: [teamCustomer({ id: 'c-1', seq: 1 })],
        statusHistory: [
          {
            seq: 2,
            customerId: 'c-404',
            status: 'verified',
            at: '2026-03-01T09:00:00.000Z',
            source: 'poll',
            eventId: null,
          },
        ],
      }),
    ).rejects.toThrow(/status change 2 of customer c-404 without the customer/);
    expect(await journal.replica.lastSeq()).toBe(0);
    expect(await journal.customers.get('c-1')).toBeUndefined();
  });
});
