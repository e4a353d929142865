// The team store's migration runner, like the local journal's: applies a list of migrations in order, each in
// its own transaction; `vetted.schema_version` holds the last one applied. It knows no migration: the
// store's list is in index.ts, and tests give it the first N of them to build a store as version N left it.
// Only the team's administrator migrates (`npm run team -- init` / `migrate`); desks and hubs refuse a store
// whose version is not theirs, and say who must act.
import type pg from 'pg';
import { MIGRATION_LOCK, type Queryable } from '../sql.ts';

export interface TeamMigration {
  version: number;
  name: string;
  sql: string;
  /** Run after `sql`, in the same transaction: for a migration that rewrites rows (with the team key). */
  run?: (client: pg.ClientBase, context: TeamMigrationContext) => Promise<void>;
}

/** What the administrator gives `team migrate`, for a migration that needs it. */
export interface TeamMigrationContext {
  /** The team data key (the administrator's key file): a migration that seals rows needs it. */
  teamKey?: Buffer;
}

export class TeamSchemaError extends Error {
  override name = 'TeamSchemaError';
}

/**
 * The store's schema version; 0 for a database `team init` never ran on. The table is looked for in pg_class
 * (read with the statement's snapshot), not with to_regclass: that one asks the session's catalog cache,
 * which may not yet know a table another migrator created while this one waited for the migration lock.
 */
export async function teamSchemaVersion(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ exists: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                     WHERE n.nspname = 'vetted' AND c.relname = 'schema_version') AS exists`,
  );
  if (!rows[0]?.exists) return 0;
  const version = await db.query<{ version: number }>('SELECT version FROM vetted.schema_version');
  return version.rows[0]?.version ?? 0;
}

/**
 * Applies every migration not yet applied, each in its own transaction, one migrator at a time; answers the
 * version before the first one this call applied (`to` when it applied none). The lock is
 * the transaction's (pg_advisory_xact_lock), taken before the version is read again: it holds behind a pooler
 * in transaction mode too, where a session's lock would be left on a server session the pooler keeps.
 */
export async function applyTeamMigrations(
  client: pg.ClientBase,
  migrations: readonly TeamMigration[],
  context: TeamMigrationContext = {},
): Promise<{ from: number; to: number }> {
  const latest = migrations.at(-1)?.version ?? 0;
  let from = await teamSchemaVersion(client);
  let applied = false;
  if (from > latest) {
    throw new TeamSchemaError(
      `The team store is at schema ${from}, newer than this Vetted (${latest}): update Vetted.`,
    );
  }
  for (const migration of migrations.filter((m) => m.version > from)) {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      // Another migrator may have applied it while this one waited for the lock: `from` then says so.
      const found = await teamSchemaVersion(client);
      if (found >= migration.version) {
        await client.query('COMMIT');
        if (!applied) from = found;
        continue;
      }
      applied = true;
      await client.query(migration.sql);
      await migration.run?.(client, context);
      if (migration.version === 1) {
        await client.query('CREATE TABLE vetted.schema_version (version integer NOT NULL)');
        await client.query('INSERT INTO vetted.schema_version (version) VALUES (1)');
      } else {
        await client.query('UPDATE vetted.schema_version SET version = $1', [migration.version]);
      }
      await client.query('COMMIT');
    } catch (cause) {
      await client.query('ROLLBACK');
      // A migration's own refusal says what the administrator must do: it is part of the sentence.
      const why = cause instanceof TeamSchemaError ? ` ${cause.message}` : '';
      throw new TeamSchemaError(
        `Team store migration ${migration.version} (${migration.name}) failed and was rolled back.${why}`,
        { cause },
      );
    }
  }
  return { from, to: latest };
}

/** For desks and hubs: the store must be at exactly schema `latest`, this Vetted's. */
export async function requireTeamSchema(db: Queryable, latest: number): Promise<void> {
  const version = await teamSchemaVersion(db);
  if (version === latest) return;
  if (version === 0) {
    throw new TeamSchemaError('This database is not a Vetted team store: run `npm run team -- init` first.');
  }
  throw new TeamSchemaError(
    version < latest
      ? `The team store is at schema ${version}, older than this Vetted (${latest}): ` +
          'ask your administrator to run `npm run team -- migrate`.'
      : `The team store is at schema ${version}, newer than this Vetted (${latest}): update Vetted.`,
  );
}
