import { describe, expect, it } from 'vitest';
import { type QueueWindowInput, QueueWindowSchema, SECTIONS } from '#contract/queue.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { MINUTE, manualClock, openTestJournal, serviceCustomer } from './helpers.ts';

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();

/** [id, first name, last name, email, status, minute the status was reached] */
const PEOPLE = [
  ['r1', 'Ada', 'Lovelace', 'ada@analytical.org', 'retry', 30],
  ['r2', 'Alan', 'Turing', 'alan@bletchley.uk', 'retry', 10],
  ['d1', 'Grace', 'Hopper', 'grace@navy.mil', 'document', 20],
  ['v1', 'Edsger', 'Dijkstra', 'ewd@utexas.edu', 'verified', 5],
  ['v2', 'Barbara', 'Liskov', 'liskov@mit.edu', 'verified', 5],
  ['v3', 'Zoë', 'Łukasiewicz', 'zoe@example.pl', 'verified', 1],
  ['s1', 'Kevin', 'Mitnick', 'kevin@example.com', 'suspended', 40],
  ['o1', 'Donald', 'Knuth', 'knuth@stanford.edu', 'frozen', 15],
  ['o2', 'Frances', 'Allen', 'fran@ibm.com', 'on_hold', 25],
] as const;

async function queueJournal(): Promise<Journal> {
  const time = manualClock('2026-03-01T10:00:00.000Z');
  const journal = await openTestJournal({ clock: time.clock });
  for (const [id, firstName, lastName, email, status, minute] of PEOPLE) {
    await journal.customers.upsert(serviceCustomer({ id, firstName, lastName, email, status }), {
      source: 'poll',
      at: at(minute),
    });
  }
  await journal.customers.upsert(
    serviceCustomer({ id: 'w1', firstName: 'Tim', lastName: 'Berners-Lee', status: 'document' }),
    {
      source: 'poll',
      at: at(35),
    },
  );
  await journal.customers.setDocuments('w1', { pending: 2, note: null });
  time.advance(-88 * MINUTE); // the draft has waited since 08:32
  await journal.drafts.insert({
    form: { firstName: 'Margaret', lastName: 'Hamilton', email: 'margaret@apollo.gov' },
  });
  return journal;
}

async function window(journal: Journal, input: Partial<QueueWindowInput>) {
  const result = await journal.queue.window({ section: 'all', search: '', offset: 0, limit: 50, ...input });
  return QueueWindowSchema.parse(result);
}

const ids = (result: { rows: { id: string }[] }) => result.rows.map((row) => row.id);

describe('the queue', () => {
  it('gives each section longest-waiting first, ties by id, with the live count of every section', async () => {
    const journal = await queueJournal();
    const expected = {
      retry: ['r2', 'r1'],
      document: ['d1'],
      review: ['w1'],
      verified: ['v3', 'v1', 'v2'],
      suspended: ['s1'],
      other: ['o1', 'o2'],
    };
    for (const [section, order] of Object.entries(expected)) {
      const result = await window(journal, { section: section as keyof typeof expected });
      expect(ids(result), section).toEqual(order);
      expect(result.total).toBe(order.length);
      expect(result.rows.every((row) => row.section === section)).toBe(true);
    }
    const { counts } = await window(journal, {});
    expect(counts).toEqual({
      retry: 2,
      document: 1,
      review: 1,
      kba: 0,
      unverified: 0,
      verified: 3,
      suspended: 1,
      deactivated: 0,
      other: 2,
      drafts: 1,
    });
    expect(Object.keys(counts).sort()).toEqual([...SECTIONS].sort());
  });

  it('shows unknown statuses by name in "other", and drafts in "Drafts & outbox"', async () => {
    const journal = await queueJournal();
    expect((await window(journal, { section: 'other' })).rows.map((row) => row.status)).toEqual([
      'frozen',
      'on_hold',
    ]);
    expect((await window(journal, { section: 'drafts' })).rows).toEqual([
      expect.objectContaining({
        name: 'Margaret Hamilton',
        email: 'margaret@apollo.gov',
        status: 'draft',
        section: 'drafts',
        statusSince: '2026-03-01T08:32:00.000Z',
        gone: false,
      }),
    ]);
  });

  it('merges every section, drafts included, in one longest-waiting-first list for "all"', async () => {
    const journal = await queueJournal();
    const draftId = (await journal.drafts.list())[0]!.id;
    const all = await window(journal, {});
    expect(ids(all)).toEqual(['v3', 'v1', 'v2', 'r2', 'o1', 'd1', 'o2', 'r1', draftId, 'w1', 's1']);
    expect(all.total).toBe(11);
    const times = all.rows.map((row) => row.statusSince);
    expect(times).toEqual([...times].sort());
  });

  it('pages through a section with offset and limit', async () => {
    const journal = await queueJournal();
    expect(ids(await window(journal, { offset: 0, limit: 4 }))).toEqual(['v3', 'v1', 'v2', 'r2']);
    expect(ids(await window(journal, { offset: 4, limit: 4 }))).toEqual(['o1', 'd1', 'o2', 'r1']);
    expect((await window(journal, { offset: 8, limit: 4 })).rows.map((row) => row.section)).toEqual([
      'drafts',
      'review',
      'suspended',
    ]);
    expect(ids(await window(journal, { section: 'verified', offset: 1, limit: 1 }))).toEqual(['v1']);
    const past = await window(journal, { section: 'verified', offset: 3, limit: 10 });
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(3);
  });

  it('finds customers by any fragment of name or e-mail, in any case, with counts for the search', async () => {
    const journal = await queueJournal();
    expect(ids(await window(journal, { search: 'LOVE' }))).toEqual(['r1']);
    expect(ids(await window(journal, { search: 'bletchley' }))).toEqual(['r2']);
    expect(ids(await window(journal, { search: '.edu' }))).toEqual(['v1', 'v2', 'o1']);
    const edu = await window(journal, { section: 'verified', search: '.edu' });
    expect(ids(edu)).toEqual(['v1', 'v2']);
    expect(edu.total).toBe(2);
    expect(edu.counts).toEqual({
      retry: 0,
      document: 0,
      review: 0,
      kba: 0,
      unverified: 0,
      verified: 2,
      suspended: 0,
      deactivated: 0,
      other: 1,
      drafts: 0,
    });
  });

  it('matches every word, in any order, and short words as fragments beside long ones', async () => {
    const journal = await queueJournal();
    expect(ids(await window(journal, { search: 'turing alan' }))).toEqual(['r2']);
    expect(ids(await window(journal, { search: 'turing ada' }))).toEqual([]);
    expect(ids(await window(journal, { search: 'mit ed' }))).toEqual(['v2']);
  });

  it('matches names or e-mails that start with a term too short for substring search', async () => {
    const journal = await queueJournal();
    expect(ids(await window(journal, { search: 'a' }))).toEqual(['r2', 'r1']);
    expect(ids(await window(journal, { search: 'Gr' }))).toEqual(['d1']);
    expect(ids(await window(journal, { search: 'ew' }))).toEqual(['v1']);
    expect((await window(journal, { search: 'ma', section: 'drafts' })).total).toBe(1);
  });

  it('searches drafts too, ignoring case and accents', async () => {
    const journal = await queueJournal();
    const apollo = await window(journal, { search: 'apollo' });
    expect(apollo.counts.drafts).toBe(1);
    expect(apollo.rows).toMatchObject([{ name: 'Margaret Hamilton', section: 'drafts' }]);
    expect(ids(await window(journal, { search: 'zoe' }))).toEqual(['v3']);
    expect(ids(await window(journal, { search: 'łukasiewicz' }))).toEqual(['v3']);
  });

  it('treats search text literally: quotes, wildcards and FTS operators match nothing special', async () => {
    const journal = await queueJournal();
    for (const search of ['"', 'a"b', '%', '_', 'ada OR alan', 'NEAR(ada)', 'name:ada', '*', '\\']) {
      const result = await window(journal, { search });
      expect(result.total, search).toBe(0);
    }
    expect(ids(await window(journal, { search: 'berners-lee' }))).toEqual(['w1']);
  });

  it('follows a change of name in the search index', async () => {
    const journal = await queueJournal();
    await journal.customers.upsert(
      serviceCustomer({ id: 'r1', firstName: 'Ada', lastName: 'King', status: 'retry' }),
      {
        source: 'poll',
      },
    );
    expect(ids(await window(journal, { search: 'lovelace' }))).toEqual([]);
    expect(ids(await window(journal, { search: 'king' }))).toEqual(['r1']);
  });

  it('shows a gone customer and its note', async () => {
    const journal = await queueJournal();
    await journal.customers.markGone('d1');
    await journal.customers.setDocuments('d1', { pending: 0, note: 'ScanIdExpired' });
    expect((await window(journal, { section: 'document' })).rows).toMatchObject([
      { id: 'd1', gone: true, note: 'ScanIdExpired' },
    ]);
  });
});
