import { describe, expect, it } from 'vitest';
import { JournalError } from '#main/data/journal/errors.ts';
import { KEPT_REJECTIONS } from '#main/data/journal/rejections.ts';
import type { RetriesRepository } from '#main/data/journal/repositories/retries.ts';
import type { Clock } from '#main/data/journal/time.ts';
import { teamRejectionsRepository } from '#main/team/journal/rejections.ts';
import { teamRetriesRepository } from '#main/team/journal/retries.ts';
import { MINUTE, manualClock, openTestJournal, serviceCustomer } from '#test/main/data/journal/helpers.ts';
import { contextOn, insertCustomer, loginRole, teamStore } from './records-context.ts';

// The same cases against the SQLite journal's retries and the team store's: the two must not differ.
const implementations: Array<
  [
    string,
    (clock: Clock) => Promise<{ retries: RetriesRepository; addCustomer(id: string): Promise<unknown> }>,
  ]
> = [
  [
    'SQLite',
    async (clock) => {
      const journal = await openTestJournal({ clock });
      return {
        retries: journal.retries,
        addCustomer: (id) =>
          journal.customers.upsert(serviceCustomer({ id, status: 'retry' }), { source: 'poll' }),
      };
    },
  ],
  [
    'PostgreSQL',
    async (clock) => {
      const { ctx, pool } = await teamStore(clock);
      return { retries: teamRetriesRepository(ctx), addCustomer: (id) => insertCustomer(pool, id) };
    },
  ],
];

describe.each(implementations)('retries on %s', (_name, open) => {
  it('records the one retry as used, keeping when it was used as its outcome becomes known', async () => {
    const time = manualClock();
    const { retries, addCustomer } = await open(time.clock);
    await addCustomer('c-1');
    const used = await retries.record('c-1', null);
    expect(used).toEqual({ customerId: 'c-1', usedAt: time.iso(), outcome: null });
    time.advance(MINUTE);
    expect(await retries.record('c-1', 'verified')).toEqual({ ...used, outcome: 'verified' });
    expect(await retries.list()).toEqual([{ ...used, outcome: 'verified' }]);
    expect(await retries.get('c-1')).toEqual({ ...used, outcome: 'verified' });
    expect(await retries.get('c-2')).toBeUndefined();
    await expect(retries.record('unknown', null)).rejects.toThrow(JournalError);
    await expect(retries.record('unknown', null)).rejects.toThrow('No customer unknown in the journal');
  });

  it('releases a retry the service refused without acting on it: it can be used afresh', async () => {
    const time = manualClock();
    const { retries, addCustomer } = await open(time.clock);
    for (const id of ['c-1', 'c-2']) await addCustomer(id);
    await retries.record('c-1', null);
    await retries.record('c-2', 'verified');
    await retries.release('c-1');
    await retries.release('c-1');
    await retries.release('never-used');
    expect(await retries.get('c-1')).toBeUndefined();
    expect((await retries.list()).map((retry) => retry.customerId)).toEqual(['c-2']);
    time.advance(MINUTE);
    expect(await retries.record('c-1', 'verified')).toEqual({
      customerId: 'c-1',
      usedAt: time.iso(),
      outcome: 'verified',
    });
    expect((await retries.list()).map((retry) => retry.customerId)).toEqual(['c-2', 'c-1']);
  });
});

describe('retries on the team store', () => {
  it('stamps the login that used it and gives each change a new number for the desks', async () => {
    const time = manualClock();
    const { url, pool } = await teamStore(time.clock);
    const grace = await loginRole(url, [
      'INSERT, UPDATE, SELECT ON vetted.retries',
      'SELECT ON vetted.customers',
    ]);
    const { ctx } = contextOn(grace.url, time.clock);
    const retries = teamRetriesRepository(ctx);
    await insertCustomer(pool, 'c-1');
    const seqOf = async () =>
      Number((await pool.query<{ seq: string }>(`SELECT seq FROM vetted.retries`)).rows[0]?.seq);
    await retries.record('c-1', null);
    const first = await seqOf();
    expect(first).toBe(ctx.db.lastChange());
    await retries.record('c-1', 'verified');
    expect(await seqOf()).toBeGreaterThan(first);
    const { rows } = await pool.query<{ actor: string }>('SELECT actor FROM vetted.retries');
    expect(rows).toEqual([{ actor: grace.name }]);
  });

  it('keeps a released retry as a tombstone with a newer change number, for the desks', async () => {
    const { ctx, pool } = await teamStore();
    const retries = teamRetriesRepository(ctx);
    await insertCustomer(pool, 'c-1');
    await retries.record('c-1', null);
    const before = ctx.db.lastChange();
    await retries.release('c-1');
    expect(ctx.db.lastChange()).toBeGreaterThan(before);
    const { rows } = await pool.query<{ seq: string; released: boolean }>(
      'SELECT seq, released FROM vetted.retries',
    );
    expect(rows).toEqual([{ seq: String(ctx.db.lastChange()), released: true }]);
  });
});

describe('the webhook security log on the team store', () => {
  it('records refusals, newest first, and keeps only the newest ones', async () => {
    const time = manualClock();
    const { ctx, pool } = await teamStore(time.clock);
    const rejections = teamRejectionsRepository(ctx);
    await rejections.record({ remoteAddress: '10.0.0.1', status: 401, reason: 'signature-missing' });
    time.advance(MINUTE);
    await rejections.record({
      remoteAddress: '10.0.0.2',
      forwardedFor: '203.0.113.9',
      status: 413,
      reason: 'too-large',
    });
    expect(await rejections.list()).toEqual([
      {
        seq: 2,
        at: time.iso(),
        remoteAddress: '10.0.0.2',
        forwardedFor: '203.0.113.9',
        status: 413,
        reason: 'too-large',
      },
      {
        seq: 1,
        at: '2026-03-01T09:00:00.000Z',
        remoteAddress: '10.0.0.1',
        forwardedFor: null,
        status: 401,
        reason: 'signature-missing',
      },
    ]);
    expect((await rejections.list({ limit: 1, offset: 1 })).map((r) => r.seq)).toEqual([1]);
    expect(await rejections.count()).toBe(2);

    // A flood: the table fills up to the bound, then each new refusal pushes out the oldest.
    await pool.query(
      `INSERT INTO vetted.webhook_rejections (at, remote_address, status, reason)
       SELECT now(), '10.0.0.3', 401, 'signature-mismatch' FROM generate_series(1, $1)`,
      [KEPT_REJECTIONS],
    );
    await rejections.record({ remoteAddress: '10.0.0.4', status: 405, reason: 'method' });
    expect(await rejections.count()).toBe(KEPT_REJECTIONS);
    const [newest] = await rejections.list({ limit: 1 });
    expect(newest).toMatchObject({ seq: KEPT_REJECTIONS + 3, reason: 'method' });
  });
});
