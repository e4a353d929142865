// Sending one leased row of the team outbox and deciding what its answer means, with the same rules as the
// desk's own outbox (classify.ts): the row's key is replayed as it is, so a row sent twice (a drainer died
// after sending it) gets the service's first answer, never a second customer.
import type { CustomerForm } from '#contract/drafts.ts';
import { toOutboxEntry } from '#main/data/journal/drafts.ts';
import type { OutboxEntry } from '#main/data/journal/index.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type {
  Customer,
  ServiceClient,
  CustomerInput as ServiceCustomerInput,
} from '#main/data/service/index.ts';
import { customerBody } from '#main/features/drafts/form.ts';
import { type Backoff, DEFAULT_BACKOFF, resendDelayMs } from '#main/features/drafts/outbox/backoff.ts';
import { classifyFailure, isOurs, keyMayBeForgotten } from '#main/features/drafts/outbox/classify.ts';
import { findOwnCustomer } from '#main/features/drafts/outbox/send.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import type { Outcome } from './lease.ts';
import { openForm, type TeamOutboxRow } from './rows.ts';

export interface SendRowContext {
  cipher: PersonalCipher;
  client(): ServiceClient;
  log: Logger;
  now(): Date;
  backoff?: Backoff;
  random?: () => number;
}

export interface Sent {
  outcome: Outcome;
  /** The customer, when it was found (rather than created: fetching it is up to the caller). */
  customer?: Customer;
  form?: CustomerForm;
}

export async function sendRow(ctx: SendRowContext, row: TeamOutboxRow): Promise<Sent> {
  let form: CustomerForm;
  try {
    form = openForm(ctx.cipher, row);
  } catch (error) {
    // A desk with another team key cannot read it; one with the right key can: leave it to them.
    ctx.log.error('team outbox: a draft cannot be opened with this team key', {
      draftId: row.draft_id,
      ...describeError(error),
    });
    return { outcome: retry(ctx, row, 'This desk cannot read the draft: its team key is not the team’s.') };
  }
  // Checked with the contract rules on the desk that submitted it.
  const body = customerBody(form) as ServiceCustomerInput;
  const entry = toOutboxEntry(row);
  let uncertain = entry.maybeCreated;
  try {
    const client = ctx.client();
    if (uncertain && keyMayBeForgotten(entry, ctx.now())) {
      // The service may have forgotten the key: a replay could create the customer a second time.
      const found = await findOwnCustomer(client, body.email ?? '', entry);
      if (found) return { outcome: { kind: 'created', customerId: found.id }, customer: found, form };
      if (found === null) uncertain = false;
    }
    const created = await client.customers.create(body, { idempotencyKey: row.idempotency_key });
    return { outcome: { kind: 'created', customerId: created.id }, form };
  } catch (error) {
    return { ...(await failed(ctx, row, entry, uncertain, error)), form };
  }
}

async function failed(
  ctx: SendRowContext,
  row: TeamOutboxRow,
  entry: OutboxEntry,
  uncertain: boolean,
  error: unknown,
): Promise<Sent> {
  const failure = classifyFailure(error);
  switch (failure.kind) {
    case 'retry':
      return { outcome: retry(ctx, row, failure.problem) };
    case 'rejected': {
      if (failure.duplicateOf && uncertain && keyMayBeForgotten(entry, ctx.now())) {
        // Our own earlier send may have created it, and the service no longer remembers the key.
        const existing = await ctx
          .client()
          .customers.get(failure.duplicateOf)
          .catch(() => undefined);
        if (existing && isOurs(existing, entry)) {
          return { outcome: { kind: 'created', customerId: existing.id }, customer: existing };
        }
      }
      return { outcome: failure };
    }
    case 'attention':
      if (failure.unexpected) {
        ctx.log.error('team outbox: unexpected failure', { draftId: row.draft_id, ...describeError(error) });
      }
      return {
        outcome: {
          kind: 'attention',
          problem: failure.problem,
          maybeCreated: uncertain || failure.processed,
        },
      };
  }
}

function retry(ctx: SendRowContext, row: TeamOutboxRow, problem: string): Outcome {
  const delayMs = resendDelayMs(row.attempts, ctx.backoff ?? DEFAULT_BACKOFF, ctx.random ?? Math.random);
  return { kind: 'retry', problem, delayMs };
}
