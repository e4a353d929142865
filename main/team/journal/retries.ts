// The one verification retry of each customer on the team store: recorded as used by whichever desk used it
// (the database stamps the login in `actor`), numbered from the change sequence so desks copy it. A release
// (the service refused the retry's fields without acting on them) keeps the row as a tombstone with a new
// change number rather than deleting it: a deleted row leaves nothing for a desk's replica to read after N.
import { z } from 'zod';
import { JournalError } from '#main/data/journal/errors.ts';
import type { RetriesRepository, RetryRecord } from '#main/data/journal/repositories/retries.ts';
import { isoTime } from '#main/data/journal/time.ts';
import { PgTime, parseRows } from './rows.ts';
import type { TeamRepositoryContext } from './team-db.ts';

const RetryRowSchema = z
  .object({ customer_id: z.string(), used_at: PgTime, outcome: z.string().nullable() })
  .transform(
    (row): RetryRecord => ({ customerId: row.customer_id, usedAt: row.used_at, outcome: row.outcome }),
  );

const COLUMNS = 'customer_id, used_at, outcome';

export function teamRetriesRepository({ db, clock }: TeamRepositoryContext): RetriesRepository {
  const get = async (customerId: string) => {
    const { rows } = await db.read.query(
      `SELECT ${COLUMNS} FROM vetted.retries WHERE customer_id = $1 AND NOT released`,
      [customerId],
    );
    return parseRows(RetryRowSchema, 'retries', rows)[0];
  };
  return {
    async record(customerId, outcome) {
      const { rows } = await db.write(async (client) => {
        const known = await client.query('SELECT 1 FROM vetted.customers WHERE id = $1', [customerId]);
        if (known.rowCount === 0) throw new JournalError(`No customer ${customerId} in the journal`);
        // The change lock before any row lock, in every write here: never a deadlock with another desk.
        const seq = await db.nextChange(client);
        // Used once: when it was used stays; a released one is used afresh. Who used it is the store's to
        // stamp (its retries_stamp trigger), never ours to set.
        return client.query(
          `INSERT INTO vetted.retries AS r (customer_id, seq, used_at, outcome) VALUES ($1, $2, $3, $4)
           ON CONFLICT (customer_id) DO UPDATE SET outcome = excluded.outcome, seq = excluded.seq,
             used_at = CASE WHEN r.released THEN excluded.used_at ELSE r.used_at END,
             released = false
           RETURNING ${COLUMNS}`,
          [customerId, seq, isoTime(clock()), outcome],
        );
      });
      const [retry] = parseRows(RetryRowSchema, 'retries', rows);
      if (!retry) throw new Error(`The team store did not return the retry of ${customerId}.`);
      return retry;
    },
    get,
    async list() {
      const { rows } = await db.read.query(
        `SELECT ${COLUMNS} FROM vetted.retries WHERE NOT released ORDER BY used_at, customer_id COLLATE "C"`,
      );
      return parseRows(RetryRowSchema, 'retries', rows);
    },
    async release(customerId) {
      await db.write(async (client) => {
        // A number drawn for nothing to release is only a gap, which readers of changes skip.
        const seq = await db.nextChange(client);
        await client.query(
          'UPDATE vetted.retries SET released = true, seq = $2 WHERE customer_id = $1 AND NOT released',
          [customerId, seq],
        );
      });
    },
  };
}
