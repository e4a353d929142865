// The webhook listener's security log: requests it refused, with when and from where. Never a body or a
// header's value beyond the forwarding address: what an attacker sends is not worth keeping, and could
// be large or hostile. Kept to the newest entries so that a flood cannot fill the disk.
import type { Statements, Sync } from './db.ts';
import type { WriteStatement } from './events.ts';
import type { Rejection, RejectionInput, RejectionsRepository } from './repositories/rejections.ts';
import { type Clock, isoTime } from './time.ts';

export const KEPT_REJECTIONS = 10_000;

/** A webhook_rejections row; the team store's too, once its times are ISO text. */
export interface RejectionRow {
  seq: number;
  at: string;
  remote_address: string;
  forwarded_for: string | null;
  status: number;
  reason: string;
}

/** A rejection's write as SQL text, for the listener's writer on its own connection. */
export const rejectionStatements =
  (clock: Clock) =>
  ({ remoteAddress, forwardedFor = null, status, reason }: RejectionInput): WriteStatement[] => [
    {
      sql: `INSERT INTO webhook_rejections (at, remote_address, forwarded_for, status, reason)
            VALUES (:at, :remoteAddress, :forwardedFor, :status, :reason)`,
      params: { at: isoTime(clock()), remoteAddress, forwardedFor, status, reason },
    },
    {
      sql: `DELETE FROM webhook_rejections
            WHERE seq <= (SELECT max(seq) FROM webhook_rejections) - :kept`,
      params: { kept: KEPT_REJECTIONS },
    },
  ];

export function rejectionsRepository(
  sql: Statements,
  clock: Clock,
): Sync<RejectionsRepository> & { statements(entry: RejectionInput): WriteStatement[] } {
  const statements = rejectionStatements(clock);
  return {
    statements,
    record(entry) {
      for (const statement of statements(entry)) sql.run(statement.sql, statement.params);
    },
    list({ limit = 100, offset = 0 } = {}) {
      return sql
        .all<RejectionRow>('SELECT * FROM webhook_rejections ORDER BY seq DESC LIMIT :limit OFFSET :offset', {
          limit,
          offset,
        })
        .map(toRejection);
    },
    count() {
      return sql.get<{ n: number }>('SELECT count(*) AS n FROM webhook_rejections')?.n ?? 0;
    },
  };
}

export function toRejection(row: RejectionRow): Rejection {
  return {
    seq: row.seq,
    at: row.at,
    remoteAddress: row.remote_address,
    forwardedFor: row.forwarded_for,
    status: row.status,
    reason: row.reason,
  };
}
