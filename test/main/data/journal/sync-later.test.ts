import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openJournal } from '#main/data/journal/index.ts';
import { uncheckedAction } from '#main/data/journal/repositories/audit.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { journalFile } from './helpers.ts';

/** `sync: 'later'` (outbox outcomes): committed like any transaction, only not waited on to reach the disk. */
describe('journal transactions committed without waiting for the disk', () => {
  it('commits, rolls back on a throw, and leaves later transactions synced as before', async () => {
    const file = journalFile();
    const dataKey = createFieldKey();
    const journal = openJournal({ file, dataKey });
    await journal.transaction(
      (tx) => tx.audit.record({ action: uncheckedAction('later.kept'), outcome: 'ok' }),
      {
        sync: 'later',
      },
    );
    await expect(
      journal.transaction(
        async (tx) => {
          await tx.audit.record({ action: uncheckedAction('later.undone'), outcome: 'ok' });
          throw new Error('undo');
        },
        { sync: 'later' },
      ),
    ).rejects.toThrow('undo');
    await journal.transaction((tx) =>
      tx.audit.record({ action: uncheckedAction('now.kept'), outcome: 'ok' }),
    );
    expect((await journal.audit.list()).map((entry) => entry.action)).toEqual(['now.kept', 'later.kept']);
    await journal.close();

    // Read back by another connection after the journal closed: what was committed is in the file.
    const db = new DatabaseSync(file, { readOnly: true });
    const actions = db.prepare('SELECT action FROM audit_log ORDER BY seq').all();
    db.close();
    expect(actions.map((row) => row.action)).toEqual(['later.kept', 'now.kept']);
    const reopened = openJournal({ file, dataKey });
    expect((await reopened.audit.list()).length).toBe(2);
    await reopened.close();
  });
});
