// What the team store's code needs of a PostgreSQL connection: a pool, or one client inside a transaction.
import type pg from 'pg';
import { checkout } from './checkout.ts';

/** `pg.Pool` or a checked-out `pg.PoolClient`: repositories run their statements on either. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * The lock every write to a replicated table (customers, status_history, notes, retries) takes before it
 * draws its number from `vetted.change_seq`: those transactions then commit in the order of their numbers,
 * so a desk that has read every change up to N can never later meet one below N (see replication).
 */
export const CHANGE_LOCK = 0x5645_5454_01;
/** The listener role of the hub: one hub at a time holds it (pg_try_advisory_lock). */
export const LISTENER_LOCK = 0x5645_5454_02;
/** Migrations run one at a time whoever starts them. */
export const MIGRATION_LOCK = 0x5645_5454_03;
/**
 * The first key of each team outbox drainer's liveness lock (a two-key advisory lock, the second its holder
 * name's hashtext: outbox/liveness.ts). The one-key locks above show in pg_locks with objsubid 1, these with 2.
 */
export const DRAINER_LOCK = 0x5645_5454;
/**
 * Channel of `NOTIFY` for committed changes: each replicated row announced with its change (team store
 * migration 11; JSON), a desk's marker (live-feed.ts), or a bare change number (the claims' functions).
 */
export const CHANGES_CHANNEL = 'vetted_changes';
/** Channel of `NOTIFY` for any change to the approvals (four eyes; team store migration 8): the transaction's id. */
export const APPROVALS_CHANNEL = 'vetted_approvals';

/**
 * Runs `work` in a transaction on one client of the pool; throwing rolls it back. A connection lost on the
 * way (before or during the COMMIT) fails the call with the loss, and the client is discarded.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const out = await checkout(pool);
  const { client } = out;
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((failed: Error) => {
      // A session that cannot even roll back must not go back to the pool.
      broken = failed;
    });
    throw error;
  } finally {
    out.release(broken);
  }
}
