import { describe, expect, it } from 'vitest';
import type { Db } from '#main/data/journal/db.ts';
import { applyMigration, indexOf, journalAt, NOT_THE_LOCAL_FILE, rows } from './at-version.ts';

/** Version 6's customers: two waiting in the same hour, one gone since, one waiting since another day. */
function version6WithCustomers(): Db {
  const db = journalAt(6);
  const insert = db.prepare(`INSERT INTO customers (id, url, name, email, type, status, section, status_since,
    created, last_refreshed, gone_at) VALUES (:id, 'u', :id, :id || '@example.com', 'personal', :section, :section,
    :since, :since, :since, :gone)`);
  const customers = [
    { id: 'a', section: 'review', since: '2026-01-01T10:15:00.000Z', gone: null },
    { id: 'b', section: 'review', since: '2026-01-01T10:45:00.000Z', gone: '2026-01-03T09:00:00.000Z' },
    { id: 'c', section: 'retry', since: '2026-01-02T08:00:00.000Z', gone: null },
  ];
  for (const customer of customers) insert.run(customer);
  return db;
}

const counts = (db: Db, table: 'queue_days' | 'queue_hours') =>
  rows(db, `SELECT * FROM ${table} WHERE n <> 0 ORDER BY 1, 2`).map((row) => Object.values(row).join(' '));

describe.skipIf(NOT_THE_LOCAL_FILE)(
  'journal migration 7: queue orders, their indexes, counts by day and hour',
  () => {
    it('sets each customer’s last change from its own times: the later of waiting since and gone', () => {
      const db = version6WithCustomers();
      applyMigration(db, 7);

      expect(rows(db, 'SELECT id, changed_at FROM customers ORDER BY id')).toEqual([
        { id: 'a', changed_at: '2026-01-01T10:15:00.000Z' },
        { id: 'b', changed_at: '2026-01-03T09:00:00.000Z' },
        { id: 'c', changed_at: '2026-01-02T08:00:00.000Z' },
      ]);
      // From now on the triggers keep it: a new customer's is its waiting since; a change the queue shows moves it.
      db.exec(`INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed)
      VALUES ('d', 'u', 'd', 'd@example.com', 'personal', 'retry', 'retry', '2026-01-04T10:00:00.000Z', 't', 't')`);
      db.exec(`UPDATE customers SET status = 'verified', section = 'verified', last_refreshed = '2026-01-05T12:00:00.000Z'
      WHERE id = 'a'`);
      db.exec(`UPDATE customers SET last_refreshed = '2026-01-06T12:00:00.000Z' WHERE id = 'c'`);
      expect(
        rows(db, "SELECT id, changed_at FROM customers WHERE id IN ('a', 'c', 'd') ORDER BY id"),
      ).toEqual([
        { id: 'a', changed_at: '2026-01-05T12:00:00.000Z' },
        { id: 'c', changed_at: '2026-01-02T08:00:00.000Z' },
        { id: 'd', changed_at: '2026-01-04T10:00:00.000Z' },
      ]);
    });

    it('counts the customers already there per section (and "*") in each day and hour, and keeps counting', () => {
      const db = version6WithCustomers();
      applyMigration(db, 7);

      expect(counts(db, 'queue_days')).toEqual([
        '* 2026-01-01 2',
        '* 2026-01-02 1',
        'retry 2026-01-02 1',
        'review 2026-01-01 2',
      ]);
      expect(counts(db, 'queue_hours')).toEqual([
        '* 2026-01-01T10 2',
        '* 2026-01-02T08 1',
        'retry 2026-01-02T08 1',
        'review 2026-01-01T10 2',
      ]);
      db.exec(
        `UPDATE customers SET status_since = '2026-01-02T08:30:00.000Z', section = 'retry' WHERE id = 'b'`,
      );
      db.exec(`DELETE FROM customers WHERE id = 'a'`);
      expect(counts(db, 'queue_hours')).toEqual(['* 2026-01-02T08 2', 'retry 2026-01-02T08 2']);
    });

    it('indexes every order, per section and overall, with the name and e-mail a search tests', () => {
      const db = version6WithCustomers();
      applyMigration(db, 7);

      const columns = (index: string) => indexOf(db, index)?.columns;
      expect(columns('customers_by_section')).toEqual(['section', 'status_since', 'id', 'name', 'email']);
      expect(columns('customers_by_waiting')).toEqual(['status_since', 'id', 'name', 'email']);
      expect(columns('customers_by_section_change')).toEqual([
        'section',
        'changed_at',
        'id',
        'name',
        'email',
      ]);
      expect(columns('customers_by_change')).toEqual(['changed_at', 'id', 'name', 'email']);
      expect(columns('customers_by_section_name')).toEqual(['section', 'name', 'id', 'email']);
      expect(columns('customers_by_name')).toEqual(['name', 'id', 'email']);
    });
  },
);
