// Migration 6: today's real service (real-service.md). Its statuses `kba`, `unverified` and `deactivated` get
// sections of their own, and the fields its GET adds (address, phone, any other) are kept, encrypted.
import type { Db } from '../db.ts';
import { JournalError } from '../errors.ts';
import type { Migration } from './runner.ts';

const OLD_CHECK = "CHECK (section IN ('retry', 'document', 'review', 'verified', 'suspended', 'other'))";
const NEW_CHECK = `CHECK (section IN ('retry', 'document', 'review', 'kba', 'unverified', 'verified', 'suspended',
    'deactivated', 'other'))`;

/**
 * SQLite cannot alter a CHECK constraint, so the customers table is rebuilt from its own schema as it
 * stands (whatever columns, indexes and triggers other migrations gave it, in whatever order they ran):
 * copied aside, dropped, created again with the wider CHECK, filled again with every `seq` kept (the
 * search index refers to rows by it, so it stays valid), then its indexes and triggers restored.
 * Foreign keys (status_history, retries) stay on, deferred: the ids dropped with the old table count as
 * violations until the same ids are back, before the commit.
 */
function widenSections(db: Db): void {
  const table = db
    .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'customers'")
    .get() as { sql: string } | undefined;
  if (!table?.sql.includes(OLD_CHECK)) {
    throw new JournalError(
      'The customers table is not as migration 4 left it; the journal was left untouched.',
    );
  }
  const dependents = db
    .prepare(
      `SELECT sql FROM sqlite_schema WHERE tbl_name = 'customers' AND type IN ('index', 'trigger')
       AND sql IS NOT NULL ORDER BY rowid`,
    )
    .all() as { sql: string }[];
  db.exec(`PRAGMA defer_foreign_keys = ON;
    CREATE TEMP TABLE customers_before_6 AS SELECT * FROM main.customers;
    DROP TABLE main.customers;`);
  db.exec(table.sql.replace(OLD_CHECK, NEW_CHECK));
  // Before the triggers are back: the rows, their counts and their search entries are already right.
  db.exec(
    'INSERT INTO main.customers SELECT * FROM temp.customers_before_6; DROP TABLE temp.customers_before_6;',
  );
  for (const { sql } of dependents) db.exec(sql);
  // Customers already in these statuses were in "Other": the count triggers move them.
  db.exec("UPDATE customers SET section = status WHERE status IN ('kba', 'unverified', 'deactivated')");
}

export const REAL_SERVICE_CUSTOMERS: Migration = {
  version: 6,
  name: 'real service: sections kba, unverified, deactivated; fields the service reports',
  sql: `
-- Encrypted (personal.ts): the fields the service's GET gave beyond the interface document's, as JSON.
ALTER TABLE customers ADD COLUMN reported TEXT;
INSERT INTO section_counts (section) VALUES ('kba'), ('unverified'), ('deactivated');
`,
  run: widenSections,
};
