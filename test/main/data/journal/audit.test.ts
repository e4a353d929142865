import os from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { journalFile, MINUTE, manualClock, openTestJournal, TEAM_JOURNAL } from './helpers.ts';

describe('the audit log', () => {
  it('records what was done, to which customer, when and with what outcome; newest first', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock, actor: 'ada' });
    const first = await journal.audit.record({ action: 'customer.create', customerId: 'c-1', outcome: 'ok' });
    time.advance(MINUTE);
    await journal.audit.record({
      action: 'customer.retry',
      customerId: 'c-2',
      outcome: 'failed',
      detail: 'ServerError',
    });
    time.advance(MINUTE);
    await journal.audit.record({ action: 'settings.change', outcome: 'ok' });

    expect(first).toEqual({
      seq: 1,
      at: '2026-03-01T09:00:00.000Z',
      actor: 'ada',
      action: 'customer.create',
      customerId: 'c-1',
      outcome: 'ok',
      detail: null,
    });
    expect((await journal.audit.list()).map((entry) => entry.action)).toEqual([
      'settings.change',
      'customer.retry',
      'customer.create',
    ]);
    expect(await journal.audit.list({ customerId: 'c-2' })).toEqual([
      {
        seq: 2,
        at: '2026-03-01T09:01:00.000Z',
        actor: 'ada',
        action: 'customer.retry',
        customerId: 'c-2',
        outcome: 'failed',
        detail: 'ServerError',
      },
    ]);
    expect((await journal.audit.list({ limit: 1, offset: 1 })).map((entry) => entry.seq)).toEqual([2]);
  });

  // On the team journal the audit log is PostgreSQL's: test/admin/admin-grants.test.ts and migrations.test.ts.
  it.skipIf(TEAM_JOURNAL)(
    'is append-only: the database itself refuses to change or delete an entry',
    async () => {
      const file = journalFile();
      const journal = await openTestJournal({ file });
      await journal.audit.record({ action: 'customer.create', customerId: 'c-1', outcome: 'ok' });
      const raw = new DatabaseSync(file);
      try {
        expect(() => raw.exec("UPDATE audit_log SET outcome = 'failed'")).toThrow(
          'The audit log is append-only',
        );
        expect(() => raw.exec('DELETE FROM audit_log')).toThrow('The audit log is append-only');
      } finally {
        raw.close();
      }
      expect(await journal.audit.list()).toMatchObject([{ outcome: 'ok' }]);
    },
  );

  it('has no way to change or delete an entry through the journal interface', async () => {
    const journal = await openTestJournal();
    const methods = Object.keys(journal.audit).sort();
    expect(methods).toEqual(['count', 'facets', 'head', 'linked', 'list', 'record']);
    for (const name of methods) expect(name).not.toMatch(/update|delete|remove|purge|clear|set/i);
  });

  // On the team journal the database stamps the login and ignores an `actor` the caller claims (by design:
  // test/main/team/journal/records-audit.test.ts); this test records entries as someone else, so it is the local journal's.
  it.skipIf(TEAM_JOURNAL)(
    'records who did each action (the OS user by default) and filters by person, action, customer and date',
    async () => {
      const time = manualClock();
      const journal = await openTestJournal({ clock: time.clock });
      const me = (await journal.audit.record({ action: 'note.add', customerId: 'c-1', outcome: 'ok' })).actor;
      expect(me).toBe(os.userInfo().username);
      time.advance(MINUTE);
      await journal.audit.record({
        action: 'customer.retry',
        customerId: 'c-2',
        outcome: 'ok',
        actor: 'grace',
      });
      time.advance(MINUTE);
      await journal.audit.record({ action: 'note.add', customerId: 'c-2', outcome: 'ok', actor: 'grace' });

      const seqs = async (filter: Parameters<typeof journal.audit.list>[0]) =>
        (await journal.audit.list(filter)).map((entry) => entry.seq);
      expect(await seqs({ actor: 'grace' })).toEqual([3, 2]);
      expect(await seqs({ action: 'note.add' })).toEqual([3, 1]);
      expect(await seqs({ customerId: 'c-2', action: 'note.add' })).toEqual([3]);
      expect(await seqs({ from: '2026-03-01T09:01:00.000Z', to: '2026-03-01T09:02:00.000Z' })).toEqual([2]);
      expect(await journal.audit.count({ actor: 'grace' })).toBe(2);
      expect(await journal.audit.count()).toBe(3);
      expect(await journal.audit.facets()).toEqual({
        actors: [me, 'grace'].sort(),
        actions: ['customer.retry', 'note.add'],
      });
    },
  );
});
