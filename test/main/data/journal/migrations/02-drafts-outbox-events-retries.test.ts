import { describe, expect, it } from 'vitest';
import {
  applyMigration,
  columnsOf,
  indexOf,
  journalAt,
  NOT_THE_LOCAL_FILE,
  names,
  rows,
} from './at-version.ts';

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migration 2: drafts, outbox, events, retries', () => {
  it('adds the four tables and their indexes beside version 1’s rows, which it leaves as they were', () => {
    const db = journalAt(1);
    db.exec(`
      INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed)
      VALUES ('c-1', 'https://api.service.test/customers/c-1', 'Ada Lovelace', 'ada@example.com', 'personal',
        'retry', 'retry', '2026-01-02T10:00:00.000Z', '2026-01-01T10:00:00.000Z', '2026-01-03T10:00:00.000Z');
      INSERT INTO status_history (customer_id, status, at, source) VALUES ('c-1', 'retry', '2026-01-02T10:00:00.000Z', 'created');
      INSERT INTO audit_log (at, action, customer_id, outcome) VALUES ('2026-01-02T10:00:00.000Z', 'customer.create', 'c-1', 'ok');
    `);
    const before = ['customers', 'status_history', 'audit_log'].map((table) =>
      rows(db, `SELECT * FROM ${table}`),
    );

    applyMigration(db, 2);

    expect(names(db, 'table')).toEqual(expect.arrayContaining(['drafts', 'outbox', 'events', 'retries']));
    expect(columnsOf(db, 'outbox')).toEqual(['draft_id', 'idempotency_key', 'key_created_at', 'attempts']);
    expect(indexOf(db, 'drafts_in_queue')).toEqual({
      table: 'drafts',
      columns: ['updated', 'id'],
      unique: false,
      partial: true,
    });
    expect(indexOf(db, 'events_by_received')?.columns).toEqual(['received_at', 'id']);
    expect(indexOf(db, 'events_unprocessed')).toMatchObject({ columns: ['received_at'], partial: true });
    expect(indexOf(db, 'events_by_customer')?.columns).toEqual(['customer_id', 'received_at']);
    expect(
      ['customers', 'status_history', 'audit_log'].map((table) => rows(db, `SELECT * FROM ${table}`)),
    ).toEqual(before);
  });

  it('holds its rows to their rules: known customers and drafts, one key and one event per id, known states', () => {
    const db = journalAt(1);
    db.exec(`INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed)
      VALUES ('c-1', 'u', 'Ada', 'ada@example.com', 'personal', 'retry', 'retry', 't', 't', 't')`);
    applyMigration(db, 2);

    db.exec(`INSERT INTO retries (customer_id, used_at) VALUES ('c-1', '2026-01-04T10:00:00.000Z')`);
    expect(() => db.exec(`INSERT INTO retries (customer_id, used_at) VALUES ('nobody', 't')`)).toThrow(
      /FOREIGN KEY/,
    );
    db.exec(
      `INSERT INTO drafts (id, created, updated, state, name, email, form) VALUES ('d-1', 't', 't', 'queued', 'n', 'e', 'sealed')`,
    );
    expect(() =>
      db.exec(
        `INSERT INTO drafts (id, created, updated, state, name, email, form) VALUES ('d-2', 't', 't', 'lost', 'n', 'e', 'f')`,
      ),
    ).toThrow(/CHECK/);
    db.exec(`INSERT INTO outbox (draft_id, idempotency_key, key_created_at) VALUES ('d-1', 'key-1', 't')`);
    expect(() =>
      db.exec(`INSERT INTO outbox (draft_id, idempotency_key, key_created_at) VALUES ('d-9', 'key-9', 't')`),
    ).toThrow(/FOREIGN KEY/);
    const event = `INSERT INTO events (id, topic, resource_id, created, received_at, signature_verified)
      VALUES ('ev-1', 'customer_created', 'c-1', 't', 't', 1)`;
    db.exec(event);
    expect(() => db.exec(event)).toThrow(/UNIQUE/);
    expect(rows(db, 'SELECT draft_id, attempts FROM outbox')).toEqual([{ draft_id: 'd-1', attempts: 0 }]);
    expect(rows(db, 'SELECT id, duplicates_seen, processed_at FROM events')).toEqual([
      { id: 'ev-1', duplicates_seen: 0, processed_at: null },
    ]);
  });
});
