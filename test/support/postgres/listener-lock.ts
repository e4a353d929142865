// Cuts off whichever session holds the hub's listener role, as a network cut or a crashed hub would.
import pg from 'pg';
import { LISTENER_LOCK } from '#main/team/store/sql.ts';

/**
 * Terminates the backend holding LISTENER_LOCK in the database at `url`; answers how many it killed.
 * A bigint advisory lock shows in pg_locks as classid (high 32 bits), objid (low 32 bits), objsubid 1.
 */
export async function terminateListenerHolder(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const key = BigInt(LISTENER_LOCK);
    const { rows } = await admin.query<{ killed: boolean }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 1
          AND classid = $1::bigint::oid AND objid = $2::bigint::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [String(key >> 32n), String(key & 0xffff_ffffn)],
    );
    return rows.filter((row) => row.killed).length;
  } finally {
    await admin.end();
  }
}
