// The team's claims in a desk's replica (migration 10): applied once and never over a newer change, the note
// sealed with the desk's key, and read by the queue: "Ana has this" on the row, the claim filters (Mine,
// Unclaimed, by reviewer) and the work by who holds it.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplicaClaim } from '#main/data/journal/claims.ts';
import { openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import type { ReplicaCustomer } from '#main/data/journal/replica.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { journalFile } from './helpers.ts';

const journals: SqliteJournal[] = [];
afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close();
});
function openLocal() {
  const journal = openJournal({ file: journalFile(), dataKey: createFieldKey() });
  journals.push(journal);
  return journal;
}

const customer = (id: string, seq: number, status = 'document', statusSince = '2026-03-01T09:00:00.000Z') =>
  ({
    id,
    seq,
    url: `https://api.service.test/customers/${id}`,
    name: `Customer ${id}`,
    email: `${id}@example.com`,
    type: 'personal',
    status,
    statusSince,
    created: '2026-03-01T08:00:00.000Z',
    lastRefreshed: statusSince,
    changedAt: statusSince,
    goneAt: null,
    pendingDocuments: 0,
    links: {},
    note: null,
    personal: null,
    reported: null,
  }) satisfies ReplicaCustomer;

const claim = (customerId: string, seq: number, holder: string | null, more: Partial<ReplicaClaim> = {}) =>
  ({
    seq,
    customerId,
    holder,
    since: holder ? '2026-03-01T10:00:00.000Z' : null,
    how: holder ? 'take' : 'release',
    changedBy: holder ?? 'ana',
    changedAt: '2026-03-01T10:00:00.000Z',
    note: null,
    ...more,
  }) satisfies ReplicaClaim;

/** Four customers: c-1 and c-2 in `document`, c-3 in `retry` (since earlier), c-4 verified. */
async function withCustomers(journal: SqliteJournal) {
  await journal.replica.applyChanges({
    customers: [
      customer('c-1', 1),
      customer('c-2', 2),
      customer('c-3', 3, 'retry', '2026-02-20T09:00:00.000Z'),
      customer('c-4', 4, 'verified'),
    ],
  });
}

const window = (journal: SqliteJournal, claimScope?: Parameters<SqliteJournal['queue']['window']>[2]) =>
  journal.queue.window({ section: 'all', search: '', offset: 0, limit: 50 }, {}, claimScope);
const ids = async (promise: ReturnType<typeof window>) => (await promise).rows.map((row) => row.id).sort();

describe('claims in the replica', () => {
  it('tells who held each case before, applies a change once and never over a newer one', async () => {
    const journal = openLocal();
    await withCustomers(journal);
    const first = await journal.replica.applyChanges({ claims: [claim('c-1', 5, 'ana')] });
    expect(first.claims).toEqual([{ claim: claim('c-1', 5, 'ana'), before: null }]);
    expect(first.customerIds).toEqual(['c-1']);
    const over = claim('c-1', 7, 'lee', { how: 'takeOver', changedBy: 'lee', note: 'Ana is away today' });
    expect((await journal.replica.applyChanges({ claims: [over] })).claims).toEqual([
      { claim: over, before: 'ana' },
    ]);
    // The same again, and an older one: nothing changes, nothing is told.
    expect(await journal.replica.applyChanges({ claims: [over, claim('c-1', 6, 'ben')] })).toEqual({
      lastSeq: 7,
      customerIds: [],
    });
    expect(await journal.replica.claim('c-1')).toEqual({
      customerId: 'c-1',
      holder: 'lee',
      since: '2026-03-01T10:00:00.000Z',
      how: 'takeOver',
      changedBy: 'lee',
      changedAt: '2026-03-01T10:00:00.000Z',
      note: 'Ana is away today',
    });
    expect(await journal.replica.claim('c-2')).toBeUndefined();
  });

  it('keeps a take-over’s reason sealed on disk', async () => {
    const journal = openLocal();
    await withCustomers(journal);
    await journal.replica.applyChanges({
      claims: [claim('c-1', 5, 'lee', { how: 'takeOver', note: 'Disputed by Priya Raman' })],
    });
    await journal.close();
    journals.length = 0;
    expect(fs.readFileSync(journal.file).includes('Priya Raman')).toBe(false);
  });

  it('refuses a claim on a case the replica does not have', async () => {
    const journal = openLocal();
    await expect(journal.replica.applyChanges({ claims: [claim('c-9', 1, 'ana')] })).rejects.toThrow(
      /claim 1 of customer c-9 without the customer/,
    );
  });
});

describe('the queue and the claims', () => {
  it('names who holds a case on its row, and nobody once released', async () => {
    const journal = openLocal();
    await withCustomers(journal);
    await journal.replica.applyChanges({ claims: [claim('c-1', 5, 'ana'), claim('c-2', 6, 'ben')] });
    const rows = (await window(journal)).rows;
    expect(rows.find((row) => row.id === 'c-1')?.claimedBy).toBe('ana');
    expect(rows.find((row) => row.id === 'c-3')).not.toHaveProperty('claimedBy');
    await journal.replica.applyChanges({ claims: [claim('c-1', 8, null)] });
    expect((await window(journal)).rows.find((row) => row.id === 'c-1')).not.toHaveProperty('claimedBy');
  });

  it('filters by holder, by nobody, or to nothing, and leaves drafts out of any claim filter', async () => {
    const journal = openLocal();
    await withCustomers(journal);
    await journal.drafts.insert({ form: { type: 'personal', firstName: 'Draft' } });
    await journal.replica.applyChanges({
      claims: [claim('c-1', 5, 'ana'), claim('c-2', 6, 'ben'), claim('c-3', 7, 'ana'), claim('c-3', 8, null)],
    });
    expect(await ids(window(journal, { holder: 'ana' }))).toEqual(['c-1']);
    expect(await ids(window(journal, { holder: 'ben' }))).toEqual(['c-2']);
    expect(await ids(window(journal, { unclaimed: true }))).toEqual(['c-3', 'c-4']);
    expect(await ids(window(journal, { nothing: true }))).toEqual([]);
    expect((await window(journal)).rows).toHaveLength(5);
    const mine = await window(journal, { holder: 'ana' });
    expect(mine.counts).toMatchObject({ document: 1, retry: 0, drafts: 0 });
    expect(mine.total).toBe(1);
  });

  it('counts the work by who holds it: waiting and overdue per section with a target, and all held', async () => {
    const journal = openLocal();
    await withCustomers(journal);
    await journal.replica.applyChanges({ claims: [claim('c-1', 5, 'ana'), claim('c-4', 6, 'ana')] });
    // Documents are overdue from 09:00 on, retries from a day before the retry entered its section.
    const due = {
      document: '2026-03-01T09:30:00.000Z',
      retry: '2026-02-19T09:00:00.000Z',
      review: '2026-03-01T00:00:00.000Z',
    };
    const counts = await journal.queue.holderCounts(due);
    expect(counts).toEqual([
      {
        holder: null,
        waiting: { retry: 1, document: 1, review: 0 },
        overdue: { retry: 0, document: 1, review: 0 },
        held: 0,
      },
      {
        holder: 'ana',
        waiting: { retry: 0, document: 1, review: 0 },
        overdue: { retry: 0, document: 1, review: 0 },
        held: 2,
      },
    ]);
  });
});
