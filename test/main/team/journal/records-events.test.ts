import { describe, expect, it } from 'vitest';
import type { EventsRepository } from '#main/data/journal/repositories/events.ts';
import type { Clock } from '#main/data/journal/time.ts';
import { teamEventsRepository } from '#main/team/journal/events.ts';
import { MINUTE, manualClock, openTestJournal } from '#test/main/data/journal/helpers.ts';
import { inboxEvent } from '#test/support/inbox-event.ts';
import { teamStore } from './records-context.ts';

// The same cases against the SQLite journal's events and the team store's: the two must not differ.
const implementations: Array<[string, (clock: Clock) => Promise<EventsRepository>]> = [
  ['SQLite', async (clock) => (await openTestJournal({ clock })).events],
  ['PostgreSQL', async (clock) => teamEventsRepository((await teamStore(clock)).ctx)],
];

const { processed: _, ...event } = inboxEvent('ev-1', { created: '2026-03-01T08:59:00.000Z' });

describe.each(implementations)('events on %s', (_name, open) => {
  it('records an event once and counts redeliveries as duplicates', async () => {
    const time = manualClock();
    const events = await open(time.clock);
    const first = await events.record(event);
    expect(first).toEqual({
      duplicate: false,
      event: { ...event, receivedAt: time.iso(), duplicatesSeen: 0, processedAt: null },
    });
    time.advance(MINUTE);
    const again = await events.record(event);
    expect(again.duplicate).toBe(true);
    expect(again.event).toMatchObject({ duplicatesSeen: 1, receivedAt: first.event.receivedAt });
    expect((await events.record(event)).event.duplicatesSeen).toBe(2);
    expect(await events.get('ev-1')).toEqual({ ...first.event, duplicatesSeen: 2 });
    expect(await events.get('nope')).toBeUndefined();
  });

  it('takes the time received for an event whose own time does not parse', async () => {
    const time = manualClock();
    const events = await open(time.clock);
    const { event: recorded } = await events.record({ ...event, created: 'yesterday-ish', customerId: null });
    expect(recorded).toMatchObject({ created: time.iso(), customerId: null, signatureVerified: true });
  });

  it('lists events newest first, and those not yet processed oldest first', async () => {
    const time = manualClock();
    const events = await open(time.clock);
    for (const id of ['ev-1', 'ev-2', 'ev-3']) {
      await events.record({ ...event, id, customerId: null });
      time.advance(MINUTE);
    }
    await events.markProcessed('ev-2');
    const processedAt = time.iso();
    time.advance(MINUTE);
    await events.markProcessed('ev-2');
    expect((await events.list()).map((e) => e.id)).toEqual(['ev-3', 'ev-2', 'ev-1']);
    expect((await events.list({ limit: 1, offset: 1 })).map((e) => e.id)).toEqual(['ev-2']);
    expect((await events.unprocessed()).map((e) => e.id)).toEqual(['ev-1', 'ev-3']);
    // The first time it was processed stays.
    expect((await events.get('ev-2'))?.processedAt).toBe(processedAt);
  });

  it('windows the log by topic and customer with the total, sorts ties by id as bytes, lists topics', async () => {
    const time = manualClock();
    const events = await open(time.clock);
    const given: Array<[id: string, topic: string, customerId: string | null]> = [
      ['ev-a', 'customer_verified', 'c-1'],
      ['ev-B', 'customer_suspended', 'c-1'],
      ['ev-c', 'customer_verified', 'c-2'],
      ['ev-d', 'Customer_created', null],
    ];
    for (const [id, topic, customerId] of given) {
      await events.record({ ...event, id, topic, resourceId: customerId ?? 'x', customerId });
      // Two events share a time received: the id decides, as bytes ('B' before 'a').
      if (id !== 'ev-a') time.advance(MINUTE);
    }
    const ids = (list: { id: string }[]) => list.map((e) => e.id);
    const all = await events.window({}, { offset: 0, limit: 10 });
    expect([ids(all.events), all.total]).toEqual([['ev-d', 'ev-c', 'ev-a', 'ev-B'], 4]);
    const verified = await events.window({ topic: 'customer_verified' }, { offset: 1, limit: 1 });
    expect([ids(verified.events), verified.total]).toEqual([['ev-a'], 2]);
    const c1 = await events.window(
      { customerId: 'c-1', topic: 'customer_suspended' },
      { offset: 0, limit: 5 },
    );
    expect([ids(c1.events), c1.total]).toEqual([['ev-B'], 1]);
    expect(await events.window({ topic: 'nothing' }, { offset: 0, limit: 5 })).toEqual({
      events: [],
      total: 0,
    });
    expect(ids(await events.matching({ customerId: 'c-1' }))).toEqual(['ev-a', 'ev-B']);
    expect(ids(await events.matching({}))).toEqual(['ev-d', 'ev-c', 'ev-a', 'ev-B']);
    expect(await events.topics()).toEqual(['Customer_created', 'customer_suspended', 'customer_verified']);
  });
});

describe('events on PostgreSQL with a language-aware collation', () => {
  it('still sorts ids and topics as bytes, as the SQLite journal does', async () => {
    const time = manualClock();
    const { ctx, pool } = await teamStore(time.clock);
    // As a database made with a locale other than C would compare them ('a' before 'B').
    await pool.query(`ALTER TABLE vetted.events ALTER COLUMN id TYPE text COLLATE "und-x-icu",
      ALTER COLUMN topic TYPE text COLLATE "und-x-icu"`);
    const events = teamEventsRepository(ctx);
    for (const id of ['ev-a', 'ev-B'])
      await events.record({ ...event, id, topic: id === 'ev-a' ? 'a' : 'B' });
    expect((await events.list()).map((e) => e.id)).toEqual(['ev-a', 'ev-B']);
    expect((await events.unprocessed()).map((e) => e.id)).toEqual(['ev-B', 'ev-a']);
    expect(await events.topics()).toEqual(['B', 'a']);
  });
});
