// A team journal call that the team store refused, or could not answer, in the words a reviewer reads (the
// words of Settings → Team): a login the store no longer lets in (a removed reviewer), a store that cannot
// be reached, a statement the store refuses this login, a team key a rotation replaced. Anything else (a row Vetted cannot read, a constraint, a
// refusal of the desk's own) stays as it is. The desk's failure vocabulary (compose/app-errors.ts) turns a
// TeamConnectionError into the DeskError a channel answers with.
import pg from 'pg';
import { notLetIn, TeamConnectionError, teamConnectionError } from '../store/connection-error.ts';
import { poolTarget } from '../store/pool.ts';
import { QUERY_TIMEOUT_WORDS } from '../store/silence.ts';
import { isKeyChange, keyChangedOn } from '../team-failures.ts';

/** SQLSTATE insufficient_privilege: the store refuses this statement (or this database) to this login. */
const REFUSED = '42501';

/** The error a team journal call throws for `error`, met on `pool`. */
export async function storeFailure(pool: pg.Pool, error: unknown): Promise<unknown> {
  // A desk still on the team key a rotation replaced: what it writes is refused, what it reads is sealed
  // under a key it does not hold. Both in the words of Settings → Team, with the rotation's date.
  if (isKeyChange(error)) return keyChangedOn(pool);
  if (!fromTheStore(error)) return error;
  const { target, secrets } = poolTarget(pool);
  const failure =
    error instanceof pg.DatabaseError && error.code === REFUSED
      ? await refusedStatement(pool, target.user, (probe) => teamConnectionError(probe, target, secrets))
      : teamConnectionError(error, target, secrets);
  if (failure.kind === 'unexpected') return error;
  // The log keeps what the server said; the reviewer reads the words.
  failure.cause = error;
  return failure;
}

/**
 * A statement refused to a login that is connected: its membership was taken away (a reviewer removed while
 * their session stayed open), or the team's grants leave this out. Which one, the store says: only members
 * of the team's group may connect to its database.
 */
async function refusedStatement(
  pool: pg.Pool,
  user: string,
  failed: (probe: unknown) => TeamConnectionError,
): Promise<TeamConnectionError> {
  try {
    const { rows } = await pool.query<{ member: boolean }>(
      `SELECT has_database_privilege(current_database(), 'CONNECT') AS member`,
    );
    if (!rows[0]?.member) return new TeamConnectionError('auth', notLetIn(user));
    return new TeamConnectionError(
      'auth',
      `The team store does not allow "${user}" to do this: the team's grants leave it out.`,
    );
  } catch (probe) {
    return failed(probe);
  }
}

/** node-postgres' own words for a connection that failed, ended or never authenticated. */
const PG_CONNECTION_WORDS = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'SASL',
  'The server does not support SSL',
  // A statement past its deadline (store/silence.ts): a connection gone silent.
  QUERY_TIMEOUT_WORDS,
];

/** The server's refusals, the socket's and TLS's failures, and node-postgres' words for a lost connection. */
function fromTheStore(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return true;
  if (error instanceof AggregateError) return error.errors.some(fromTheStore);
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof syscall === 'string') return true;
  if (typeof code === 'string' && /^(ERR_TLS|ERR_SSL|ERR_OSSL|UNABLE_TO_)|CERT/.test(code)) return true;
  return PG_CONNECTION_WORDS.some((words) => error.message.startsWith(words));
}
