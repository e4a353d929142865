// The one retry the service allows a customer in `retry`: every field again, corrected, with the full SSN.
//
// The full SSN exists in main only while the request is built and sent: it arrives in the handler's input,
// goes into the request body, and both are blanked as soon as the service has answered. It is never stored
// (the journal keeps the last four digits), never logged, never in an error message or an event.
import { randomUUID } from 'node:crypto';
import { type CustomerInput, validateCustomerRetry } from '#contract/customer-rules.ts';
import type { CustomerForm, RetryOutcome, RetryPrefill, RetryWaiting } from '#contract/drafts.ts';
import { oneTimeRetryFailure, refusal, serviceFieldErrors } from '#main/data/failures.ts';
import type { Journal, JournalCustomer, JournalRepositories } from '#main/data/journal/index.ts';
import {
  type Customer,
  type CustomerRetryInput,
  type ServiceClient,
  ServiceError,
} from '#main/data/service/index.ts';
import { queueRowOf } from '#main/sync/reconcile/queue-row.ts';
import type { Reconciler } from '#main/sync/reconcile/reconciler.ts';
import { customerActions } from '../customers/actions.ts';
import type { Approvals } from '../team-interfaces/approvals.ts';
import type { Claims } from '../team-interfaces/claims.ts';
import { customerBody, personalData } from './form.ts';

export interface OneTimeRetryOptions {
  journal: Journal;
  client(): ServiceClient;
  reconciler: Reconciler;
  /** Another reviewer's case is refused before the retry is sent; nobody's becomes this reviewer's. */
  claims: Pick<Claims, 'beforeChange'>;
  /** Four eyes: when the team says so, the retry waits (sealed) for a lead's approval instead of leaving. */
  approvals: Pick<Approvals, 'required' | 'request'>;
}

export interface OneTimeRetry {
  prefill(customerId: string): Promise<RetryPrefill>;
  submit(input: { customerId: string; form: CustomerForm }): Promise<RetryOutcome | RetryWaiting>;
  /**
   * An approved retry, sent by the lead who approved it: the same checks and the same request as `submit`,
   * with the Idempotency-Key the approval gives (stable: derived from the approval's id).
   */
  sendApproved(input: {
    customerId: string;
    form: CustomerForm;
    idempotencyKey: string;
  }): Promise<RetryOutcome>;
}

/** A customer Vetted knows, in `retry`, whose one retry Vetted has not used: or a reason why not. */
async function requireRetryable(journal: JournalRepositories, customerId: string): Promise<JournalCustomer> {
  const customer = await journal.customers.get(customerId);
  if (!customer) throw refusal.unknownCustomer();
  if (await journal.retries.get(customerId)) {
    throw refusal.retryUsed();
  }
  // The status, and the links the service gave with it: nothing is sent unless the service offers a retry.
  const { retry } = customerActions(customer);
  if (!retry.allowed) throw refusal.retryNotAllowed(customer.goneAt ? undefined : retry.reason);
  return customer;
}

export function createOneTimeRetry(options: OneTimeRetryOptions): OneTimeRetry {
  return {
    prefill: (customerId) => prefill(options, customerId),
    submit: (input) => submit(options, input),
    async sendApproved({ customerId, form, idempotencyKey }) {
      try {
        return await send(options, customerId, form, idempotencyKey);
      } finally {
        form.tin = '';
      }
    },
  };
}

async function prefill({ journal }: OneTimeRetryOptions, customerId: string): Promise<RetryPrefill> {
  await requireRetryable(journal, customerId);
  const draft = await journal.drafts.byCustomer(customerId);
  await journal.audit.record({
    action: 'retry.open',
    customerId,
    outcome: draft ? 'prefilled' : 'empty',
  });
  // The SSN is typed in full by the reviewer; the draft only ever held its last four digits anyway.
  const form: CustomerForm = draft ? { ...draft.form, tin: '' } : { type: 'personal', tin: '' };
  return { customerId, form, fromDraft: draft !== undefined };
}

/** Sends the retry at once, or (four eyes) seals it to wait for a lead's approval. */
async function submit(
  options: OneTimeRetryOptions,
  { customerId, form }: { customerId: string; form: CustomerForm },
): Promise<RetryOutcome | RetryWaiting> {
  const { journal, claims, approvals } = options;
  try {
    await claims.beforeChange(customerId);
    if (!(await approvals.required()).retry) return await send(options, customerId, form, randomUUID());
    // Checked as a send would be, so a lead is never asked to approve what cannot leave.
    await journal.transaction(async (tx) => {
      await requireRetryable(tx, customerId);
      requireValid(customerBody(form));
    });
    const waiting = await approvals.request('retry', customerId, JSON.stringify(form));
    // Asked by this reviewer, who never decides their own.
    return { customerId, waiting: { ...waiting, mine: true, canDecide: false } };
  } finally {
    form.tin = '';
  }
}

async function send(
  options: OneTimeRetryOptions,
  customerId: string,
  form: CustomerForm,
  idempotencyKey: string,
): Promise<RetryOutcome> {
  const { journal, client } = options;
  const body = customerBody(form);
  try {
    const personal = { ...body, tin: body.tin?.slice(-4) };
    // Checked and recorded as used in one transaction, before the request leaves: two submits at once, a
    // crash or a lost answer never allow a second one.
    await journal.transaction(async (tx) => {
      await requireRetryable(tx, customerId);
      requireValid(body);
      await tx.retries.record(customerId, null);
    });
    let answer: Customer;
    try {
      answer = await client().customers.retry(customerId, body as CustomerRetryInput, { idempotencyKey });
    } catch (error) {
      return await afterFailure(options, customerId, error, personal);
    }
    return await finish(options, customerId, await customerAfter(options, customerId, answer), personal);
  } finally {
    body.tin = '';
  }
}

/** What the service did with a retry Vetted sent: recorded, and the customer as the service now has it. */
async function finish(
  { journal }: OneTimeRetryOptions,
  customerId: string,
  customer: JournalCustomer | undefined,
  personal: CustomerInput,
): Promise<RetryOutcome> {
  if (!customer) {
    await journal.retries.record(customerId, 'unknown');
    throw oneTimeRetryFailure.unknown();
  }
  await journal.transaction(async (tx) => {
    await tx.retries.record(customerId, customer.status);
    await tx.customers.setPersonal(customerId, personalData(personal));
    await tx.audit.record({ action: 'customer.retry', customerId, outcome: customer.status });
  });
  return { customerId, status: customer.status, customer: queueRowOf(customer) };
}

/** The customer after the retry: fetched again, or as the retry's answer gave it if the fetch fails. */
async function customerAfter(
  { journal, reconciler }: OneTimeRetryOptions,
  customerId: string,
  answer: Customer | undefined,
) {
  try {
    return await reconciler.refresh(customerId, { source: 'poll' });
  } catch {
    return answer && (await journal.customers.upsert(answer, { source: 'poll' })).customer;
  }
}

async function afterFailure(
  options: OneTimeRetryOptions,
  customerId: string,
  error: unknown,
  personal: CustomerInput,
): Promise<RetryOutcome> {
  const { journal } = options;
  if (error instanceof ServiceError && error.is('ValidationError') && error.fields.length > 0) {
    // The service checked the fields and changed nothing: the one retry is still there.
    await journal.transaction(async (tx) => {
      await tx.retries.release(customerId);
      await tx.audit.record({ action: 'customer.retry', customerId, outcome: 'rejected' });
    });
    const { fields } = serviceFieldErrors(error, 'retry');
    throw oneTimeRetryFailure.rejected(fields);
  }
  const customer = await customerAfter(options, customerId, undefined);
  const refused = error instanceof ServiceError && error.is('InvalidResourceState');
  // The answer was lost but the customer has moved on: the retry went through.
  if (!refused && customer && customer.status !== 'retry')
    return finish(options, customerId, customer, personal);
  const outcome = refused ? 'refused' : 'unknown';
  await journal.transaction(async (tx) => {
    await tx.retries.record(customerId, outcome);
    await tx.audit.record({ action: 'customer.retry', customerId, outcome });
  });
  throw refused ? oneTimeRetryFailure.refused() : oneTimeRetryFailure.unknown();
}

function requireValid(body: ReturnType<typeof customerBody>): void {
  const errors = validateCustomerRetry(body);
  if (errors.length > 0) throw refusal.invalid('InvalidRetry', errors);
}
