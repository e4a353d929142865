import { describe, expect, it } from 'vitest';
import { type QueueWindowInput, QueueWindowSchema } from '#contract/queue.ts';
import { COUNT_CAP } from '#contract/queue-view.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { MINUTE, openTestJournal, serviceCustomer } from './helpers.ts';

/** The queue and the reviewer's notes: the "Has notes" filter, and a search finding a word of a note. */

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** `count` customers, the i-th named `name(i)`, each reaching its status at a different minute. */
async function crowd(count: number, name: (i: number) => string): Promise<Journal> {
  const journal = await openTestJournal();
  await journal.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await tx.customers.upsert(serviceCustomer({ id: uuid(i), firstName: name(i), lastName: 'Test' }), {
        source: 'poll',
        at: at((i * 7_919) % (30 * 24 * 60)),
      });
    }
  });
  return journal;
}

async function window(journal: Journal, input: Partial<QueueWindowInput>) {
  return QueueWindowSchema.parse(
    await journal.queue.window({ section: 'all', search: '', offset: 0, limit: 50, ...input }),
  );
}
const ids = (result: { rows: { id: string }[] }) => result.rows.map((row) => row.id);

describe('the "Has notes" filter', () => {
  it('lists only the cases with a note, and a case as soon as it gets one', async () => {
    const journal = await crowd(4, (i) => ['Cleo', 'Alma', 'Bruno', 'Dora'][i] ?? 'X');
    expect(ids(await window(journal, { filters: { hasNotes: true } }))).toEqual([]);

    await journal.notes.add({ customerId: uuid(2), text: 'Called about the address.' });
    await journal.notes.add({ customerId: uuid(2), text: 'Second note, same case.' });
    const noted = await window(journal, { filters: { hasNotes: true } });
    expect(ids(noted)).toEqual([uuid(2)]);
    expect(noted.total).toBe(1);
    // Without the filter every case is there again.
    expect(ids(await window(journal, {})).sort()).toEqual([0, 1, 2, 3].map(uuid).sort());

    await journal.notes.add({ customerId: uuid(0), text: 'Another.' });
    expect(ids(await window(journal, { filters: { hasNotes: true } })).sort()).toEqual(
      [uuid(0), uuid(2)].sort(),
    );
    // With a search as well: both conditions hold.
    expect(ids(await window(journal, { search: 'bruno', filters: { hasNotes: true } }))).toEqual([uuid(2)]);
    expect(ids(await window(journal, { search: 'alma', filters: { hasNotes: true } }))).toEqual([]);
  });
});

describe('a search finds a customer by a word of its note', () => {
  it('on a narrow search (few matches in the index)', async () => {
    const journal = await crowd(5, (i) => (i === 0 ? 'Harbour' : `Quiet${i}`));
    await journal.notes.add({ customerId: uuid(3), text: 'Moved near the harbour last spring.' });
    const found = await window(journal, { search: 'harbour' });
    expect(ids(found).sort()).toEqual([uuid(0), uuid(3)].sort());
    expect(found.total).toBe(2);
    expect(found.capped ?? false).toBe(false);
    // A word only the note has.
    expect(ids(await window(journal, { search: 'spring' }))).toEqual([uuid(3)]);
  });

  it('on a search with more matches than the first probe of the index, counted', async () => {
    // 150 names match: more than the probe asks for, fewer than the cap, so the matches are counted.
    const journal = await crowd(200, (i) => (i < 150 ? 'Harbour' : 'Inland'));
    await journal.notes.add({ customerId: uuid(180), text: 'Lives by the harbour now.' });
    const found = await window(journal, { search: 'harbour', limit: 200 });
    expect(found.capped ?? false).toBe(false);
    expect(found.total).toBe(151);
    expect(ids(found)).toContain(uuid(180));
    expect(ids(found).filter((id) => Number(id.slice(-12)) >= 150)).toEqual([uuid(180)]);
  });

  it('on a broad search ("1,000+"): the noted customer is in its place in the order', async () => {
    // Every name but one matches, more than twice the cap: the search walks the order, testing each row.
    const journal = await crowd(2 * COUNT_CAP + 300, (i) => (i === 0 ? 'Inland' : 'Harbour'));
    const noted = uuid(0);
    expect(ids(await window(journal, { search: 'harbour' }))).not.toContain(noted);
    await journal.notes.add({ customerId: noted, text: 'Harbour view flat.' });
    const found = await window(journal, { search: 'harbour' });
    expect(found.capped).toBe(true);
    // The one who has waited longest (minute 0) comes first, found by the note alone.
    expect(ids(found)[0]).toBe(noted);
    expect(ids(found)).toHaveLength(50);
    expect(new Set(ids(found)).size).toBe(50);
    // 2,300 customers written one by one: ~6 s on the team's PostgreSQL on a quiet machine, past the suite's 20 s
    // bound on a loaded 2-core one (it failed there); a bound, not a speed, so a wider one.
  }, 60_000);
});
