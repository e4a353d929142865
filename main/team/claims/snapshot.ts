// The lead's figures — the Team screen's, the trends, the period report — are each read in one snapshot of the
// team store (REPEATABLE READ, READ ONLY: every statement sees the same log), at the store's "now"
// (team-overview-sql.ts' STORE_NOW, so that every desk counts to the same moment); a failure is told as the
// team store's, in words.
import type pg from 'pg';
import { z } from 'zod';
import { parseRow } from '../journal/rows.ts';
import type { ConnectionTarget } from '../store/connection-error.ts';
import { inTransaction } from '../store/sql.ts';
import { teamFailure } from '../team-failures.ts';
import { STORE_NOW } from './team-overview-sql.ts';

/** A count as PostgreSQL's `count(*)::int` gives it. */
export const Count = z.number().int().min(0);

const NowSchema = z.object({ now: z.date() });

/** Runs `read` in a read-only snapshot of the store, given the store's now. */
export async function inSnapshot<T>(
  pool: pg.Pool,
  target: ConnectionTarget,
  read: (client: pg.ClientBase, now: Date) => Promise<T>,
): Promise<T> {
  try {
    return await inTransaction(pool, async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const { now } = parseRow(NowSchema, 'clock', (await client.query(STORE_NOW)).rows);
      return read(client, now);
    });
  } catch (error) {
    throw teamFailure(error, target);
  }
}
