// Why joining a team or reaching its store failed, in the reviewer's words. node-postgres' and the network's
// codes are read once, by store/connection-error.ts; this only turns its kinds into the DeskErrors the desk
// answers with, adding what a reviewer (not an administrator) can do. Messages name the host and the login at
// most: never the password, the team key or the join code.
import pg from 'pg';
import { type AppError, DeskError } from '#contract/errors.ts';
import { ASK_A_LEAD } from '#contract/roles.ts';
import { KeyNotHeldError } from '../ground/crypto.ts';
import {
  type ConnectionTarget,
  TeamConnectionError,
  type TeamConnectionFailure,
  teamConnectionError,
} from './store/connection-error.ts';
import { TeamSchemaError } from './store/migrations/runner.ts';
import type { Queryable } from './store/sql.ts';

/** Every code a team refusal carries to the renderer. */
export const TEAM_FAILURE_CODES = [
  'TeamWrongPassword',
  'TeamNoAccess',
  'TeamNotAStore',
  'TeamKeyMismatch',
  'TeamKeyChanged',
  'TeamCodeUsed',
  'TeamCodeExpired',
  'TeamTls',
  'TeamUnreachable',
  'TeamCodeDamaged',
  'TeamAlreadyJoined',
  'TeamNotJoined',
  'TeamFailed',
] as const;
export type TeamFailureCode = (typeof TEAM_FAILURE_CODES)[number];

/**
 * What a desk that holds a team key the administrator has since replaced reads: what happened and how to get
 * the new one. Nothing queued on the desk is lost: drafts wait in its own journal until it has joined again.
 */
export function teamKeyChanged(since?: Date): DeskError {
  const when = since ? ` on ${since.toISOString().slice(0, 10)}` : '';
  return new DeskError(
    'TeamKeyChanged',
    `The team's key was changed${when} (your administrator rotated it), so this desk's copy no longer opens the team's data. ` +
      'Ask your administrator for a new join code for your login, then leave the team and join again with it in Settings → Team. ' +
      'Your drafts stay on this desk and go to the team once it has joined again.',
  );
}

/**
 * Whether `error` says this desk's team key is old: the store refused a value or an audit entry sealed
 * under a key a rotation replaced (its triggers' hint, team store migrations 9 and 12), or a row read is
 * sealed under a data key the desk does not hold (made by the rotation).
 */
export function isKeyChange(error: unknown): boolean {
  if (error instanceof KeyNotHeldError) return true;
  return error instanceof pg.DatabaseError && error.hint === 'vetted:stale-team-key';
}

/** The key-changed words with the rotation's date, as the store knows it (without, if it cannot say). */
export async function keyChangedOn(db: Queryable): Promise<DeskError> {
  try {
    const { rows } = await db.query<{ at: Date | null }>(
      'SELECT max(retired_at) AS at FROM vetted.retired_team_keys',
    );
    return teamKeyChanged(rows[0]?.at ?? undefined);
  } catch {
    return teamKeyChanged();
  }
}

/** A connection failure's kind as the desk's code, and what the reviewer can do beyond what it says. */
const BY_KIND: Record<TeamConnectionFailure, { code: TeamFailureCode; advice?: string }> = {
  auth: { code: 'TeamNoAccess', advice: 'Ask your administrator.' },
  database: { code: 'TeamNotAStore', advice: 'Ask your administrator for a new join code.' },
  tls: { code: 'TeamTls', advice: 'Ask your administrator if it persists.' },
  unreachable: { code: 'TeamUnreachable', advice: 'Check your network (or VPN) and try again.' },
  server: { code: 'TeamUnreachable' },
  unexpected: { code: 'TeamFailed' },
};

const UNEXPECTED = 'The team store answered in a way Vetted did not expect; details are in the log.';

/** The DeskError for a TeamConnectionError; `cause` keeps the original for the log. */
export function teamConnectionFailure(error: TeamConnectionError, cause: unknown = error): DeskError {
  if (error.passwordRefused) {
    return new DeskError('TeamWrongPassword', error.message, { '/password': error.message });
  }
  const { code, advice } = BY_KIND[error.kind];
  // pg's own text may quote what was sent: an unexpected failure is told in general words only.
  if (code === 'TeamFailed') {
    const failure = new DeskError(code, UNEXPECTED);
    failure.cause = cause;
    return failure;
  }
  if (!advice || error.message.includes(advice.replace(/\.$/, '').toLowerCase())) {
    return new DeskError(code, error.message);
  }
  return new DeskError(code, `${error.message} ${advice}`);
}

/** The DeskError a reviewer reads for any failure met while joining or checking the team store. */
/** `connection`: where it was going (a join code's connection will do). */
export function teamFailure(error: unknown, connection: ConnectionTarget): DeskError {
  if (error instanceof DeskError) return error;
  if (error instanceof TeamSchemaError) return new DeskError('TeamNotAStore', error.message);
  return teamConnectionFailure(teamConnectionError(error, connection), error);
}

/**
 * For failures.ts' `toAppError`: a team failure that reached a handler without being put in words, or
 * undefined (an unexpected one stays a generic internal error, its details logged).
 */
export function teamAppError(error: unknown): AppError | undefined {
  // A lead's action the store refused to a reviewer (its trigger on the audit log, team store migration 7):
  // the desk checks first, so this is a role changed a moment ago, or a desk that skipped its check.
  if (error instanceof pg.DatabaseError && error.hint === 'vetted:lead-only') {
    return new DeskError(
      'LeadOnly',
      `The team store refused this: only a lead may do it. ${ASK_A_LEAD}`,
    ).toAppError();
  }
  // A write sealed under a key a rotation retired, or a row under one it made: this desk's key is old. (The
  // team journal and the claim and approval stores say so with the date first; this is the last resort.)
  if (isKeyChange(error)) return teamKeyChanged().toAppError();
  if (error instanceof TeamSchemaError) return new DeskError('TeamNotAStore', error.message).toAppError();
  if (!(error instanceof TeamConnectionError) || error.kind === 'unexpected') return undefined;
  return teamConnectionFailure(error).toAppError();
}
