// The journal's migration runner: applies a list of migrations in order, each in its own transaction.
// `PRAGMA user_version` holds the number of the last one applied. It knows no migration: the journal's
// list is in index.ts, and tests give it the first N of them to build a journal as version N left it.
import { type Db, transaction } from '../db.ts';
import { JournalError } from '../errors.ts';
import type { Clock } from '../time.ts';

/** What the journal knows when it migrates, for a migration that writes rows of its own. */
export interface MigrationContext {
  /** The vault's data key (the audit chain's seal is derived from it). */
  dataKey?: Buffer;
  /** Who acts at this desk. */
  actor?: string;
  clock?: Clock;
}

export interface Migration {
  /** 1, 2, 3…: its position in the list (`MIGRATIONS`), and the `user_version` once applied. */
  version: number;
  /** What it is for, for people reading the list. */
  name: string;
  sql: string;
  /** Run after `sql`, in the same transaction: for a change that must read the schema it changes. */
  run?: (db: Db, context: MigrationContext) => void;
}

/** 'VETT' in `PRAGMA application_id`: tells a Vetted journal from any other SQLite file. */
export const APPLICATION_ID = 0x56455454;

export function schemaVersion(db: Db): number {
  return pragmaNumber(db, 'user_version');
}

/**
 * Refuses, before anything is written, a file this version must not migrate: a journal from a newer
 * Vetted, or an SQLite database that is not a journal at all.
 */
export function checkCanMigrate(db: Db, file: string, migrations: readonly Migration[]): void {
  const version = readHeader(db, file, 'user_version');
  const known = migrations.length;
  if (version > known) {
    throw new JournalError(
      `This journal was written by a newer Vetted (schema ${version}; this version knows up to ${known}). ` +
        `Update Vetted to open it. The file ${file} was left untouched.`,
    );
  }
  const applicationId = readHeader(db, file, 'application_id');
  const empty = version === 0 && !db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get();
  if (applicationId !== APPLICATION_ID && !(applicationId === 0 && empty)) {
    throw new JournalError(`The file ${file} is not a Vetted journal; it was left untouched.`);
  }
}

/** Applies the migrations the database lacks, each in its own transaction with its version number. */
export function migrate(db: Db, migrations: readonly Migration[], context: MigrationContext = {}): void {
  for (const migration of migrations.slice(schemaVersion(db))) {
    transaction(db, () => {
      db.exec(migration.sql);
      migration.run?.(db, context);
      // Both pragmas are part of the transaction: a failed migration leaves the version as it was.
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${migration.version};`);
    });
  }
}

// The first read of a file that is not a database fails here: say so, naming the file.
function readHeader(db: Db, file: string, pragma: 'user_version' | 'application_id'): number {
  try {
    return pragmaNumber(db, pragma);
  } catch (cause) {
    throw new JournalError(`The file ${file} is not a Vetted journal (not an SQLite database).`, { cause });
  }
}

function pragmaNumber(db: Db, pragma: 'user_version' | 'application_id'): number {
  const row = db.prepare(`PRAGMA ${pragma}`).get() as Record<string, number>;
  return row[pragma] ?? 0;
}
