// Whether a drainer of the team outbox is alive, as the team store itself knows it. Each running drainer
// holds a session advisory lock keyed by its holder name, (DRAINER_LOCK, hashtext(holder)), on the
// connection it keeps open for LISTEN. PostgreSQL lets the lock go the moment that session ends: a drainer
// killed (SIGKILL, a crash, its computer switched off once TCP notices) stops being alive at once, while
// its rows' leases would still run for a minute. pg_locks shows every session's locks to every login (a
// reviewer's too; pg_stat_activity hides other logins' state and start time on PostgreSQL 15, so it is not
// used). Two holder names with the same hash share a liveness: a dead one then waits for its leases, as
// before this existed; nothing is ever sent twice under another key.
import type { Queryable } from '../store/sql.ts';
import { DRAINER_LOCK } from '../store/sql.ts';

/** The lock keys (pg_locks' objid) of every drainer alive now, in this database. */
const LIVE_KEYS = `SELECT l.objid FROM pg_catalog.pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = ${DRAINER_LOCK}::oid
    AND l.database = (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = current_database())`;

/** SQL that is true when the drainer named in `column` holds no liveness lock (or none is named). */
export const holderIsGone = (column: string): string =>
  `(${column} IS NULL OR hashtext(${column})::oid NOT IN (${LIVE_KEYS}))`;

/**
 * Takes `holder`'s liveness lock on `client`, a connection the drainer keeps open. Answers the lock's key (as
 * liveDrainers lists it) and whether this session holds it now (false: another session still does, e.g.
 * this drainer's previous connection the server has not yet seen close, or a holder whose name has the same
 * hash).
 */
export async function holdLiveness(
  client: Queryable,
  holder: string,
): Promise<{ key: string; held: boolean }> {
  const { rows } = await client.query<{ key: string; held: boolean }>(
    'SELECT hashtext($2)::oid::text AS key, pg_try_advisory_lock($1, hashtext($2)) AS held',
    [DRAINER_LOCK, holder],
  );
  return { key: rows[0]?.key ?? '', held: rows[0]?.held === true };
}

/** The lock keys of the drainers alive now: a key gone since the last look is a drainer that stopped. */
export async function liveDrainers(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ objid: string }>(`SELECT objid::text AS objid FROM (${LIVE_KEYS}) live`);
  return new Set(rows.map((row) => row.objid));
}
