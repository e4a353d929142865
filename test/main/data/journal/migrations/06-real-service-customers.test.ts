import { describe, expect, it } from 'vitest';
import type { Db } from '#main/data/journal/db.ts';
import { applyMigration, columnsOf, journalAt, NOT_THE_LOCAL_FILE, names, rows } from './at-version.ts';

/** Version 5's customers: the real service's statuses were in "Other", beside a status no one documents. */
function version5WithCustomers(): Db {
  const db = journalAt(5);
  const insert = db.prepare(`INSERT INTO customers (id, url, name, email, type, status, section, status_since,
    created, last_refreshed, address) VALUES (:id, 'u', :name, :id || '@example.com', 'personal', :status,
    :section, :since, :since, :since, 'sealed-' || :id)`);
  for (const [id, name, status, section, since] of [
    ['k-1', 'Kay Beeay', 'kba', 'other', '2026-01-01T10:00:00.000Z'],
    ['u-1', 'Una Verified', 'unverified', 'other', '2026-01-02T10:00:00.000Z'],
    ['d-1', 'Dee Active', 'deactivated', 'other', '2026-01-03T10:00:00.000Z'],
    ['f-1', 'Fro Zen', 'frozen', 'other', '2026-01-04T10:00:00.000Z'],
    ['r-1', 'Ray Try', 'retry', 'retry', '2026-01-05T10:00:00.000Z'],
  ] as const) {
    insert.run({ id, name, status, section, since });
  }
  db.exec(`INSERT INTO status_history (customer_id, status, at, source) VALUES ('d-1', 'deactivated', 't', 'poll');
    INSERT INTO retries (customer_id, used_at, outcome) VALUES ('r-1', 't', 'retry');`);
  return db;
}

const sectionCounts = (db: Db) =>
  Object.fromEntries(
    rows(db, 'SELECT section, customers FROM section_counts').map((row) => [row.section, row.customers]),
  );

describe.skipIf(NOT_THE_LOCAL_FILE)(
  'journal migration 6: the real service’s statuses and reported fields',
  () => {
    it('moves kba, unverified and deactivated customers out of "Other" into sections of their own, and counts them', () => {
      const db = version5WithCustomers();
      expect(sectionCounts(db)).toMatchObject({ other: 4, retry: 1 });

      applyMigration(db, 6);

      expect(rows(db, 'SELECT id, section FROM customers ORDER BY seq')).toEqual([
        { id: 'k-1', section: 'kba' },
        { id: 'u-1', section: 'unverified' },
        { id: 'd-1', section: 'deactivated' },
        { id: 'f-1', section: 'other' },
        { id: 'r-1', section: 'retry' },
      ]);
      expect(sectionCounts(db)).toEqual({
        retry: 1,
        document: 0,
        review: 0,
        verified: 0,
        suspended: 0,
        other: 1,
        kba: 1,
        unverified: 1,
        deactivated: 1,
      });
      // The wider CHECK takes the new sections, and still refuses any other.
      db.exec(`UPDATE customers SET section = 'kba' WHERE id = 'f-1'`);
      expect(() => db.exec(`UPDATE customers SET section = 'frozen' WHERE id = 'f-1'`)).toThrow(/CHECK/);
    });

    it('rebuilds the customers table keeping every row, its seq (the search index’s key), indexes and triggers', () => {
      const db = version5WithCustomers();
      const before = {
        rows: rows(db, 'SELECT seq, id, name, address FROM customers ORDER BY seq'),
        indexes: names(db, 'index', 'customers'),
        triggers: names(db, 'trigger', 'customers'),
      };

      applyMigration(db, 6);

      expect(rows(db, 'SELECT seq, id, name, address FROM customers ORDER BY seq')).toEqual(before.rows);
      expect(names(db, 'index', 'customers')).toEqual(before.indexes);
      expect(names(db, 'trigger', 'customers')).toEqual(before.triggers);
      const kba = before.rows.find((row) => row.id === 'k-1');
      expect(
        rows(db, "SELECT rowid AS seq FROM customer_search WHERE customer_search MATCH 'beeay'"),
      ).toEqual([{ seq: kba?.seq }]);
      expect(rows(db, 'PRAGMA foreign_key_check')).toEqual([]);
      expect(rows(db, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(rows(db, 'SELECT customer_id FROM retries')).toEqual([{ customer_id: 'r-1' }]);
    });

    it('adds the encrypted column for the fields the service reports, empty for the customers already there', () => {
      const db = version5WithCustomers();
      applyMigration(db, 6);

      expect(columnsOf(db, 'customers')).toContain('reported');
      expect(rows(db, 'SELECT DISTINCT reported FROM customers')).toEqual([{ reported: null }]);
    });
  },
);
