import { describe, expect, it } from 'vitest';
import { applyMigration, columnsOf, indexOf, journalAt, NOT_THE_LOCAL_FILE, rows } from './at-version.ts';

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migration 5: notes, document images, audit actors', () => {
  it('gives the audit log an actor, "not recorded" for the entries before it, and keeps it append-only', () => {
    const db = journalAt(4);
    db.exec(`INSERT INTO audit_log (at, action, customer_id, outcome, detail)
      VALUES ('2026-01-01T10:00:00.000Z', 'customer.create', 'c-1', 'ok', NULL),
             ('2026-01-01T11:00:00.000Z', 'customer.retry', 'c-1', 'failed', 'ValidationError')`);

    applyMigration(db, 5);

    expect(columnsOf(db, 'audit_log')).toContain('actor');
    expect(rows(db, 'SELECT seq, action, actor FROM audit_log ORDER BY seq')).toEqual([
      { seq: 1, action: 'customer.create', actor: '' },
      { seq: 2, action: 'customer.retry', actor: '' },
    ]);
    db.exec(`INSERT INTO audit_log (at, actor, action, outcome) VALUES ('t', 'ada', 'note.add', 'ok')`);
    expect(rows(db, "SELECT seq FROM audit_log WHERE actor = 'ada'")).toEqual([{ seq: 3 }]);
    expect(indexOf(db, 'audit_log_by_action')?.columns).toEqual(['action', 'seq']);
    expect(indexOf(db, 'audit_log_by_actor')?.columns).toEqual(['actor', 'seq']);
    expect(() => db.exec("UPDATE audit_log SET actor = 'someone' WHERE seq = 1")).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM audit_log')).toThrow(/append-only/);
  });

  it('adds notes and document images, one image per document', () => {
    const db = journalAt(4);
    applyMigration(db, 5);

    expect(columnsOf(db, 'notes')).toEqual(['seq', 'customer_id', 'at', 'author', 'body']);
    expect(indexOf(db, 'notes_by_customer')?.columns).toEqual(['customer_id', 'seq']);
    expect(columnsOf(db, 'document_images')).toEqual([
      'document_id',
      'customer_id',
      'at',
      'document_type',
      'content_type',
      'image',
    ]);
    expect(indexOf(db, 'document_images_by_customer')?.columns).toEqual(['customer_id', 'at']);
    const image = `INSERT INTO document_images (document_id, customer_id, at, document_type, content_type, image)
      VALUES ('doc-1', 'c-1', 't', 'passport', 'image/png', 'sealed')`;
    db.exec(image);
    expect(() => db.exec(image)).toThrow(/UNIQUE/);
    db.exec(`INSERT INTO notes (customer_id, at, author, body) VALUES ('c-1', 't', 'ada', 'sealed')`);
    expect(rows(db, 'SELECT seq, author FROM notes')).toEqual([{ seq: 1, author: 'ada' }]);
  });
});
