import { describe, expect, it } from 'vitest';
import { committedLater, configure, openDatabase, transaction } from '#main/data/journal/db.ts';
import {
  journalFile,
  MINUTE,
  manualClock,
  openTestJournal,
  serviceCustomer,
  TEAM_JOURNAL,
} from './helpers.ts';

const FULL = 2;
const NORMAL = 1;

function database() {
  const db = openDatabase(journalFile());
  configure(db);
  db.exec('CREATE TABLE t (n INTEGER) STRICT');
  const synchronous = () => (db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;
  const rows = () =>
    db
      .prepare('SELECT n FROM t ORDER BY n')
      .all()
      .map((row) => row.n);
  return { db, synchronous, rows };
}

/** `sync: 'later'` at the connection (customers refreshed, the webhook inbox's groups): the one mechanism. */
// SQLite's own commit modes, on a database of its own: nothing of the team journal's.
describe.skipIf(TEAM_JOURNAL)(
  "committing without waiting for the disk: transaction(db, fn, { sync: 'later' })",
  () => {
    it('commits with synchronous=NORMAL and is back to FULL after, also when the work throws', () => {
      const { db, synchronous, rows } = database();
      const seen = transaction(
        db,
        () => {
          db.exec('INSERT INTO t VALUES (1)');
          return synchronous();
        },
        { sync: 'later' },
      );
      expect(seen).toBe(NORMAL);
      expect(synchronous()).toBe(FULL);
      expect(() =>
        transaction(
          db,
          () => {
            db.exec('INSERT INTO t VALUES (2)');
            throw new Error('undo');
          },
          { sync: 'later' },
        ),
      ).toThrow('undo');
      expect(synchronous()).toBe(FULL);
      expect(rows()).toEqual([1]);
      db.close();
    });

    it('nested in a transaction that waits for the disk, it is a savepoint of it and changes nothing', () => {
      const { db, synchronous, rows } = database();
      const seen = transaction(db, () =>
        transaction(
          db,
          () => {
            db.exec('INSERT INTO t VALUES (1)');
            return synchronous();
          },
          { sync: 'later' },
        ),
      );
      expect(seen).toBe(FULL);
      expect(rows()).toEqual([1]);
      db.close();
    });

    it('holds the relaxed setting over asynchronous work until it settles, resolved or rejected', async () => {
      const { db, synchronous } = database();
      let during = 0;
      await committedLater(db, async () => {
        await Promise.resolve();
        during = synchronous();
      });
      expect(during).toBe(NORMAL);
      expect(synchronous()).toBe(FULL);
      await expect(
        committedLater(db, async () => {
          await Promise.resolve();
          throw new Error('failed');
        }),
      ).rejects.toThrow('failed');
      expect(synchronous()).toBe(FULL);
      db.close();
    });
  },
);

describe('a customer recorded with its personal data in one write', () => {
  it('answers what the journal reads back, new or updated, with or without personal data', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock });
    const personal = {
      address: { address1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701' },
      dateOfBirth: '1980-01-02',
      ssnLastFour: '1234',
    };
    const created = await journal.customers.upsert(
      { ...serviceCustomer({ id: 'c-1', status: 'retry' }), phone: '555-0100' },
      { source: 'created' },
      personal,
    );
    expect(created).toMatchObject({ isNew: true, statusChanged: true });
    expect(created.customer).toEqual(await journal.customers.get('c-1'));
    expect(await journal.customers.personal('c-1')).toEqual(personal);
    expect(await journal.customers.reported('c-1')).toEqual({ phone: '555-0100' });

    time.advance(MINUTE);
    await journal.customers.setDocuments('c-1', { pending: 1, note: 'passport' });
    const refreshed = await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'document' }), {
      source: 'poll',
    });
    expect(refreshed).toMatchObject({ isNew: false, statusChanged: true });
    expect(refreshed.customer).toEqual(await journal.customers.get('c-1'));
    // A refresh without personal data keeps what was stored; the fields the service no longer gives go.
    expect(await journal.customers.personal('c-1')).toEqual(personal);
    expect(await journal.customers.reported('c-1')).toEqual({});
    expect((await journal.customers.history('c-1')).map((change) => change.status)).toEqual([
      'retry',
      'document',
    ]);
  });
});
