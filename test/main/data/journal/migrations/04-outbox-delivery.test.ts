import { describe, expect, it } from 'vitest';
import {
  applyMigration,
  columnsOf,
  indexOf,
  journalAt,
  NOT_THE_LOCAL_FILE,
  plan,
  rows,
} from './at-version.ts';

/** Version 3's drafts: one queued with an outbox key tried twice, one created (linked to its customer). */
function version3WithDrafts() {
  const db = journalAt(3);
  db.exec(`
    INSERT INTO drafts (id, created, updated, state, name, email, form, customer_id, attempts, next_attempt_at)
    VALUES ('d-queued', 't1', 't1', 'queued', 'Ada', 'ada@example.com', 'sealed', NULL, 2, '2026-01-01T10:05:00.000Z'),
           ('d-created', 't0', 't2', 'created', 'Bob', 'bob@example.com', 'sealed', 'c-9', 1, NULL);
    INSERT INTO outbox (draft_id, idempotency_key, key_created_at, attempts)
    VALUES ('d-queued', 'key-1', '2026-01-01T10:00:00.000Z', 2);
  `);
  return db;
}

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migration 4: outbox delivery', () => {
  it('gives each outbox key an uncertain-send flag (off for the keys already there) and a duplicate', () => {
    const db = version3WithDrafts();
    applyMigration(db, 4);

    expect(columnsOf(db, 'outbox')).toEqual([
      'draft_id',
      'idempotency_key',
      'key_created_at',
      'attempts',
      'maybe_created',
      'duplicate_of',
    ]);
    expect(rows(db, 'SELECT * FROM outbox')).toEqual([
      {
        draft_id: 'd-queued',
        idempotency_key: 'key-1',
        key_created_at: '2026-01-01T10:00:00.000Z',
        attempts: 2,
        maybe_created: 0,
        duplicate_of: null,
      },
    ]);
    db.exec("UPDATE outbox SET maybe_created = 1, duplicate_of = 'c-7'");
    expect(() => db.exec('UPDATE outbox SET maybe_created = 2')).toThrow(/CHECK/);
  });

  it('indexes the queued drafts by when they are due, and drafts by the customer they made', () => {
    const db = version3WithDrafts();
    applyMigration(db, 4);

    expect(indexOf(db, 'drafts_due')).toEqual({
      table: 'drafts',
      columns: ['next_attempt_at', 'updated', 'id'],
      unique: false,
      partial: true,
    });
    expect(indexOf(db, 'drafts_by_customer')).toMatchObject({ columns: ['customer_id'], partial: true });
    expect(
      plan(db, "SELECT id FROM drafts WHERE state = 'queued' ORDER BY next_attempt_at, updated, id"),
    ).toMatch(/drafts_due/);
    expect(plan(db, "SELECT id FROM drafts WHERE customer_id = 'c-9'")).toMatch(/drafts_by_customer/);
    expect(rows(db, "SELECT id FROM drafts WHERE customer_id = 'c-9'")).toEqual([{ id: 'd-created' }]);
  });
});
