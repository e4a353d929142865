// What the team's reviewers may do in the team store, granted to one NOLOGIN group role every reviewer's
// login is a member of. Re-runnable (`team migrate` runs it again): it revokes what the group holds and grants
// exactly this. Nobody in the group may change the schema, and the audit log takes INSERT only (its trigger
// refusing UPDATE/DELETE/TRUNCATE is the second lock). Claims, roles and team settings take no write grant:
// reviewers read them, and change claims and settings through functions that check who calls.
import pg from 'pg';
import { REVIEWER_FUNCTIONS } from '../store/migrations/05-claims-roles.ts';
import type { Queryable } from '../store/sql.ts';
import { TeamAdminError } from './errors.ts';

/** UPDATE with columns is PostgreSQL's column privilege: only those columns may be SET. */
type Privilege = 'INSERT' | 'UPDATE' | 'DELETE' | `UPDATE (${string})`;

/**
 * Beyond SELECT (granted on every table): what each table takes. DELETE only where a repository deletes:
 * pruning the webhook rejections kept. A released retry stays as a tombstone (UPDATE), the team outbox keeps
 * every row (its state says where it is), and notes and history are never edited. UPDATE names its columns
 * wherever a row says who did something (a retry's actor, an outbox row's submitter) or what happened (an
 * event): the rest of such a row is not a desk's to rewrite.
 */
export const REVIEWER_WRITES: Readonly<Record<string, readonly Privilege[]>> = {
  customers: ['INSERT', 'UPDATE'],
  status_history: ['INSERT'],
  retries: ['INSERT', 'UPDATE (seq, used_at, outcome, released)'],
  notes: ['INSERT'],
  events: ['INSERT', 'UPDATE (duplicates_seen, processed_at)'],
  webhook_rejections: ['INSERT', 'DELETE'],
  team_outbox: [
    'INSERT',
    `UPDATE (lease_holder, lease_until, attempts, maybe_created, state, customer_id, last_error, field_errors,
       duplicate_of, next_attempt_at, finished_at)`,
  ],
  audit_log: ['INSERT'],
};

export const quoteIdent = (name: string): string => pg.escapeIdentifier(name);

/** The group role's default name: `<database>_reviewers`, cut to PostgreSQL's 63 bytes. */
export function defaultReviewerRole(database: string): string {
  const suffix = '_reviewers';
  return database.slice(0, 63 - suffix.length) + suffix;
}

/** Creates the group role unless it exists; refuses a name that is a login (a person, not a group). */
export async function ensureGroupRole(db: Queryable, role: string): Promise<void> {
  const { rows } = await db.query<{ rolcanlogin: boolean }>(
    'SELECT rolcanlogin FROM pg_roles WHERE rolname = $1',
    [role],
  );
  if (rows[0]?.rolcanlogin) {
    throw new TeamAdminError(
      `The role "${role}" already exists and can log in: it cannot be the reviewers' group.`,
    );
  }
  if (!rows[0]) await db.query(`CREATE ROLE ${quoteIdent(role)} NOLOGIN`);
}

/** Sets the group's privileges to exactly these (run inside the caller's transaction). */
export async function grantReviewerRole(db: Queryable, role: string): Promise<void> {
  const group = quoteIdent(role);
  const { rows } = await db.query<{ database: string }>('SELECT current_database() AS database');
  const database = quoteIdent(rows[0]!.database);
  // The database is the team's alone: only its members (and the administrator, its owner) connect.
  await db.query(`REVOKE ALL ON DATABASE ${database} FROM PUBLIC`);
  await db.query(`GRANT CONNECT ON DATABASE ${database} TO ${group}`);
  await db.query(`REVOKE ALL ON SCHEMA vetted FROM PUBLIC, ${group}`);
  await db.query(`GRANT USAGE ON SCHEMA vetted TO ${group}`);
  await db.query(`REVOKE ALL ON ALL TABLES IN SCHEMA vetted FROM PUBLIC, ${group}`);
  await db.query(`GRANT SELECT ON ALL TABLES IN SCHEMA vetted TO ${group}`);
  for (const [table, privileges] of Object.entries(REVIEWER_WRITES)) {
    await db.query(`GRANT ${privileges.join(', ')} ON vetted.${quoteIdent(table)} TO ${group}`);
  }
  await db.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA vetted FROM PUBLIC, ${group}`);
  await db.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA vetted TO ${group}`);
  // Claims, team settings: written only through these functions, which check the caller's role themselves.
  // (From the group only: PUBLIC keeps EXECUTE on the read-only helpers the triggers call, role_of and such.)
  await db.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA vetted FROM ${group}`);
  const functions = REVIEWER_FUNCTIONS.map((signature) => `vetted.${signature}`).join(', ');
  await db.query(`GRANT EXECUTE ON FUNCTION ${functions} TO ${group}`);
}
