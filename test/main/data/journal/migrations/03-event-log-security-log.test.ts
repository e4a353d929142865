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

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migration 3: event log by topic, webhook security log', () => {
  it('indexes the events version 2 recorded by topic, and the event log’s topic filter uses it', () => {
    const db = journalAt(2);
    db.exec(`INSERT INTO events (id, topic, resource_id, customer_id, created, received_at, signature_verified)
      VALUES ('ev-1', 'customer_created', 'c-1', 'c-1', '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:01.000Z', 1),
             ('ev-2', 'customer_verified', 'c-1', 'c-1', '2026-01-02T10:00:00.000Z', '2026-01-02T10:00:01.000Z', 0)`);
    const before = rows(db, 'SELECT * FROM events ORDER BY id');

    applyMigration(db, 3);

    expect(indexOf(db, 'events_by_topic')).toEqual({
      table: 'events',
      columns: ['topic', 'received_at'],
      unique: false,
      partial: false,
    });
    expect(
      plan(db, "SELECT * FROM events WHERE topic = 'customer_verified' ORDER BY received_at DESC"),
    ).toMatch(/events_by_topic/);
    expect(rows(db, 'SELECT * FROM events ORDER BY id')).toEqual(before);
  });

  it('adds the security log: who was refused, when and why, never a body', () => {
    const db = journalAt(2);
    applyMigration(db, 3);

    expect(columnsOf(db, 'webhook_rejections')).toEqual([
      'seq',
      'at',
      'remote_address',
      'forwarded_for',
      'status',
      'reason',
    ]);
    db.exec(`INSERT INTO webhook_rejections (at, remote_address, status, reason)
      VALUES ('2026-01-01T10:00:00.000Z', '203.0.113.9', 401, 'signature-mismatch')`);
    expect(rows(db, 'SELECT seq, forwarded_for, status FROM webhook_rejections')).toEqual([
      { seq: 1, forwarded_for: null, status: 401 },
    ]);
    // STRICT: a status is a number, and there is always a reason.
    expect(() =>
      db.exec(
        `INSERT INTO webhook_rejections (at, remote_address, status, reason) VALUES ('t', 'a', 'oops', 'r')`,
      ),
    ).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(() =>
      db.exec(`INSERT INTO webhook_rejections (at, remote_address, status) VALUES ('t', 'a', 401)`),
    ).toThrow(/NOT NULL/);
  });
});
