// Each journal migration's test builds a journal as the migration before it left it (migrations 1..N-1 only),
// writes rows as that version did (plain SQL), applies migration N alone, and checks what N promises.
import { afterEach, expect } from 'vitest';
import { configure, type Db, openDatabase } from '#main/data/journal/db.ts';
import { MIGRATIONS } from '#main/data/journal/migrations/index.ts';
import { migrate, schemaVersion } from '#main/data/journal/migrations/runner.ts';
import { journalFile } from '../helpers.ts';

/**
 * These tests read the local SQLite file itself: the journal-detached and journal-team projects, which run
 * test/main/data/journal/ again behind other implementations of the interface, have nothing to add to them.
 */
export const NOT_THE_LOCAL_FILE = process.env.VETTED_TEST_JOURNAL !== undefined;

const open: Db[] = [];

/** A journal database at schema `version`, as Vetted with that schema left it (closed after the test). */
export function journalAt(version: number): Db {
  const db = openDatabase(journalFile());
  configure(db);
  migrate(db, MIGRATIONS.slice(0, version));
  expect(schemaVersion(db)).toBe(version);
  open.push(db);
  return db;
}

/** Applies the next migration, `version`, alone. */
export function applyMigration(db: Db, version: number): void {
  expect(schemaVersion(db)).toBe(version - 1);
  migrate(db, MIGRATIONS.slice(0, version));
  expect(schemaVersion(db)).toBe(version);
}

// Registered after helpers.ts's own (imported above), so it runs first: the files close before their
// directory is removed.
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

export function rows(db: Db, sql: string, params: Record<string, string | number | null> = {}) {
  return db.prepare(sql).all(params);
}

/** The names of the schema's objects of a kind (table, index, trigger), sorted. */
export function names(db: Db, type: 'table' | 'index' | 'trigger', table?: string): string[] {
  return db
    .prepare(
      `SELECT name FROM sqlite_schema WHERE type = :type AND (:table IS NULL OR tbl_name = :table)
       AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all({ type, table: table ?? null })
    .map((row) => String(row.name));
}

export function columnsOf(db: Db, table: string): string[] {
  return db
    .prepare(`SELECT name FROM pragma_table_info(:table) ORDER BY cid`)
    .all({ table })
    .map((row) => String(row.name));
}

/** An index: the table it is on, its key columns in order, and whether it is partial or unique. */
export function indexOf(db: Db, index: string) {
  const list = db
    .prepare(`SELECT tbl_name AS tbl FROM sqlite_schema WHERE type = 'index' AND name = :index`)
    .get({
      index,
    });
  if (!list) return undefined;
  const table = String(list.tbl);
  const info = db.prepare(`SELECT "unique", partial FROM pragma_index_list(:table) WHERE name = :index`).get({
    table,
    index,
  });
  const columns = db
    .prepare(`SELECT name FROM pragma_index_info(:index) ORDER BY seqno`)
    .all({ index })
    .map((row) => String(row.name));
  return { table, columns, unique: info?.unique === 1, partial: info?.partial === 1 };
}

/** The query plan's details: which index SQLite picks for a query. */
export function plan(db: Db, sql: string): string {
  return db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all()
    .map((row) => String(row.detail))
    .join('\n');
}
