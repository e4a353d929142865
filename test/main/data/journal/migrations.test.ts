import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { configure, openDatabase } from '#main/data/journal/db.ts';
import { JournalError, LATEST_VERSION, openJournal } from '#main/data/journal/index.ts';
import { MIGRATIONS } from '#main/data/journal/migrations/index.ts';
import { APPLICATION_ID, migrate, schemaVersion } from '#main/data/journal/migrations/runner.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { journalFile, openTestJournal, serviceCustomer } from './helpers.ts';

function pragma(file: string, name: string): unknown {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0];
  } finally {
    db.close();
  }
}

function tableNames(file: string): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => String(row.name));
  } finally {
    db.close();
  }
}

/** A journal as Vetted with schema 1 left it: its schema, and rows written with plain SQL as that version did. */
function writeVersion1Journal(file: string): void {
  const db = openDatabase(file);
  configure(db);
  migrate(db, MIGRATIONS.slice(0, 1));
  db.exec(`
    INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed,
      links, pending_documents, note)
    VALUES ('c-1', 'https://api.service.test/customers/c-1', 'Ada Lovelace', 'ada@example.com', 'personal',
      'document', 'review', '2026-01-02T10:00:00.000Z', '2026-01-01T10:00:00.000Z', '2026-01-03T10:00:00.000Z',
      '{"self":{"href":"https://api.service.test/customers/c-1"}}', 1, 'ScanNotReadable');
    INSERT INTO status_history (customer_id, status, at, source, event_id) VALUES
      ('c-1', 'retry', '2026-01-01T10:00:00.000Z', 'created', NULL),
      ('c-1', 'document', '2026-01-02T10:00:00.000Z', 'event', 'ev-1');
    INSERT INTO audit_log (at, action, customer_id, outcome, detail)
      VALUES ('2026-01-01T10:00:00.000Z', 'customer.create', 'c-1', 'ok', NULL);
  `);
  db.close();
}

describe('journal migrations', () => {
  it('numbers the migrations 1, 2, 3… in order', async () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('creates the latest schema in an empty directory, as a private WAL database', async () => {
    const file = journalFile();
    const journal = await openTestJournal({ file });
    expect(journal.schemaVersion).toBe(LATEST_VERSION);
    expect(tableNames(file)).toEqual(
      expect.arrayContaining([
        'customers',
        'status_history',
        'audit_log',
        'drafts',
        'outbox',
        'events',
        'retries',
      ]),
    );
    expect(pragma(file, 'user_version')).toBe(LATEST_VERSION);
    expect(pragma(file, 'application_id')).toBe(APPLICATION_ID);
    expect(pragma(file, 'journal_mode')).toBe('wal');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reopens a journal at the latest schema without changing it', async () => {
    const file = journalFile();
    const key = createFieldKey();
    const first = openJournal({ file, dataKey: key });
    await first.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'created' });
    await first.close();
    const again = await openTestJournal({ file, dataKey: key });
    expect(again.schemaVersion).toBe(LATEST_VERSION);
    expect((await again.customers.get('c-1'))?.name).toBe('Jane Doe');
  });

  it('migrates a version 1 journal to the latest schema, keeping its data', async () => {
    const file = journalFile();
    writeVersion1Journal(file);
    expect(pragma(file, 'user_version')).toBe(1);

    const journal = await openTestJournal({ file });
    expect(journal.schemaVersion).toBe(LATEST_VERSION);
    expect(await journal.customers.get('c-1')).toMatchObject({
      name: 'Ada Lovelace',
      status: 'document',
      section: 'review',
      statusSince: '2026-01-02T10:00:00.000Z',
      pendingDocuments: 1,
      note: 'ScanNotReadable',
      links: { self: { href: 'https://api.service.test/customers/c-1' } },
    });
    expect(await journal.customers.history('c-1')).toEqual([
      { status: 'retry', at: '2026-01-01T10:00:00.000Z', source: 'created', eventId: null },
      { status: 'document', at: '2026-01-02T10:00:00.000Z', source: 'event', eventId: 'ev-1' },
    ]);
    // The audit chain began with migration 9, which says so after the entries it chained.
    expect(await journal.audit.list()).toMatchObject([
      { action: 'audit.chain', detail: expect.stringMatching(/the 1 entries before this one were chained/) },
      { action: 'customer.create', customerId: 'c-1', outcome: 'ok' },
    ]);
    // The queue's counts and search index came along with the rows.
    const window = await journal.queue.window({
      section: 'review',
      search: 'lovelace',
      offset: 0,
      limit: 10,
    });
    expect(window.rows.map((row) => row.id)).toEqual(['c-1']);
    expect(window.counts.review).toBe(1);
    // And the tables of schema 2 work.
    const draft = await journal.drafts.insert({ form: { firstName: 'Grace', lastName: 'Hopper' } });
    expect((await journal.outbox.ensureKey(draft.id)).draftId).toBe(draft.id);
  });

  it('rolls a failing migration back entirely and says which one failed', async () => {
    const file = journalFile();
    const db = openDatabase(file);
    configure(db);
    migrate(db, MIGRATIONS);
    const broken = {
      version: LATEST_VERSION + 1,
      name: 'broken',
      sql: 'CREATE TABLE half (a); SELECT x FROM nowhere;',
    };
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow(/no such table: nowhere/);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a journal written by a newer Vetted, leaving the file untouched', async () => {
    const file = journalFile();
    await openJournal({ file, dataKey: createFieldKey() }).close();
    const db = new DatabaseSync(file);
    db.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    db.close();
    const before = fs.readFileSync(file);

    const open = () => openJournal({ file, dataKey: createFieldKey() });
    expect(open).toThrow(JournalError);
    expect(open).toThrow(
      `This journal was written by a newer Vetted (schema ${LATEST_VERSION + 1}; this version knows up to ` +
        `${LATEST_VERSION}). Update Vetted`,
    );
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(pragma(file, 'user_version')).toBe(LATEST_VERSION + 1);
  });

  it('refuses a file that is not a journal, leaving it untouched', async () => {
    const text = journalFile();
    fs.mkdirSync(path.dirname(text), { recursive: true });
    fs.writeFileSync(text, 'not a database, just some text that is long enough to have a header. '.repeat(4));
    const textBefore = fs.readFileSync(text);
    expect(() => openJournal({ file: text, dataKey: createFieldKey() })).toThrow(/is not a Vetted journal/);
    expect(fs.readFileSync(text).equals(textBefore)).toBe(true);

    const other = journalFile();
    fs.mkdirSync(path.dirname(other), { recursive: true });
    const db = new DatabaseSync(other);
    db.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY)');
    db.close();
    const otherBefore = fs.readFileSync(other);
    expect(() => openJournal({ file: other, dataKey: createFieldKey() })).toThrow(/is not a Vetted journal/);
    expect(fs.readFileSync(other).equals(otherBefore)).toBe(true);
  });
});
