// The service's answers to a drainer's sends, recorded while the drainer holds the row (lease.ts); an answer
// that cannot be recorded now is kept and recorded again at the next passes.
import type pg from 'pg';
import type { CustomerForm } from '#contract/drafts.ts';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import type { Customer, ServiceClient } from '#main/data/service/index.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { type Outcome, recordOutcome } from './lease.ts';
import type { TeamOutboxRow } from './rows.ts';
import type { Sent } from './send.ts';

export interface Answers {
  readonly pool: pg.Pool;
  readonly holder: string;
  readonly sealer: AuditSealer;
  readonly log: Logger;
  now(): Date;
  client(): ServiceClient;
  onCreated?(customer: Customer, row: TeamOutboxRow, form: CustomerForm | undefined): void | Promise<void>;
  /** Whether the drainer is closing: a retry is then let go of, and an answer not recorded is not kept. */
  closing(): boolean;
  /** Answers the service gave whose recording failed, by idempotency key: recorded again at each pass. */
  readonly unrecorded: Map<string, { row: TeamOutboxRow; sent: Sent }>;
}

/**
 * Records the service's answer while this drainer holds the row. One that cannot be recorded now (the
 * store went away between the request and its answer) is kept and recorded at the next passes: this
 * drainer is alive, so no other takes the row before its lease runs out, and the draft would otherwise
 * wait out the whole lease to be sent again for an answer already known.
 */
export async function record(answers: Answers, row: TeamOutboxRow, sent: Sent): Promise<void> {
  const { unrecorded, onCreated } = answers;
  const key = row.idempotency_key;
  const outcome: Outcome =
    answers.closing() && sent.outcome.kind === 'retry' ? { kind: 'released' } : sent.outcome;
  let written: TeamOutboxRow | undefined;
  try {
    written = await recordOutcome(answers.pool, key, answers.holder, outcome, {
      sealer: answers.sealer,
      now: answers.now,
    });
  } catch (error) {
    if (!answers.closing()) unrecorded.set(key, { row, sent });
    throw error;
  }
  unrecorded.delete(key);
  if (!written) {
    answers.log.info('team outbox: lease lost before the answer was recorded', { draftId: row.draft_id });
    return;
  }
  if (written.state !== 'created' || !written.customer_id || !onCreated) return;
  // Read back as any client would after a create; one that cannot be read now reaches the desks later.
  const customer = sent.customer ?? (await answers.client().customers.get(written.customer_id));
  await onCreated(customer, written, sent.form);
}

/** The answers kept since their recording failed, recorded again; false while the store still refuses. */
export async function recordKept(answers: Answers): Promise<boolean> {
  for (const { row, sent } of [...answers.unrecorded.values()]) {
    try {
      await record(answers, row, sent);
    } catch (error) {
      // Still away: the rest waits for the next pass. Recorded but not read back: logged, as a send's is.
      if (answers.unrecorded.has(row.idempotency_key)) return false;
      answers.log.warn(
        'team outbox: a kept answer was recorded, its customer not read back',
        describeError(error),
      );
    }
  }
  return true;
}
