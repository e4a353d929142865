import { describe, expect, it } from 'vitest';
import { type QueueWindowInput, QueueWindowSchema } from '#contract/queue.ts';
import { COUNT_CAP } from '#contract/queue-view.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { MINUTE, manualClock, openTestJournal, serviceCustomer } from './helpers.ts';

const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();

/** [id, first name, status, minute the status was reached, day created] */
const PEOPLE = [
  ['a', 'Cleo', 'retry', 30, '2026-02-10'],
  ['b', 'alma', 'retry', 10, '2026-02-20'],
  ['c', 'Bruno', 'document', 20, '2026-02-15'],
  ['d', 'Dora', 'verified', 5, '2026-02-25'],
] as const;

async function ordersJournal(): Promise<{ journal: Journal; time: ReturnType<typeof manualClock> }> {
  const time = manualClock('2026-03-01T10:00:00.000Z');
  const journal = await openTestJournal({ clock: time.clock });
  for (const [id, firstName, status, minute, created] of PEOPLE) {
    await journal.customers.upsert(
      serviceCustomer({ id, firstName, lastName: 'Test', status, created: `${created}T09:00:00.000Z` }),
      { source: 'poll', at: at(minute) },
    );
  }
  return { journal, time };
}

async function window(journal: Journal, input: Partial<QueueWindowInput>, due = {}) {
  const result = await journal.queue.window(
    { section: 'all', search: '', offset: 0, limit: 50, ...input },
    due,
  );
  return QueueWindowSchema.parse(result);
}
const ids = (result: { rows: { id: string }[] }) => result.rows.map((row) => row.id);

describe('the queue in other orders, with filters', () => {
  it('sorts by waiting time (oldest first), by last change (newest first) or by name (any case)', async () => {
    const { journal, time } = await ordersJournal();
    expect(ids(await window(journal, {}))).toEqual(['d', 'b', 'c', 'a']);
    expect(ids(await window(journal, { sort: 'name' }))).toEqual(['b', 'c', 'a', 'd']);
    expect(ids(await window(journal, { sort: 'lastChange' }))).toEqual(['a', 'c', 'b', 'd']);

    // A change of status is a change: Dora's row comes first by last change, its waiting starts again.
    time.advance(HOUR);
    await journal.customers.upsert(
      serviceCustomer({ id: 'd', firstName: 'Dora', lastName: 'Test', status: 'suspended' }),
      {
        source: 'event',
        at: time.iso(),
      },
    );
    const byChange = await window(journal, { sort: 'lastChange' });
    expect(ids(byChange)[0]).toBe('d');
    expect(byChange.rows[0]?.changedAt).toBe(time.iso());
    expect(ids(await window(journal, {})).at(-1)).toBe('d');
  });

  it('pages forward from the last row held (keyset) exactly as by offset, in every order', async () => {
    const { journal } = await ordersJournal();
    for (const sort of ['waiting', 'lastChange', 'name'] as const) {
      const whole = ids(await window(journal, { sort }));
      const first = await window(journal, { sort, limit: 2 });
      const last = first.rows[1]!;
      const key = sort === 'name' ? last.name : sort === 'lastChange' ? last.changedAt! : last.statusSince;
      const next = await window(journal, { sort, offset: 2, limit: 2, after: { key, id: last.id } });
      expect([...ids(first), ...ids(next)], sort).toEqual(whole);
    }
  });

  it('filters by the day created and the day last changed, both ends included', async () => {
    const { journal } = await ordersJournal();
    const created = await window(journal, {
      filters: { createdFrom: '2026-02-15', createdTo: '2026-02-20' },
    });
    expect(ids(created)).toEqual(['b', 'c']);
    expect(created.counts).toMatchObject({ retry: 1, document: 1, verified: 0 });
    expect(ids(await window(journal, { filters: { changedFrom: '2026-03-02' } }))).toEqual([]);
    expect(ids(await window(journal, { filters: { changedTo: '2026-03-01' } }))).toHaveLength(4);
  });

  it('finds the overdue cases by the due times given, and no customer has notes before notes exist', async () => {
    const { journal } = await ordersJournal();
    // Retry cases that entered before 08:20 and document cases before 08:25 are overdue.
    const due = { retry: at(20), document: at(25), review: at(0) };
    const overdue = await window(journal, { filters: { overdue: true } }, due);
    expect(ids(overdue)).toEqual(['b', 'c']);
    expect(await journal.queue.overdueCounts(due)).toEqual({ retry: 1, document: 1, review: 0 });
    expect(ids(await window(journal, { filters: { hasNotes: true } }))).toEqual([]);
  });

  it('lists the cases that went overdue between two checks, once', async () => {
    const { journal } = await ordersJournal();
    const before = { retry: at(5), document: at(5), review: at(5) };
    const after = { retry: at(15), document: at(25), review: at(25) };
    const went = await journal.queue.wentOverdue(before, after, 10);
    expect(went.map((c) => c.id)).toEqual(['b', 'c']);
    expect(await journal.queue.wentOverdue(after, after, 10)).toEqual([]);
  });
});

// Thousands of customers written one by one: seconds on the team's PostgreSQL on a quiet machine, past the
// suite's 20 s bound on a loaded 2-core one (it failed there); a bound, not a speed, so a wider one.
describe('the queue at scale', { timeout: 60_000 }, () => {
  async function crowd(count: number, name: (i: number) => string): Promise<Journal> {
    const journal = await openTestJournal();
    await journal.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        // Spread over hours and days, in an order unrelated to the id.
        const minute = (i * 7_919) % (30 * 24 * 60);
        await tx.customers.upsert(
          serviceCustomer({ id: `c${String(i).padStart(5, '0')}`, firstName: name(i) }),
          {
            source: 'poll',
            at: at(minute),
          },
        );
      }
      await tx.drafts.insert({ form: { firstName: 'Draft', lastName: 'One', email: 'one@example.com' } });
    });
    return journal;
  }

  it('jumps to a far place with the same rows as counting there from the top', async () => {
    const journal = await crowd(1_200, () => 'Jane');
    for (const section of ['verified', 'all'] as const) {
      const counted = ids(await window(journal, { section, offset: 450, limit: 200 }));
      const jumped = ids(await window(journal, { section, offset: 550, limit: 50 }));
      expect(jumped, section).toEqual(counted.slice(100, 150));
      const far = await window(journal, { section, offset: 1_150, limit: 50 });
      expect(far.rows.length, section).toBe(50);
    }
  });

  it('counts a broad search only to the cap: "1,000+", the rows in order, the end found by paging', async () => {
    const journal = await crowd(1_100, (i) => (i % 1_100 < 1_050 ? 'Sarah' : 'Other'));
    const broad = await window(journal, { search: 'sarah' });
    expect(broad.capped).toBe(true);
    expect(broad.total).toBe(COUNT_CAP + 1);
    expect(broad.rows).toHaveLength(50);
    const plain = ids(await window(journal, { limit: 200 })).filter((id) => Number(id.slice(1)) < 1_050);
    expect(ids(broad)).toEqual(plain.slice(0, 50));
    const end = await window(journal, { search: 'sarah', offset: 1_000 });
    expect(end.rows.length).toBeLessThanOrEqual(1);
  });
});
