// The journal and today's real service: its extra customer fields kept encrypted, its statuses in sections of
// their own, and a journal written before them brought along.
import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { configure, openDatabase } from '#main/data/journal/db.ts';
import { MIGRATIONS } from '#main/data/journal/migrations/index.ts';
import { migrate } from '#main/data/journal/migrations/runner.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { ODD_STATUSES } from '#test/support/odd-statuses.ts';
import { journalFile, openTestJournal, serviceCustomer, TEAM_JOURNAL, WITHOUT_REPLICA } from './helpers.ts';

// Distinctive values: finding one in the file's bytes can only mean it was written in clear.
const REPORTED = {
  address1: '1600 Zebulon Quarry Road',
  address2: 'Suite Xylophone-9',
  city: 'Quixoteville',
  state: 'NM',
  postalCode: '87123-4567',
  phone: '5058675309',
  correlationId: 'corr-Wombat-7731',
  businessName: 'Gryphon Quills LLC',
  // Unknown to Vetted, and not a string: kept as it came.
  favouriteBirds: { first: 'Ptarmigan-Ozymandias' },
};

const CLEAR_STRINGS = [
  REPORTED.address1,
  REPORTED.address2,
  REPORTED.city,
  REPORTED.postalCode,
  REPORTED.phone,
  REPORTED.correlationId,
  REPORTED.businessName,
  REPORTED.favouriteBirds.first,
];

function clearStringsIn(file: string): string[] {
  const bytes = Buffer.concat(
    [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)),
  );
  return CLEAR_STRINGS.filter((value) => bytes.includes(Buffer.from(value, 'utf8')));
}

describe('customers as the real service returns them', () => {
  it('keeps every field beyond the interface document’s, encrypted, and forgets those it no longer gives', async () => {
    const file = journalFile();
    const journal = await openTestJournal({ file });
    await journal.customers.upsert(serviceCustomer({ id: 'c-1', ...REPORTED }), { source: 'poll' });
    expect(await journal.customers.reported('c-1')).toEqual(REPORTED);
    expect(await journal.customers.get('c-1')).toMatchObject({ status: 'verified', name: 'Jane Doe' });
    expect(clearStringsIn(file)).toEqual([]);

    await journal.customers.upsert(serviceCustomer({ id: 'c-1', phone: '5550001111' }), { source: 'poll' });
    expect(await journal.customers.reported('c-1')).toEqual({ phone: '5550001111' });
    await journal.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'poll' });
    expect(await journal.customers.reported('c-1')).toEqual({});
    expect(await journal.customers.reported('unknown')).toEqual({});
  });

  // Moves a token in the local file: the team store's own binding is in test/main/team/journal/journal-plaintext.test.ts.
  it.skipIf(TEAM_JOURNAL)(
    'does not open another row’s reported fields: the token is bound to its row',
    async () => {
      const file = journalFile();
      const journal = await openTestJournal({ file });
      await journal.customers.upsert(serviceCustomer({ id: 'c-1', ...REPORTED }), { source: 'poll' });
      await journal.customers.upsert(serviceCustomer({ id: 'c-2', phone: '5551234567' }), { source: 'poll' });
      await journal.close();
      const db = new DatabaseSync(file);
      db.exec(
        "UPDATE customers SET reported = (SELECT reported FROM customers WHERE id = 'c-1') WHERE id = 'c-2'",
      );
      db.close();
      const again = await openTestJournal({ file });
      await expect(again.customers.reported('c-2')).rejects.toThrow(
        /Cannot decrypt reported of customers c-2/,
      );
    },
  );
});

describe('statuses no service documents', () => {
  it.skipIf(WITHOUT_REPLICA)(
    'are kept by name in "Other", counted, found and listed, whatever they are called',
    async () => {
      const journal = await openTestJournal();
      for (const [i, status] of ODD_STATUSES.entries()) {
        const { customer } = await journal.customers.upsert(serviceCustomer({ id: `odd-${i}`, status }), {
          source: 'event',
        });
        expect(customer.status).toBe(status);
        expect(customer.section).toBe('other');
      }
      const other = await journal.queue.window({ section: 'other', search: '', offset: 0, limit: 100 });
      expect(other.total).toBe(ODD_STATUSES.length);
      expect(other.rows.map((row) => row.status).sort()).toEqual([...ODD_STATUSES].sort());
      // Then the service says `kba` for one: it moves to its section, and the counts follow.
      await journal.customers.upsert(serviceCustomer({ id: 'odd-0', status: 'kba' }), { source: 'event' });
      const after = await journal.queue.window({ section: 'kba', search: '', offset: 0, limit: 10 });
      expect(after.rows.map((row) => row.id)).toEqual(['odd-0']);
      expect(after.counts.other).toBe(ODD_STATUSES.length - 1);
    },
  );
});

/** A journal as schema 4 left it, with customers of the real service's statuses in "Other". */
function writeVersion4Journal(file: string): void {
  const db = openDatabase(file);
  configure(db);
  migrate(db, MIGRATIONS.slice(0, 4));
  // Another migration may have run first (merged in either order): its column, index and trigger survive.
  db.exec(`ALTER TABLE customers ADD COLUMN touched TEXT NOT NULL DEFAULT '';
    CREATE INDEX customers_by_touched ON customers (touched, id);
    CREATE TRIGGER customers_touch AFTER UPDATE OF section ON customers BEGIN
      UPDATE customers SET touched = 'moved to ' || new.section WHERE seq = new.seq;
    END;`);
  const insert = db.prepare(`INSERT INTO customers (id, url, name, email, type, status, section, status_since,
    created, last_refreshed, links, address) VALUES (:id, 'https://api.service.test/customers/' || :id, :name,
    :id || '@example.com', 'personal', :status, :section, :since, :since, :since, '{}', :address)`);
  const rows = [
    ['k-1', 'Kay Beeay', 'kba', 'other', '2026-01-01T10:00:00.000Z'],
    ['d-1', 'Dee Active', 'deactivated', 'other', '2026-01-02T10:00:00.000Z'],
    ['u-1', 'Una Verified', 'unverified', 'other', '2026-01-03T10:00:00.000Z'],
    ['f-1', 'Fro Zen', 'frozen', 'other', '2026-01-04T10:00:00.000Z'],
    ['r-1', 'Ray Try', 'retry', 'retry', '2026-01-05T10:00:00.000Z'],
  ] as const;
  for (const [id, name, status, section, since] of rows) {
    insert.run({ id, name, status, section, since, address: `sealed-token-of-${id}` });
    db.prepare(
      "INSERT INTO status_history (customer_id, status, at, source) VALUES (:id, :status, :since, 'poll')",
    ).run({ id, status, since });
  }
  db.exec(
    `INSERT INTO retries (customer_id, used_at, outcome) VALUES ('r-1', '2026-01-06T10:00:00.000Z', 'retry')`,
  );
  db.close();
}

// The local journal's own migration.
describe.skipIf(TEAM_JOURNAL)('migration 5: the real service’s statuses', () => {
  it('moves kba, unverified and deactivated customers out of "Other", keeping every row, link and count', async () => {
    const file = journalFile();
    writeVersion4Journal(file);
    const journal = await openTestJournal({ file, dataKey: createFieldKey() });
    const { counts } = await journal.queue.window({ section: 'all', search: '', offset: 0, limit: 10 });
    expect(counts).toMatchObject({ kba: 1, deactivated: 1, unverified: 1, other: 1, retry: 1 });
    expect((await journal.customers.get('k-1'))?.section).toBe('kba');
    expect((await journal.customers.get('f-1'))?.section).toBe('other');
    expect(await journal.customers.history('d-1')).toMatchObject([{ status: 'deactivated' }]);
    expect(await journal.retries.get('r-1')).toMatchObject({ outcome: 'retry' });
    // The search index still points at the right rows.
    const found = await journal.queue.window({ section: 'all', search: 'beeay', offset: 0, limit: 10 });
    expect(found.rows.map((row) => row.id)).toEqual(['k-1']);
    await journal.close();

    const db = new DatabaseSync(file, { readOnly: true });
    try {
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      // Encrypted columns came along untouched.
      expect(db.prepare("SELECT address FROM customers WHERE id = 'u-1'").get()).toEqual({
        address: 'sealed-token-of-u-1',
      });
      expect(db.prepare("SELECT touched FROM customers WHERE id = 'k-1'").get()).toEqual({
        touched: 'moved to kba',
      });
      expect(
        db
          .prepare("SELECT name FROM sqlite_schema WHERE name IN ('customers_by_touched', 'customers_touch')")
          .all(),
      ).toHaveLength(2);
      const sections = db.prepare('SELECT section, customers FROM section_counts ORDER BY section').all();
      expect(sections).toContainEqual({ section: 'other', customers: 1 });
    } finally {
      db.close();
    }
  });
});
