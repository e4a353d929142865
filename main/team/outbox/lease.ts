// The drainers' statements on the team outbox. Leases are timed by PostgreSQL's clock (`now()`), the one
// clock every desk and hub shares. A drainer writes an outcome only while it still holds the row's lease:
// once its lease ran out and another drainer took the row, the late answer is dropped (the taker replays
// the same key and learns the same answer).
import type pg from 'pg';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import { isoTime } from '#main/data/journal/time.ts';
import type { Failure } from '#main/features/drafts/outbox/classify.ts';
import { appendAuditEntry } from '../journal/audit.ts';
import { inTransaction, type Queryable } from '../store/sql.ts';
import { holderIsGone } from './liveness.ts';
import { parseRows, ROW_COLUMNS, type TeamOutboxRow } from './rows.ts';

/**
 * Takes up to `limit` due rows: queued, next attempt due, and lease free, expired, or held by a drainer that
 * is gone (liveness.ts: a killed drainer's rows are taken at once, a live one's lease is respected). SKIP
 * LOCKED: two drainers taking at once never take the same row. One statement, so the lease is committed
 * before any send. A row taken from another holder (it died or stalled) may have been sent: it is marked so,
 * and its send replays the same key, so the service answers with the customer it already created.
 */
export async function takeDue(
  db: Queryable,
  holder: string,
  leaseMs: number,
  limit: number,
): Promise<TeamOutboxRow[]> {
  const { rows } = await db.query(
    `WITH due AS (
       SELECT idempotency_key FROM vetted.team_outbox
        WHERE state = 'queued'
          AND (lease_until IS NULL OR lease_until < now() OR ${holderIsGone('lease_holder')})
          AND (next_attempt_at IS NULL OR next_attempt_at <= now())
        ORDER BY next_attempt_at NULLS FIRST, submitted_at
        LIMIT $3
        FOR UPDATE SKIP LOCKED)
     UPDATE vetted.team_outbox AS t
        SET lease_holder = $1,
            lease_until = now() + make_interval(secs => $2::double precision / 1000),
            attempts = t.attempts + 1,
            maybe_created = t.maybe_created OR t.lease_holder IS NOT NULL
       FROM due
      WHERE t.idempotency_key = due.idempotency_key
      RETURNING ${ROW_COLUMNS.split(', ')
        .map((column) => `t.${column}`)
        .join(', ')}`,
    [holder, leaseMs, limit],
  );
  return parseRows(rows).sort((a, b) => a.submitted_at.localeCompare(b.submitted_at));
}

/** What became of one send. */
export type Outcome =
  | { kind: 'created'; customerId: string }
  | { kind: 'retry'; problem: string; delayMs: number }
  | Extract<Failure, { kind: 'rejected' }>
  | { kind: 'attention'; problem: string; maybeCreated: boolean }
  /** Not sent to the end (the drainer is closing): free for any drainer at once, maybe sent. */
  | { kind: 'released' };

const CLEAR_LEASE = 'lease_holder = NULL, lease_until = NULL';

/** What a drainer writes into the audit log with an outcome: the chain's sealer and the desk's clock. */
export interface OutcomeAudit {
  sealer: AuditSealer;
  now(): Date;
}

/**
 * Records the outcome if `holder` still holds the row; returns the row as written, or undefined. An outcome
 * that ends the row (created, rejected, for a person to look at) is in the team's audit log in the same
 * transaction, as a solo desk records it: `customer.create` under the reviewer who submitted the draft (the
 * store checks that this transaction recorded that draft's outcome), naming the draft and who sent it.
 */
export async function recordOutcome(
  pool: pg.Pool,
  key: string,
  holder: string,
  outcome: Outcome,
  audit: OutcomeAudit,
): Promise<TeamOutboxRow | undefined> {
  const [set, params] = outcomeUpdate(outcome);
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query(
      `UPDATE vetted.team_outbox SET ${CLEAR_LEASE}, ${set}
        WHERE idempotency_key = $1 AND lease_holder = $2
        RETURNING ${ROW_COLUMNS}`,
      [key, holder, ...params],
    );
    const written = parseRows(rows)[0];
    if (written && written.state !== 'queued') {
      await appendAuditEntry(
        client,
        audit.sealer,
        {
          at: isoTime(audit.now()),
          action: 'customer.create',
          customerId: written.state === 'created' ? written.customer_id : null,
          outcome: written.state === 'created' ? 'ok' : written.state,
          detail: '',
        },
        (sender) => ({ actor: written.submitted_by, detail: `draft ${written.draft_id}, sent by ${sender}` }),
      );
    }
    return written;
  });
}

function outcomeUpdate(outcome: Outcome): [string, unknown[]] {
  switch (outcome.kind) {
    case 'created':
      // Who recorded it writes the customer next: if it is gone before that, the repair need not wait.
      return [
        `state = 'created', customer_id = $3, maybe_created = false, last_error = NULL, field_errors = '{}',
         next_attempt_at = NULL, finished_at = now(), recorded_by = $2`,
        [outcome.customerId],
      ];
    case 'retry':
      // Its request may have been processed: the next send replays the key.
      return [
        `maybe_created = true, last_error = $3,
         next_attempt_at = now() + make_interval(secs => $4::double precision / 1000)`,
        [outcome.problem, outcome.delayMs],
      ];
    case 'rejected':
      return [
        `state = 'rejected', maybe_created = false, last_error = $3, field_errors = $4::jsonb,
         duplicate_of = $5, next_attempt_at = NULL, finished_at = now()`,
        [outcome.problem, JSON.stringify(outcome.fields), outcome.duplicateOf],
      ];
    case 'attention':
      return [
        `state = 'attention', maybe_created = $4, last_error = $3, next_attempt_at = NULL, finished_at = now()`,
        [outcome.problem, outcome.maybeCreated],
      ];
    case 'released':
      return ['maybe_created = true', []];
  }
}
