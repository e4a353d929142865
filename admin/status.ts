// `team status`: what an administrator checks first: the schema, the team, who may log in, whether a hub
// holds the webhook listener, and how the team outbox and the webhook events stand.

import { teamSchemaVersion } from '#main/team/store/migrations/runner.ts';
import type { Queryable } from '#main/team/store/sql.ts';
import { LISTENER_LOCK } from '#main/team/store/sql.ts';
import { TeamAdminError } from './errors.ts';
import { hubLogins } from './hubs.ts';
import { reviewerComment } from './reviewers.ts';
import { reviewerRoles, type TeamRole } from './roles.ts';
import { readTeamMeta } from './team-meta.ts';

export interface TeamStatus {
  schema: number;
  teamId: string;
  reviewerRole: string;
  reviewers: { name: string; canLogIn: boolean; role: TeamRole }[];
  /** The logins marked as hubs (`add-hub`, `mark-hub`): not people, listed apart. */
  hubs: { name: string; canLogIn: boolean }[];
  /** The login of the hub holding the listener lock, or undefined when no hub listens. */
  listener: { user: string; pid: number } | undefined;
  outbox: Record<string, number>;
  events: { count: number; lastReceived: string | null };
}

/** pg_locks shows a 64-bit advisory key as two 32-bit halves: classid the high, objid the low. */
export function advisoryLockParts(key: number): { classid: number; objid: number } {
  const big = BigInt(key);
  return { classid: Number(big >> 32n), objid: Number(big & 0xffff_ffffn) };
}

export async function teamStatus(db: Queryable): Promise<TeamStatus> {
  const meta = await readTeamMeta(db);
  if (!meta) {
    throw new TeamAdminError(
      'This database is not a Vetted team store yet: run `npm run team -- init` first.',
    );
  }
  const schema = await teamSchemaVersion(db);
  const reviewers = await db.query<{ name: string; can_log_in: boolean }>(
    `SELECT rolname AS name, rolcanlogin AS can_log_in FROM pg_roles
     WHERE shobj_description(oid, 'pg_authid') = $1 ORDER BY rolname`,
    [reviewerComment(meta.teamId)],
  );
  const { classid, objid } = advisoryLockParts(LISTENER_LOCK);
  const listener = await db.query<{ pid: number; user: string | null }>(
    `SELECT l.pid, a.usename AS user FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND l.classid = $1 AND l.objid = $2`,
    [classid, objid],
  );
  const outbox = await db.query<{ state: string; count: string }>(
    'SELECT state, count(*) AS count FROM vetted.team_outbox GROUP BY state ORDER BY state',
  );
  const events = await db.query<{ count: string; last: Date | null }>(
    'SELECT count(*) AS count, max(received_at) AS last FROM vetted.events',
  );
  const holder = listener.rows[0];
  // A store not migrated yet has no roles: every reviewer is a reviewer.
  const hasRoles = await db.query<{ exists: boolean }>(
    `SELECT to_regclass('vetted.reviewer_roles') IS NOT NULL AS exists`,
  );
  const roles = hasRoles.rows[0]?.exists ? await reviewerRoles(db) : new Map<string, TeamRole>();
  const hubs = await hubLogins(db);
  return {
    schema,
    teamId: meta.teamId,
    reviewerRole: meta.reviewerRole,
    reviewers: reviewers.rows
      .filter((row) => !hubs.has(row.name))
      .map((row) => ({ name: row.name, canLogIn: row.can_log_in, role: roles.get(row.name) ?? 'reviewer' })),
    hubs: reviewers.rows
      .filter((row) => hubs.has(row.name))
      .map((row) => ({ name: row.name, canLogIn: row.can_log_in })),
    listener: holder ? { user: holder.user ?? 'unknown', pid: holder.pid } : undefined,
    outbox: Object.fromEntries(outbox.rows.map((row) => [row.state, Number(row.count)])),
    events: {
      count: Number(events.rows[0]?.count ?? 0),
      lastReceived: events.rows[0]?.last ? events.rows[0].last.toISOString() : null,
    },
  };
}

export function formatTeamStatus(status: TeamStatus): string {
  const reviewers = status.reviewers.length
    ? status.reviewers
        .map(
          (r) =>
            `  ${r.name}${r.canLogIn ? (r.role === 'lead' ? ' (lead)' : '') : ' (removed: cannot log in)'}`,
        )
        .join('\n')
    : '  none yet (npm run team -- add-reviewer NAME)';
  const states = ['queued', 'attention', 'created', 'rejected'];
  const outbox = states.map((state) => `${state} ${status.outbox[state] ?? 0}`).join(', ');
  return [
    `Team ${status.teamId}, schema version ${status.schema}`,
    `Reviewers' group role: ${status.reviewerRole}`,
    'Reviewers:',
    reviewers,
    'Hubs:',
    status.hubs.length
      ? status.hubs.map((h) => `  ${h.name}${h.canLogIn ? '' : ' (removed: cannot log in)'}`).join('\n')
      : '  none marked (npm run team -- add-hub NAME, or mark-hub NAME for a hub added as a reviewer)',
    `Webhook listener: ${status.listener ? `held by ${status.listener.user} (backend ${status.listener.pid})` : 'no hub holds it'}`,
    `Team outbox: ${outbox}`,
    `Events: ${status.events.count}${status.events.lastReceived ? `, last received ${status.events.lastReceived}` : ''}`,
    '',
  ].join('\n');
}
