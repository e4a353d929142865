// What a desk checks of a team store before it trusts it (joining) and whenever Settings → Team asks
// (status): the schema is this Vetted's, the store is the code's team, the team key is the one the store was
// made with; and whether a hub holds the listener role.

import { DeskError } from '#contract/errors.ts';
import type { TeamHubState } from '#contract/team.ts';
import type { TeamConnection } from '../ground/config/team-connection.ts';
import { type CodeUse, codeSecretHash } from './join-code.ts';
import type { JoinedTeam } from './joined.ts';
import { checkTeamSchema } from './store/migrations/index.ts';
import { directConnection } from './store/pool.ts';
import { LISTENER_LOCK, type Queryable } from './store/sql.ts';
import { openTeamClient } from './team-connection.ts';
import { type TeamFailureCode, teamFailure, teamKeyChanged } from './team-failures.ts';
import { isTeamKey, teamKeyCheck } from './team-key.ts';

/** What the desk expects of the store: the team it joined. */
export type TeamExpectation = JoinedTeam;

/**
 * Connects, checks, and says whether a hub listens; throws a DeskError in words when the store is not right.
 * A join code that names a direct address (the pooled one is a pooler) has it checked too: live changes and
 * the hub's role go there, and a desk that cannot reach it would never hear of another desk's work.
 */
export async function probeTeamStore(
  expected: TeamExpectation,
  timeoutMs: number,
): Promise<{ hub: TeamHubState }> {
  const check = async (client: Queryable) => {
    await checkTeamSchema(client);
    await checkTeamMeta(client, expected);
  };
  const hub = await onClient(expected, expected.connection, timeoutMs, async (client) => {
    await check(client);
    return hubState(client);
  });
  if (expected.connection.direct) {
    await onClient(expected, directConnection(expected.connection), timeoutMs, check);
  }
  return { hub };
}

async function onClient<T>(
  expected: TeamExpectation,
  connection: TeamConnection,
  timeoutMs: number,
  work: (client: Queryable) => Promise<T>,
): Promise<T> {
  let client: Awaited<ReturnType<typeof openTeamClient>> | undefined;
  try {
    client = await openTeamClient(connection, expected.password, timeoutMs);
    return await work(client);
  } catch (error) {
    throw teamFailure(error, connection);
  } finally {
    await client?.end().catch(() => undefined);
  }
}

async function checkTeamMeta(db: Queryable, expected: TeamExpectation): Promise<void> {
  const { rows } = await db.query<{ team_id: string; key_check: string }>(
    'SELECT team_id::text AS team_id, key_check FROM vetted.team_meta',
  );
  const meta = rows[0];
  if (!meta) {
    throw new DeskError(
      'TeamNotAStore',
      'This team store was never set up (`npm run team -- init` did not finish).',
    );
  }
  if (meta.team_id !== expected.teamId) {
    throw new DeskError(
      'TeamKeyMismatch',
      'This join code belongs to another team than the store it points to: ask your administrator for a new one.',
    );
  }
  if (!isTeamKey(expected.teamKey, meta.key_check)) {
    const retired = await db.query<{ retired_at: Date }>(
      'SELECT retired_at FROM vetted.retired_team_keys WHERE key_check = $1',
      [teamKeyCheck(expected.teamKey)],
    );
    if (retired.rows[0]) throw teamKeyChanged(retired.rows[0].retired_at);
    throw new DeskError(
      'TeamKeyMismatch',
      'The team key in this join code does not match the team store: ask your administrator for a new join code.',
    );
  }
}

/**
 * Spends the join code in the store as the reviewer it was made for: once only, and not after it expired or a
 * fresher one was made. A refusal says when and what to ask for; nothing is kept on the desk.
 */
export async function spendJoinCode(
  expected: TeamExpectation,
  use: CodeUse,
  timeoutMs: number,
): Promise<void> {
  const { outcome, at } = await onClient(expected, expected.connection, timeoutMs, async (client) => {
    const { rows } = await client.query<{ outcome: string; at: Date | null }>(
      'SELECT outcome, at FROM vetted.use_join_code($1, $2)',
      [use.id, codeSecretHash(use)],
    );
    return rows[0] ?? { outcome: 'unknown', at: null };
  });
  if (outcome === 'joined') return;
  const day = at ? at.toISOString().slice(0, 10) : 'an earlier day';
  // A reviewer reads this: the administrator's command is in docs/team-admin.md, not on their screen.
  const fresh = `ask your administrator for a fresh one (a join code for ${expected.connection.user})`;
  const words: Record<string, [TeamFailureCode, string]> = {
    used: ['TeamCodeUsed', `This join code was already used on ${day}; ${fresh}`],
    expired: ['TeamCodeExpired', `This join code expired on ${day}; ${fresh}`],
    superseded: [
      'TeamCodeExpired',
      `This join code was replaced on ${day} (by a newer code, or because the team's key changed); ${fresh}`,
    ],
  };
  const [code, message] = words[outcome] ?? [
    'TeamCodeDamaged',
    `The team store never issued this join code to ${expected.connection.user}; ${fresh}`,
  ];
  throw new DeskError(code, message, { '/code': message });
}

/**
 * Whether any session holds LISTENER_LOCK in this database. A bigint advisory lock shows in pg_locks with
 * its high 32 bits as classid, its low 32 bits as objid and objsubid 1.
 */
export async function hubState(db: Queryable): Promise<TeamHubState> {
  const key = BigInt(LISTENER_LOCK);
  try {
    const { rows } = await db.query<{ held: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objsubid = 1
            AND classid = $1::bigint::oid AND objid = $2::bigint::oid
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       ) AS held`,
      [String(key >> 32n), String(key & 0xffff_ffffn)],
    );
    return rows[0]?.held ? 'listening' : 'no hub';
  } catch {
    return 'unknown';
  }
}
