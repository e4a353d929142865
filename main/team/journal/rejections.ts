// The webhook listener's security log on the team store: requests a hub refused, with when and from where,
// kept to the newest KEPT_REJECTIONS so that a flood cannot fill the database (as the SQLite journal's): the
// store prunes it by that rule (migration 3), so no reviewer may delete from it.
import { z } from 'zod';
import { toRejection } from '#main/data/journal/rejections.ts';
import type {
  Rejection,
  RejectionInput,
  RejectionsRepository,
} from '#main/data/journal/repositories/rejections.ts';
import { isoTime } from '#main/data/journal/time.ts';
import type { Queryable } from '../store/sql.ts';
import { CountSchema, PgSeq, PgTime, parseRow, parseRows } from './rows.ts';
import type { TeamRepositoryContext } from './team-db.ts';

const RejectionRowSchema = z
  .object({
    seq: PgSeq,
    at: PgTime,
    remote_address: z.string(),
    forwarded_for: z.string().nullable(),
    status: z.number().int(),
    reason: z.string(),
  })
  .transform((row): Rejection => toRejection(row));

/**
 * Records one refusal and forgets those beyond the newest KEPT_REJECTIONS, through the store's own pruning
 * function (migration 3): reviewers hold no DELETE on the log.
 */
export async function recordRejection(
  client: Queryable,
  { remoteAddress, forwardedFor = null, status, reason }: RejectionInput,
  at: string,
): Promise<void> {
  await client.query(
    `INSERT INTO vetted.webhook_rejections (at, remote_address, forwarded_for, status, reason)
     VALUES ($1, $2, $3, $4, $5)`,
    [at, remoteAddress, forwardedFor, status, reason],
  );
  await client.query('SELECT vetted.prune_webhook_rejections()');
}

export function teamRejectionsRepository({ db, clock }: TeamRepositoryContext): RejectionsRepository {
  return {
    async record(entry) {
      await db.write((client) => recordRejection(client, entry, isoTime(clock())));
    },
    async list({ limit = 100, offset = 0 } = {}) {
      const { rows } = await db.read.query(
        `SELECT seq, at, remote_address, forwarded_for, status, reason FROM vetted.webhook_rejections
         ORDER BY seq DESC LIMIT $1 OFFSET $2`,
        [limit, offset],
      );
      return parseRows(RejectionRowSchema, 'webhook_rejections', rows);
    },
    async count() {
      const { rows } = await db.read.query('SELECT count(*) AS n FROM vetted.webhook_rejections');
      return parseRow(CountSchema, 'webhook_rejections', rows).n;
    },
  };
}
