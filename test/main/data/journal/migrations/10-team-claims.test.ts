import { describe, expect, it } from 'vitest';
import type { Db } from '#main/data/journal/db.ts';
import { applyMigration, columnsOf, indexOf, journalAt, NOT_THE_LOCAL_FILE, rows } from './at-version.ts';

/** Version 9 as a team desk left it: a customer copied from the team store, and the replica's state. */
function version9WithRows(): Db {
  const db = journalAt(9);
  db.exec(`
    INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed, team_seq)
    VALUES ('c-1', 'u', 'Ada', 'ada@example.com', 'personal', 'retry', 'retry', 't', 't', 't', 7);
    UPDATE replica_state SET last_seq = 7;
  `);
  return db;
}

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migration 10: the team’s claims', () => {
  it('adds an empty claims table, one row per case, leaving the replica where it was', () => {
    const db = version9WithRows();
    applyMigration(db, 10);

    expect(columnsOf(db, 'claims')).toEqual([
      'customer_id',
      'holder',
      'since',
      'how',
      'changed_by',
      'changed_at',
      'note',
      'team_seq',
    ]);
    expect(rows(db, 'SELECT * FROM claims')).toEqual([]);
    expect(rows(db, 'SELECT last_seq FROM replica_state')).toEqual([{ last_seq: 7 }]);
    const claim = `INSERT INTO claims (customer_id, holder, since, how, changed_by, changed_at, team_seq)
      VALUES ('c-1', 'ana', 't', 'take', 'ana', 't', 8)`;
    db.exec(claim);
    expect(() => db.exec(claim)).toThrow(/UNIQUE|PRIMARY KEY/);
  });

  it('keeps a holder and the time they took it together, and finds a holder’s cases and a section’s open cases by index', () => {
    const db = version9WithRows();
    applyMigration(db, 10);

    expect(() =>
      db.exec(`INSERT INTO claims (customer_id, holder, since, how, changed_by, changed_at, team_seq)
        VALUES ('c-1', 'ana', NULL, 'take', 'ana', 't', 8)`),
    ).toThrow(/CHECK/);
    db.exec(`INSERT INTO claims (customer_id, holder, since, how, changed_by, changed_at, team_seq)
      VALUES ('c-1', NULL, NULL, 'release', 'ana', 't', 9)`);
    expect(indexOf(db, 'claims_by_holder')).toEqual({
      table: 'claims',
      columns: ['holder', 'customer_id'],
      unique: false,
      partial: true,
    });
    expect(indexOf(db, 'customers_open_by_section')).toEqual({
      table: 'customers',
      columns: ['section', 'status_since'],
      unique: false,
      partial: true,
    });
  });
});
