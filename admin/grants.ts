// What the team's reviewers may do in the team store, granted to one NOLOGIN group role every reviewer's
// login is a member of. Re-runnable (`team migrate` runs it again): it revokes what the group holds and grants
// exactly this. Nobody in the group may change the schema, and the audit log takes INSERT only (its trigger
// refusing UPDATE/DELETE/TRUNCATE is the second lock); its chain's head is locked through one function and
// moved on by the store's trigger, never written by a reviewer.
import pg from 'pg';
import type { Queryable } from '#main/team/store/sql.ts';
import { TeamAdminError } from './errors.ts';

/** UPDATE with columns is PostgreSQL's column privilege: only those columns may be SET. */
type Privilege = 'INSERT' | 'UPDATE' | 'DELETE' | `UPDATE (${string})`;

/**
 * Beyond SELECT (granted on every table): what each table takes. DELETE only on a deleted subscription's
 * secret (the hub, a member like any desk, forgets it); none on the webhooks' security log, which the store's
 * own function prunes (REVIEWER_FUNCTIONS), so no reviewer can empty it. A released retry stays as a
 * tombstone (UPDATE), the team outbox keeps every row (its state says where it is), and notes and history are
 * never edited. UPDATE names its columns wherever a row says who did something (a retry's actor, an outbox
 * row's submitter) or what happened (an event): the rest of such a row is not a desk's to rewrite.
 */
export const REVIEWER_WRITES: Readonly<Record<string, readonly Privilege[]>> = {
  customers: ['INSERT', 'UPDATE'],
  status_history: ['INSERT'],
  retries: ['INSERT', 'UPDATE (seq, used_at, outcome, released)'],
  notes: ['INSERT'],
  events: ['INSERT', 'UPDATE (duplicates_seen, processed_at)'],
  webhook_rejections: ['INSERT'],
  team_outbox: [
    'INSERT',
    `UPDATE (lease_holder, lease_until, attempts, maybe_created, state, customer_id, last_error, field_errors,
       duplicate_of, next_attempt_at, finished_at, recorded_by)`,
  ],
  audit_log: ['INSERT'],
  webhook_secrets: ['INSERT', 'DELETE'],
  // What desks brought when they joined: each key once, never rewritten (migration 10).
  brought_from_desks: ['INSERT'],
};

/**
 * Every function of the store the group may run; EXECUTE on any other is revoked. Those that write are
 * SECURITY DEFINER (owned by the administrator), each doing one thing by the store's own rule, what no grant
 * allows: pruning the security log to its newest entries (migration 3); locking the audit chain's head to
 * append an entry after it (migration 6; the head itself takes no reviewer's write); taking, releasing,
 * reassigning and taking over a case, the next case, ending idle claims and changing a team setting, each
 * checking the caller's role and answering what changed for the desk to audit in the same transaction
 * (migration 7); asking for a second reviewer's approval, deciding, finishing, withdrawing and expiring one,
 * each by the store's rules (only a lead decides, never the maker; migration 8); spending the caller's own
 * join code, once (migration 9). Three only read: a login's role, the team's reviewers with theirs
 * (migration 7), and the team's hubs, who are not reviewers (migration 14).
 */
export const REVIEWER_FUNCTIONS: readonly string[] = [
  'vetted.prune_webhook_rejections()',
  'vetted.audit_chain_head()',
  'vetted.claim_take(text, text)',
  'vetted.claim_release(text)',
  'vetted.claim_reassign(text, text, text)',
  'vetted.claim_take_over(text, text)',
  'vetted.claim_next(text[])',
  'vetted.claims_expire()',
  'vetted.set_team_setting(text, jsonb)',
  'vetted.role_of(text)',
  'vetted.team_reviewers()',
  'vetted.team_hubs()',
  'vetted.approval_request(uuid, text, text, text)',
  'vetted.approval_decide(uuid, boolean, text)',
  'vetted.approval_finish(uuid, text)',
  'vetted.approval_cancel(uuid)',
  'vetted.approvals_expire()',
  'vetted.use_join_code(uuid, text)',
];

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
  // Trigger functions need no EXECUTE to fire: what a reviewer may call is exactly the list.
  await db.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA vetted FROM PUBLIC, ${group}`);
  for (const fn of REVIEWER_FUNCTIONS) await db.query(`GRANT EXECUTE ON FUNCTION ${fn} TO ${group}`);
}
