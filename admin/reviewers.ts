// `team add-reviewer` and `team remove-reviewer`: each reviewer (and each hub) logs in as a PostgreSQL role of
// its own, a member of the team's group role, so the database itself stamps who did what.
import fs from 'node:fs';
import type pg from 'pg';
import {
  MAX_CA_CHARS,
  type TeamConnection,
  TeamConnectionSchema,
} from '#main/ground/config/team-connection.ts';
import { codeSecretHash, encodeJoinCode, newCodeUse } from '#main/team/join-code.ts';
import type { Queryable } from '#main/team/store/sql.ts';
import { TeamAdminError } from './errors.ts';
import { quoteIdent } from './grants.ts';
import { readKeyFile } from './key-file.ts';
import { newReviewerPassword, scramVerifier } from './scram.ts';
import { readTeamMeta, type TeamMeta } from './team-meta.ts';
import { inTransactionOn } from './transaction.ts';

const RESERVED = new Set([
  'postgres',
  'public',
  'admin',
  'administrator',
  'root',
  'superuser',
  'none',
  'all',
  'current_user',
  'current_role',
  'session_user',
  'user',
  'role',
]);

/** Marks a login as a reviewer of a team, so `status` still lists them once removed. */
const reviewerComment = (teamId: string) => `Vetted reviewer of team ${teamId}`;

async function teamMeta(db: Queryable): Promise<TeamMeta> {
  const meta = await readTeamMeta(db);
  if (!meta) {
    throw new TeamAdminError(
      'This database is not a Vetted team store yet: run `npm run team -- init` first.',
    );
  }
  return meta;
}

/** A reviewer's login name: a lower-case identifier that is nobody's yet and not one PostgreSQL reserves. */
export async function validateReviewerName(db: Queryable, name: string, meta: TeamMeta): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new TeamAdminError(
      `"${name}" cannot be a reviewer's name: use lower-case letters, digits and _ (starting with a letter), at most 63.`,
    );
  }
  const { rows } = await db.query<{ me: string }>('SELECT session_user AS me');
  if (RESERVED.has(name) || name.startsWith('pg_') || name === meta.reviewerRole || name === rows[0]?.me) {
    throw new TeamAdminError(
      `"${name}" is reserved (PostgreSQL's, the administrator's or the team's): choose another name.`,
    );
  }
  const existing = await db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
  if (existing.rows.length > 0) {
    throw new TeamAdminError(
      `A role "${name}" already exists in this PostgreSQL server: choose another name.`,
    );
  }
}

export interface AddReviewerOptions {
  name: string;
  keyFile: string;
  /** Where desks reach the store; the TLS mode and the CA file (PEM) desks verify the server with. */
  host: string;
  port: number;
  sslmode: TeamConnection['sslmode'];
  caFile?: string;
  /** Where desks open what needs a session of its own, when host:port is a pooler in transaction mode. */
  direct?: TeamConnection['direct'];
  /** The store's other nodes, tried after host:port: desks keep to whichever accepts writes. */
  standbys?: TeamConnection['standbys'];
}

export interface NewReviewer {
  joinCode: string;
  /** To hand over by another channel than the join code; shown once, never stored. */
  password: string;
  connection: TeamConnection;
}

/** How long a join code may wait to be used. */
export const JOIN_CODE_DAYS = 7;

/**
 * What a reviewer's join code holds for `options.name`: the team, where desks reach the store, the team key,
 * and the code's id and secret, whose hash is kept in the store (an older unused code of theirs stops
 * working). Run inside the caller's transaction.
 */
async function joinCodeOf(
  client: pg.Client,
  meta: TeamMeta,
  options: AddReviewerOptions,
): Promise<{ joinCode: string; connection: TeamConnection }> {
  const teamKey = readKeyFile(options.keyFile, meta.keyCheck);
  let ca: string | undefined;
  if (options.caFile) {
    try {
      ca = fs.readFileSync(options.caFile, 'utf8');
    } catch {
      throw new TeamAdminError(`The CA certificate ${options.caFile} could not be read.`);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw new TeamAdminError(`${options.caFile} is not a PEM certificate (-----BEGIN CERTIFICATE-----).`);
    }
    if (ca.length > MAX_CA_CHARS) {
      throw new TeamAdminError(
        `${options.caFile} holds ${ca.length} characters; a join code carries at most ${MAX_CA_CHARS}. ` +
          "A managed service's bundle of every region is too large: give the bundle of the database's region.",
      );
    }
  }
  const { rows } = await client.query<{ database: string }>('SELECT current_database() AS database');
  const connection = TeamConnectionSchema.parse({
    host: options.host,
    port: options.port,
    database: rows[0]!.database,
    user: options.name,
    sslmode: options.sslmode,
    ...(ca ? { ca } : {}),
    ...(options.direct ? { direct: options.direct } : {}),
    ...(options.standbys?.length ? { standbys: options.standbys } : {}),
  });
  const use = newCodeUse();
  const joinCode = encodeJoinCode({ teamId: meta.teamId, connection, teamKey, use });
  // A store before migration 9 keeps no codes (its desks refuse it until `migrate`, and then the code).
  const { rows: kept } = await client.query(`SELECT to_regclass('vetted.join_codes') IS NOT NULL AS kept`);
  if (!kept[0]?.kept) return { joinCode, connection };
  await client.query(
    `UPDATE vetted.join_codes SET superseded_at = now()
      WHERE reviewer = $1 AND used_at IS NULL AND superseded_at IS NULL`,
    [options.name],
  );
  await client.query(
    `INSERT INTO vetted.join_codes (id, reviewer, secret_hash, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
    [use.id, options.name, codeSecretHash(use), JOIN_CODE_DAYS],
  );
  return { joinCode, connection };
}

/** A new login in the team's group; `alsoIn` runs in the same transaction once it exists (add-hub's mark). */
export async function addReviewer(
  client: pg.Client,
  options: AddReviewerOptions,
  alsoIn?: (meta: TeamMeta) => Promise<void>,
): Promise<NewReviewer> {
  const meta = await teamMeta(client);
  const password = newReviewerPassword();
  return inTransactionOn(client, async () => {
    await validateReviewerName(client, options.name, meta);
    const role = quoteIdent(options.name);
    await client.query(
      `CREATE ROLE ${role} LOGIN PASSWORD ${client.escapeLiteral(scramVerifier(password))} IN ROLE ${quoteIdent(meta.reviewerRole)}`,
    );
    await client.query(`COMMENT ON ROLE ${role} IS ${client.escapeLiteral(reviewerComment(meta.teamId))}`);
    await alsoIn?.(meta);
    const { joinCode, connection } = await joinCodeOf(client, meta, options);
    return { joinCode, password, connection };
  });
}

/**
 * A fresh join code for a current reviewer: for a new desk, one whose vault was lost, or after a rotation of
 * the team key. Their older unused codes stop working; the password is `reset-password`'s, if that was lost.
 */
export async function reviewerJoinCode(
  client: pg.Client,
  options: AddReviewerOptions,
): Promise<{ joinCode: string; connection: TeamConnection }> {
  const { meta, canLogin } = await teamReviewer(client, options.name);
  if (!canLogin) throw removedRefusal(options.name);
  return inTransactionOn(client, () => joinCodeOf(client, meta, options));
}

export interface EndedSessions {
  /** Sessions of theirs that were open and have been ended. */
  sessionsEnded: number;
  /** Set when their open sessions could not be ended (the administrator lacks pg_signal_backend). */
  sessionsLeft?: string;
}

export interface RemovedReviewer extends EndedSessions {
  /** Whether a join code they were given carries the team key as it is now: then a rotation is advised. */
  rotationAdvised: boolean;
}

/** The team's reviewer `name`, or a refusal in words: nobody's login is touched that is not one. */
export async function teamReviewer(
  client: pg.Client,
  name: string,
): Promise<{ meta: TeamMeta; canLogin: boolean }> {
  const meta = await teamMeta(client);
  const { rows } = await client.query<{ comment: string | null; rolcanlogin: boolean }>(
    `SELECT shobj_description(oid, 'pg_authid') AS comment, rolcanlogin FROM pg_roles WHERE rolname = $1`,
    [name],
  );
  if (!rows[0]) throw new TeamAdminError(`There is no reviewer "${name}".`);
  if (rows[0].comment !== reviewerComment(meta.teamId)) {
    throw new TeamAdminError(`"${name}" is not a reviewer of this team: nothing was changed.`);
  }
  return { meta, canLogin: rows[0].rolcanlogin };
}

const removedRefusal = (name: string) =>
  new TeamAdminError(`${name} was removed from the team: add them again (under a new name) instead.`);

/** Ends `name`'s open sessions, so that what was just taken or changed holds at once. */
async function endSessions(client: pg.Client, name: string): Promise<EndedSessions> {
  try {
    const ended = await client.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE usename = $1`,
      [name],
    );
    return { sessionsEnded: ended.rows.filter((row) => row.ended).length };
  } catch {
    return {
      sessionsEnded: 0,
      sessionsLeft:
        'Their open sessions could not be ended (grant pg_signal_backend to the administrator); they end when those desks disconnect.',
    };
  }
}

/** Takes the login and the membership away and ends open sessions; their audit rows and notes stay. */
export async function removeReviewer(client: pg.Client, name: string): Promise<RemovedReviewer> {
  const { meta } = await teamReviewer(client, name);
  const role = quoteIdent(name);
  await inTransactionOn(client, async () => {
    await client.query(`ALTER ROLE ${role} NOLOGIN`);
    await client.query(`REVOKE ${quoteIdent(meta.reviewerRole)} FROM ${role}`);
  });
  return { ...(await endSessions(client, name)), rotationAdvised: await heldCurrentKey(client, name) };
}

/**
 * Whether `name` may hold the current team key: a code was made for them since the last rotation, or the
 * store cannot tell (codes made before migration 9 were not recorded). Only codes all older than the last
 * rotation show they hold nothing that still opens the store.
 */
async function heldCurrentKey(client: pg.Client, name: string): Promise<boolean> {
  const { rows } = await client.query<{ latest: Date | null; rotated: Date | null }>(
    `SELECT (SELECT max(created_at) FROM vetted.join_codes WHERE reviewer = $1) AS latest,
            (SELECT max(retired_at) FROM vetted.retired_team_keys) AS rotated`,
    [name],
  );
  const { latest, rotated } = rows[0] ?? { latest: null, rotated: null };
  return latest === null || rotated === null || latest > rotated;
}

export interface NewPassword extends EndedSessions {
  /** To hand over by another channel than the join code; shown once, never stored. */
  password: string;
}

/**
 * Gives a reviewer a new random password (a leaked or lost one) under the same name, so what they do next is
 * stamped as before; their join code does not change. Sessions logged in with the old one are ended.
 */
export async function resetReviewerPassword(client: pg.Client, name: string): Promise<NewPassword> {
  const { canLogin } = await teamReviewer(client, name);
  if (!canLogin) throw removedRefusal(name);
  const password = newReviewerPassword();
  await client.query(
    `ALTER ROLE ${quoteIdent(name)} PASSWORD ${client.escapeLiteral(scramVerifier(password))}`,
  );
  return { password, ...(await endSessions(client, name)) };
}

export { reviewerComment };
