import { describe, expect, it } from 'vitest';
import type { Db } from '#main/data/journal/db.ts';
import { applyMigration, columnsOf, indexOf, journalAt, NOT_THE_LOCAL_FILE, rows } from './at-version.ts';

/** Version 7 as solo mode wrote it: a customer with its history, a note and its retry. */
function version7WithRows(): Db {
  const db = journalAt(7);
  db.exec(`
    INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed)
    VALUES ('c-1', 'u', 'Ada', 'ada@example.com', 'personal', 'retry', 'retry', 't', 't', 't');
    INSERT INTO status_history (customer_id, status, at, source) VALUES ('c-1', 'retry', 't', 'created');
    INSERT INTO notes (customer_id, at, author, body) VALUES ('c-1', 't', 'ada', 'sealed');
    INSERT INTO retries (customer_id, used_at, outcome) VALUES ('c-1', 't', NULL);
  `);
  return db;
}

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migration 8: the team replica', () => {
  it('gives the replicated tables a change number, none for the rows solo mode wrote, and retries a tombstone', () => {
    const db = version7WithRows();
    applyMigration(db, 8);

    for (const table of ['customers', 'status_history', 'notes', 'retries']) {
      expect(columnsOf(db, table)).toContain('team_seq');
      expect(rows(db, `SELECT team_seq FROM ${table}`)).toEqual([{ team_seq: null }]);
    }
    expect(rows(db, 'SELECT customer_id, released FROM retries')).toEqual([
      { customer_id: 'c-1', released: 0 },
    ]);
    expect(() => db.exec('UPDATE retries SET released = 2')).toThrow(/CHECK/);
  });

  it('lets a history row or a note of one change be copied only once', () => {
    const db = version7WithRows();
    applyMigration(db, 8);

    expect(indexOf(db, 'status_history_by_team_seq')).toEqual({
      table: 'status_history',
      columns: ['team_seq'],
      unique: true,
      partial: true,
    });
    expect(indexOf(db, 'notes_by_team_seq')).toMatchObject({
      columns: ['team_seq'],
      unique: true,
      partial: true,
    });
    const history = `INSERT INTO status_history (customer_id, status, at, source, team_seq)
      VALUES ('c-1', 'verified', 't', 'event', 41)`;
    db.exec(history);
    expect(() => db.exec(history)).toThrow(/UNIQUE/);
    const note = `INSERT INTO notes (customer_id, at, author, body, team_seq) VALUES ('c-1', 't', 'bo', 'x', 42)`;
    db.exec(note);
    expect(() => db.exec(note)).toThrow(/UNIQUE/);
    // Solo mode's rows have none, as many as it writes.
    db.exec(`INSERT INTO notes (customer_id, at, author, body) VALUES ('c-1', 't', 'ada', 'again')`);
    expect(rows(db, 'SELECT count(*) AS n FROM notes WHERE team_seq IS NULL')).toEqual([{ n: 2 }]);
  });

  it('starts the replica’s state at change 0, one row that never goes negative', () => {
    const db = version7WithRows();
    applyMigration(db, 8);

    expect(rows(db, 'SELECT * FROM replica_state')).toEqual([{ one: 1, last_seq: 0 }]);
    expect(() => db.exec('INSERT INTO replica_state (one, last_seq) VALUES (2, 5)')).toThrow(/CHECK/);
    expect(() => db.exec('UPDATE replica_state SET last_seq = -1')).toThrow(/CHECK/);
  });
});
