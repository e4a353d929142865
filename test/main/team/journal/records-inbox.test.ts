import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { InboxEvent } from '#main/data/journal/interface.ts';
import { teamEventsRepository } from '#main/team/journal/events.ts';
import { teamEventInbox } from '#main/team/journal/inbox.ts';
import { teamRejectionsRepository } from '#main/team/journal/rejections.ts';
import { MINUTE, manualClock } from '#test/main/data/journal/helpers.ts';
import { flood } from '#test/support/flood.ts';
import { inboxEvent } from '#test/support/inbox-event.ts';
import { until } from '#test/support/poll.ts';
import { contextOn, teamStore } from './records-context.ts';

const event = (id: string, processed = false): InboxEvent => inboxEvent(id, { processed });

describe('the webhook inbox on the team store', () => {
  it('records an event durably, counts a delivered duplicate, and leaves a fetched known one alone', async () => {
    const time = manualClock();
    const { ctx, url } = await teamStore(time.clock);
    const inbox = teamEventInbox(ctx);
    // Read through another pool: what it finds was committed, not just written on the inbox's connection.
    const events = teamEventsRepository(contextOn(url, time.clock).ctx);
    const [first] = await inbox.record([event('ev-1')], { delivered: true });
    expect(first).toEqual({
      duplicate: false,
      event: expect.objectContaining({
        id: 'ev-1',
        receivedAt: time.iso(),
        duplicatesSeen: 0,
        processedAt: null,
      }),
    });
    expect(await events.get('ev-1')).toEqual(first?.event);

    time.advance(MINUTE);
    const again = await inbox.record([event('ev-1')], { delivered: true });
    expect(again).toEqual([{ duplicate: true, event: { ...first?.event, duplicatesSeen: 1 } }]);
    // Fetched while catching up: a known one is left alone; a new one is recorded, processed if so marked.
    const fetched = await inbox.record([event('ev-1'), event('ev-2', true)], { delivered: false });
    expect(fetched.map(({ event: e, duplicate }) => [e.id, duplicate, e.processedAt])).toEqual([
      ['ev-2', false, time.iso()],
    ]);
    expect((await events.get('ev-1'))?.duplicatesSeen).toBe(1);
    await inbox.close();
    await expect(inbox.record([event('ev-3')], { delivered: true })).rejects.toThrow(/inbox is closed/);
  });

  it('keeps one row when two hubs record the same delivery at once, the second counted as a duplicate', async () => {
    const { url, ctx, pool } = await teamStore();
    const hubs = [teamEventInbox(ctx), teamEventInbox(contextOn(url).ctx)];
    // Both inserts are held at the table until both are waiting there, so neither commits first.
    const gate = await pool.connect();
    await gate.query('BEGIN');
    await gate.query('LOCK TABLE vetted.events IN SHARE MODE');
    const recording = Promise.all(hubs.map((hub) => hub.record([event('ev-same')], { delivered: true })));
    await until(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO vetted.events%'`,
      );
      return rows[0]?.n === 2;
    }, 'both hubs waiting to insert');
    await gate.query('COMMIT');
    gate.release();
    const results = await recording;
    expect(
      results
        .flat()
        .map((result) => result.duplicate)
        .sort(),
    ).toEqual([false, true]);
    const { rows } = await ctx.db.read.query('SELECT duplicates_seen FROM vetted.events');
    expect(rows).toEqual([{ duplicates_seen: 1 }]);
    await Promise.all(hubs.map((hub) => hub.close()));
  });

  it('commits deliveries arriving together in one transaction, not one each', async () => {
    const { ctx } = await teamStore();
    const inbox = teamEventInbox(ctx);
    const ids = Array.from({ length: 40 }, (_, i) => `ev-${i}`);
    const results = await Promise.all(ids.map((id) => inbox.record([event(id)], { delivered: true })));
    expect(results.flat().every((result) => !result.duplicate)).toBe(true);
    expect(inbox.stats.writes).toBe(40);
    expect(inbox.stats.commits).toBeLessThan(inbox.stats.writes);
    expect(inbox.stats.committingMs).toBeGreaterThan(0);
    const { rows } = await ctx.db.read.query('SELECT count(*)::int AS n FROM vetted.events');
    expect(rows).toEqual([{ n: 40 }]);
    await inbox.close();
  });

  it('records a delivery repeated within one group once, the repeat counted as a duplicate', async () => {
    const { ctx } = await teamStore();
    const inbox = teamEventInbox(ctx);
    // Asked for in one turn: one group, in which the group's single statement cannot take the id twice.
    const results = await Promise.all(
      ['ev-a', 'ev-twice', 'ev-twice', 'ev-b'].map((id) => inbox.record([event(id)], { delivered: true })),
    );
    expect(results.map(([r]) => [r?.event.id, r?.duplicate])).toEqual([
      ['ev-a', false],
      ['ev-twice', false],
      ['ev-twice', true],
      ['ev-b', false],
    ]);
    const { rows } = await ctx.db.read.query(
      'SELECT id, duplicates_seen FROM vetted.events ORDER BY id COLLATE "C"',
    );
    expect(rows).toEqual([
      { id: 'ev-a', duplicates_seen: 0 },
      { id: 'ev-b', duplicates_seen: 0 },
      { id: 'ev-twice', duplicates_seen: 1 },
    ]);
    await inbox.close();
  });

  it('writes processed marks and refusals lazily, with the next group or on flush', async () => {
    const time = manualClock();
    const { ctx } = await teamStore(time.clock);
    const inbox = teamEventInbox(ctx);
    await inbox.record([event('ev-1'), event('ev-2')], { delivered: true });
    const before = inbox.stats.commits;
    time.advance(MINUTE);
    // Asked for together with a delivery: all three go in its commit.
    const marked = inbox.markProcessed(['ev-1']);
    const refused = inbox.recordRejection({
      remoteAddress: '10.0.0.9',
      status: 401,
      reason: 'signature-mismatch',
    });
    await inbox.record([event('ev-3')], { delivered: true });
    await Promise.all([marked, refused]);
    expect(inbox.stats.commits).toBe(before + 1);
    const events = teamEventsRepository(ctx);
    expect((await events.unprocessed()).map((e) => e.id)).toEqual(['ev-2', 'ev-3']);
    expect((await events.get('ev-1'))?.processedAt).toBe(time.iso());
    expect(await teamRejectionsRepository(ctx).list()).toMatchObject([{ reason: 'signature-mismatch' }]);

    // Alone, a lazy write is committed by a flush (or shortly).
    const alone = inbox.markProcessed(['ev-2']);
    await inbox.flush();
    await alone;
    expect((await events.unprocessed()).map((e) => e.id)).toEqual(['ev-3']);
    await inbox.close();
  });

  it('writes a group of marks alone in one statement, no BEGIN and COMMIT, each mark at its own time', async () => {
    const time = manualClock();
    const { ctx } = await teamStore(time.clock);
    const inbox = teamEventInbox(ctx);
    await inbox.record([event('ev-1'), event('ev-2'), event('ev-3')], { delivered: true });
    // Every statement sent to the store, on any of the pool's connections.
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    const first = inbox.markProcessed(['ev-1', 'ev-2']);
    const at1 = time.iso();
    time.advance(MINUTE);
    const second = inbox.markProcessed(['ev-3']);
    await inbox.flush();
    await Promise.all([first, second]);
    const statements = sent.mock.calls.map(([sql]) => String(sql).trim().split(/\s+/)[0]);
    expect(statements).toEqual(['UPDATE']);
    sent.mockRestore();
    const events = teamEventsRepository(ctx);
    expect((await events.get('ev-2'))?.processedAt).toBe(at1);
    expect((await events.get('ev-3'))?.processedAt).toBe(time.iso());
    expect(await events.unprocessed()).toEqual([]);
    await inbox.close();
  });

  it('fails only the write that failed when a group holds a bad one', async () => {
    const { ctx } = await teamStore();
    const inbox = teamEventInbox(ctx);
    const bad = { ...event('ev-bad'), resourceId: null } as unknown as InboxEvent;
    const [good, broken] = await Promise.allSettled([
      inbox.record([event('ev-good')], { delivered: true }),
      inbox.record([bad], { delivered: true }),
    ]);
    expect(good).toMatchObject({ status: 'fulfilled', value: [{ event: { id: 'ev-good' } }] });
    expect(broken).toMatchObject({
      status: 'rejected',
      reason: expect.objectContaining({ message: expect.stringMatching(/null value/) }),
    });
    expect(await teamEventsRepository(ctx).get('ev-bad')).toBeUndefined();
    await inbox.close();
  });

  it('hands recorded events to processing behind the answers while deliveries pour in, all at once after', async () => {
    const { ctx } = await teamStore();
    const priority = flood();
    const handed: string[] = [];
    const inbox = teamEventInbox(ctx, {
      priority,
      onRecorded: (events) => handed.push(...events.map((e) => e.event.id)),
    });
    await Promise.all(['ev-1', 'ev-2'].map((id) => inbox.record([event(id)], { delivered: true })));
    // Durable and in the table (answered), not yet processed: the flood goes on.
    expect((await teamEventsRepository(ctx).unprocessed()).map((e) => e.id)).toEqual(['ev-1', 'ev-2']);
    expect(inbox.behind).toBe(2);
    expect(handed).toEqual([]);
    priority.end();
    await until(() => handed.length === 2, 'handed over once quiet');
    expect(handed).toEqual(['ev-1', 'ev-2']);
    expect(inbox.behind).toBe(0);
    // A flush (the receiver's idle, a catch-up) hands over at once, flood or not.
    const second = flood();
    const flushed: string[] = [];
    const other = teamEventInbox(ctx, {
      priority: second,
      onRecorded: (events) => flushed.push(...events.map((e) => e.event.id)),
    });
    await other.record([event('ev-3')], { delivered: true });
    await other.flush();
    expect(flushed).toEqual(['ev-3']);
    await Promise.all([inbox.close(), other.close()]);
  });
});
