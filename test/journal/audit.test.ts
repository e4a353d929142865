import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { journalFile, MINUTE, manualClock, openTestJournal } from './helpers.ts';

describe('the audit log', () => {
  it('records what was done, to which customer, when and with what outcome; newest first', async () => {
    const time = manualClock();
    const journal = openTestJournal({ clock: time.clock });
    const first = await journal.audit.record({ action: 'customer.create', customerId: 'c-1', outcome: 'ok' });
    time.advance(MINUTE);
    await journal.audit.record({
      action: 'customer.retry',
      customerId: 'c-2',
      outcome: 'failed',
      detail: 'ServerError',
    });
    time.advance(MINUTE);
    await journal.audit.record({ action: 'settings.update', outcome: 'ok' });

    expect(first).toEqual({
      seq: 1,
      at: '2026-03-01T09:00:00.000Z',
      action: 'customer.create',
      customerId: 'c-1',
      outcome: 'ok',
      detail: null,
    });
    expect((await journal.audit.list()).map((entry) => entry.action)).toEqual([
      'settings.update',
      'customer.retry',
      'customer.create',
    ]);
    expect(await journal.audit.list({ customerId: 'c-2' })).toEqual([
      {
        seq: 2,
        at: '2026-03-01T09:01:00.000Z',
        action: 'customer.retry',
        customerId: 'c-2',
        outcome: 'failed',
        detail: 'ServerError',
      },
    ]);
    expect((await journal.audit.list({ limit: 1, offset: 1 })).map((entry) => entry.seq)).toEqual([2]);
  });

  it('is append-only: the database itself refuses to change or delete an entry', async () => {
    const file = journalFile();
    const journal = openTestJournal({ file });
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
  });
});
