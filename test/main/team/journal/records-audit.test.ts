import { describe, expect, it } from 'vitest';
import { teamAuditRepository } from '#main/team/journal/audit.ts';
import { MINUTE, manualClock } from '#test/main/data/journal/helpers.ts';
import { contextOn, loginRole, teamStore } from './records-context.ts';

describe('the audit log on the team store', () => {
  it('records what was done, to which customer, when and with what outcome; newest first', async () => {
    const time = manualClock();
    const { ctx, pool } = await teamStore(time.clock);
    const audit = teamAuditRepository(ctx);
    const login = (await pool.query<{ me: string }>('SELECT session_user AS me')).rows[0]?.me;
    const first = await audit.record({ action: 'customer.create', customerId: 'c-1', outcome: 'ok' });
    time.advance(MINUTE);
    await audit.record({
      action: 'customer.retry',
      customerId: 'c-2',
      outcome: 'failed',
      detail: 'ServerError',
    });
    time.advance(MINUTE);
    await audit.record({ action: 'settings.change', outcome: 'ok' });

    expect(first).toEqual({
      seq: 1,
      at: '2026-03-01T09:00:00.000Z',
      actor: login,
      action: 'customer.create',
      customerId: 'c-1',
      outcome: 'ok',
      detail: null,
    });
    expect((await audit.list()).map((entry) => entry.action)).toEqual([
      'settings.change',
      'customer.retry',
      'customer.create',
    ]);
    expect(await audit.list({ customerId: 'c-2' })).toEqual([
      {
        seq: 2,
        at: '2026-03-01T09:01:00.000Z',
        actor: login,
        action: 'customer.retry',
        customerId: 'c-2',
        outcome: 'failed',
        detail: 'ServerError',
      },
    ]);
    expect((await audit.list({ limit: 1, offset: 1 })).map((entry) => entry.seq)).toEqual([2]);
  });

  it('has no way to change or delete an entry through the repository', async () => {
    const audit = teamAuditRepository((await teamStore()).ctx);
    const methods = Object.keys(audit).sort();
    expect(methods).toEqual(['count', 'facets', 'head', 'linked', 'list', 'record']);
  });

  it('takes who did it from the database login, whatever the caller claims; filters by person, action, customer, date', async () => {
    const time = manualClock();
    const { url, ctx: adminCtx } = await teamStore(time.clock);
    const grace = await loginRole(url, [
      'INSERT, SELECT ON vetted.audit_log',
      'EXECUTE ON FUNCTION vetted.audit_chain_head()',
    ]);
    const admin = teamAuditRepository(adminCtx);
    const asGrace = teamAuditRepository(contextOn(grace.url, time.clock).ctx);

    const me = (await admin.record({ action: 'note.add', customerId: 'c-1', outcome: 'ok' })).actor;
    time.advance(MINUTE);
    const claimed = await asGrace.record({
      action: 'customer.retry',
      customerId: 'c-2',
      outcome: 'ok',
      actor: me,
    });
    expect(claimed.actor).toBe(grace.name);
    time.advance(MINUTE);
    await asGrace.record({ action: 'note.add', customerId: 'c-2', outcome: 'ok', actor: 'someone-else' });

    const seqs = async (filter: Parameters<typeof admin.list>[0]) =>
      (await admin.list(filter)).map((entry) => entry.seq);
    expect(await seqs({ actor: grace.name })).toEqual([3, 2]);
    expect(await seqs({ actor: 'someone-else' })).toEqual([]);
    expect(await seqs({ action: 'note.add' })).toEqual([3, 1]);
    expect(await seqs({ customerId: 'c-2', action: 'note.add' })).toEqual([3]);
    expect(await seqs({ from: '2026-03-01T09:01:00.000Z', to: '2026-03-01T09:02:00.000Z' })).toEqual([2]);
    expect(await admin.count({ actor: grace.name })).toBe(2);
    expect(await admin.count()).toBe(3);
    expect(await asGrace.count({ from: '2026-03-01T09:01:00.000Z' })).toBe(2);
    expect(await admin.facets()).toEqual({
      actors: [me, grace.name].sort(),
      actions: ['customer.retry', 'note.add'],
    });
  });
});
