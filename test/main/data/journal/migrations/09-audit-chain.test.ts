import { describe, expect, it } from 'vitest';
import { type LinkedAuditRow, toLinkedEntry } from '#main/data/journal/audit.ts';
import { auditSealer, GENESIS_HASH } from '#main/data/journal/audit-chain.ts';
import { AuditChainError, chainChecker } from '#main/data/journal/audit-verify.ts';
import type { Db } from '#main/data/journal/db.ts';
import { MIGRATIONS } from '#main/data/journal/migrations/index.ts';
import { migrate, schemaVersion } from '#main/data/journal/migrations/runner.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { columnsOf, journalAt, NOT_THE_LOCAL_FILE, names, rows } from './at-version.ts';

const AT = '2026-05-04T08:00:00.000Z';

/** Version 8's audit log as solo mode wrote it: one entry before actors were recorded, then two with one. */
function version8WithEntries(): Db {
  const db = journalAt(8);
  db.exec(`
    INSERT INTO audit_log (seq, at, action, customer_id, outcome, detail, actor) VALUES
      (1, '2026-01-01T10:00:00.000Z', 'customer.create', 'c-1', 'ok', NULL, ''),
      (3, '2026-01-02T10:00:00.000Z', 'note.add', 'c-1', 'ok', 'note 1', 'ada'),
      (4, '2026-01-03T10:00:00.000Z', 'personal.reveal', 'c-1', 'ok', 'Reason: a call', 'ada');`);
  return db;
}

function apply9(db: Db, context: Parameters<typeof migrate>[2]) {
  migrate(db, MIGRATIONS.slice(0, 9), context);
  expect(schemaVersion(db)).toBe(9);
}

const linked = (db: Db) =>
  (rows(db, 'SELECT * FROM audit_log ORDER BY seq') as unknown as LinkedAuditRow[]).map(toLinkedEntry);

function check(db: Db, dataKey: Buffer) {
  const checker = chainChecker({ sealer: auditSealer(dataKey), whole: true });
  for (const entry of linked(db)) checker.add(entry);
  const head = rows(db, 'SELECT seq, chain_hash FROM audit_head')[0]!;
  return checker.finish({ seq: Number(head.seq), chainHash: String(head.chain_hash) });
}

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migration 9: the audit log as a sealed hash chain', () => {
  it('chains the entries there were as they stood, sealed with the data key, and records that the chain began', () => {
    const db = version8WithEntries();
    const dataKey = createFieldKey();
    apply9(db, { dataKey, actor: 'ada', clock: () => new Date(AT) });

    expect(
      rows(db, 'SELECT seq, at, actor, action, customer_id, outcome, detail FROM audit_log ORDER BY seq'),
    ).toEqual([
      {
        seq: 1,
        at: '2026-01-01T10:00:00.000Z',
        actor: '',
        action: 'customer.create',
        customer_id: 'c-1',
        outcome: 'ok',
        detail: null,
      },
      {
        seq: 3,
        at: '2026-01-02T10:00:00.000Z',
        actor: 'ada',
        action: 'note.add',
        customer_id: 'c-1',
        outcome: 'ok',
        detail: 'note 1',
      },
      {
        seq: 4,
        at: '2026-01-03T10:00:00.000Z',
        actor: 'ada',
        action: 'personal.reveal',
        customer_id: 'c-1',
        outcome: 'ok',
        detail: 'Reason: a call',
      },
      {
        seq: 5,
        at: AT,
        actor: 'ada',
        action: 'audit.chain',
        customer_id: null,
        outcome: 'ok',
        detail: 'The audit chain begins: the 3 entries before this one were chained as they stood.',
      },
    ]);
    expect(columnsOf(db, 'audit_log')).toEqual(
      expect.arrayContaining(['hash_version', 'prev_hash', 'content_hash', 'chain_hash', 'seal']),
    );
    expect(check(db, dataKey)).toMatchObject({ entries: 4, last: { seq: 5 } });
    expect(() => check(db, createFieldKey())).toThrow(AuditChainError);
  });

  it('keeps the log append-only and its indexes, and lets an entry in only after the head', () => {
    const db = version8WithEntries();
    apply9(db, { dataKey: createFieldKey() });

    expect(names(db, 'index', 'audit_log')).toEqual([
      'audit_log_by_action',
      'audit_log_by_actor',
      'audit_log_by_customer',
    ]);
    expect(names(db, 'trigger', 'audit_log')).toEqual([
      'audit_log_advance',
      'audit_log_link',
      'audit_log_no_delete',
      'audit_log_no_update',
    ]);
    expect(() => db.exec(`UPDATE audit_log SET outcome = 'failed' WHERE seq = 1`)).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM audit_log')).toThrow(/append-only/);
    const head = rows(db, 'SELECT seq, chain_hash FROM audit_head')[0]!;
    expect(head.seq).toBe(5);
    const insert = (seq: number, prev: string) =>
      db
        .prepare(
          `INSERT INTO audit_log (seq, at, action, outcome, hash_version, prev_hash, content_hash, chain_hash, seal)
           VALUES (?, 't', 'a', 'ok', 1, ?, ?, ?, ?)`,
        )
        .run(seq, prev, GENESIS_HASH, GENESIS_HASH, GENESIS_HASH);
    expect(() => insert(5, String(head.chain_hash))).toThrow(/must follow the chain's head/);
    expect(() => insert(6, GENESIS_HASH)).toThrow(/must follow the chain's head/);
    insert(6, String(head.chain_hash));
    expect(rows(db, 'SELECT seq, chain_hash FROM audit_head')).toEqual([
      { seq: 6, chain_hash: GENESIS_HASH },
    ]);
    expect(() => db.exec(`UPDATE audit_head SET one = 2`)).toThrow(/CHECK/);
  });

  it('starts an empty log at the zero hash, with no entry of its own and no key needed', () => {
    const db = journalAt(8);
    apply9(db, {});
    expect(rows(db, 'SELECT count(*) AS n FROM audit_log')).toEqual([{ n: 0 }]);
    expect(rows(db, 'SELECT one, seq, chain_hash FROM audit_head')).toEqual([
      { one: 1, seq: 0, chain_hash: GENESIS_HASH },
    ]);
  });

  it('refuses to chain entries without the data key to seal them, leaving the journal at version 8', () => {
    const db = version8WithEntries();
    expect(() => migrate(db, MIGRATIONS.slice(0, 9), {})).toThrow(/needs the vault’s data key/);
    expect(schemaVersion(db)).toBe(8);
    expect(rows(db, 'SELECT count(*) AS n FROM audit_log')).toEqual([{ n: 3 }]);
  });
});
