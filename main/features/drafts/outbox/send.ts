import type { CustomerInput } from '#contract/customer-rules.ts';
import { DeskError } from '#contract/errors.ts';
import type { QueueRow } from '#contract/queue.ts';
import type { Journal, JournalCustomer, JournalRepositories, OutboxEntry } from '#main/data/journal/index.ts';
import { type Customer, isNotFound, NetworkError, type ServiceClient } from '#main/data/service/index.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { queueRowOf } from '#main/sync/reconcile/queue-row.ts';
import { personalData } from '../form.ts';
import { type Backoff, resendDelayMs } from './backoff.ts';
import { classifyFailure, type Failure, isOurs, keyMayBeForgotten } from './classify.ts';
import type { OutcomeWrite } from './group-write.ts';
import type { ProgressTracker } from './progress.ts';
import { type LinkKind, transitions } from './states.ts';
import { unlessAborted } from './unless-aborted.ts';
import type { BodyCache, QueuedDraft, WorkList } from './work.ts';

/** What sending one draft needs from the outbox around it. */
export interface SendContext {
  journal: Journal;
  log: Logger;
  client(): ServiceClient;
  now(): Date;
  random(): number;
  backoff: Backoff;
  /** Aborted when the outbox closes: a send cut short stays queued, and the next start replays its key. */
  signal: AbortSignal;
  /** Outcomes are written in shared transactions (see createOutbox). */
  write<T>(write: OutcomeWrite<T>): Promise<T>;
  bodies: BodyCache;
  progress: ProgressTracker;
  /** The drafts whose request is on its way (the others that are busy have their customer fetched). */
  sending: Set<string>;
  /** The queued drafts, kept in memory. */
  work: WorkList;
  fetchLater(draftId: string, customerId: string): void;
  draftChanged(id: string): void;
  customerChanged(row: QueueRow): void;
}

/** Sending a draft, and what follows from the answer: linking its customer, or recording the failure. */
export function draftSender(ctx: SendContext) {
  return {
    send: (id: string, release: () => void) => send(ctx, id, release),
    fetchCreated: (draftId: string, customerId: string, release: () => void) =>
      fetchCreated(ctx, draftId, customerId, release),
    linkDuplicate: (id: string) => linkDuplicate(ctx, id),
  };
}

/** A promise that gives up (undefined) when the outbox closes; its late result is dropped. */
const unlessClosed = <T>(ctx: SendContext, promise: Promise<T>) => unlessAborted(promise, ctx.signal);

async function send(ctx: SendContext, id: string, release: () => void): Promise<void> {
  ctx.sending.add(id);
  try {
    await attempt(ctx, id, release);
  } finally {
    ctx.sending.delete(id);
  }
}

async function attempt(ctx: SendContext, id: string, release: () => void): Promise<void> {
  const { journal, signal } = ctx;
  const draft = ctx.work.get(id);
  if (!draft || (draft.nextAttemptAt ?? '') > ctx.now().toISOString()) return;
  const body = await ctx.bodies.get(id);
  if (!body) return;
  draft.entry ??= (await journal.outbox.get(id)) ?? (await journal.outbox.ensureKey(id));
  const entry = draft.entry;
  ctx.draftChanged(id);
  let uncertain = entry.maybeCreated;
  try {
    const client = ctx.client();
    if (uncertain && keyMayBeForgotten(entry, ctx.now())) {
      const found = await findOwnCustomer(client, body.email, entry);
      if (signal.aborted) return;
      if (found) return await linkCreated(ctx, draft, found.id, 'found', release, found);
      if (found === null) {
        await transitions.nothingCreated(journal, id);
        draft.entry = { ...entry, maybeCreated: false };
        uncertain = false;
      }
    }
    const created = await client.customers.create(body, { idempotencyKey: entry.idempotencyKey, signal });
    await linkCreated(ctx, draft, created.id, 'created', release);
  } catch (error) {
    if (signal.aborted) return; // stays queued; the next start replays the key
    await recordFailure(ctx, draft, entry, uncertain, error, release);
  }
}

async function recordFailure(
  ctx: SendContext,
  draft: QueuedDraft,
  entry: OutboxEntry,
  uncertain: boolean,
  error: unknown,
  release: () => void,
): Promise<void> {
  const failure = classifyFailure(error);
  if (
    failure.kind === 'rejected' &&
    failure.duplicateOf &&
    uncertain &&
    keyMayBeForgotten(entry, ctx.now())
  ) {
    // Our own earlier send may have created it, and the service no longer remembers the key.
    const existing = await unlessClosed(ctx, fetchCustomer(ctx.client(), failure.duplicateOf));
    if (ctx.signal.aborted) return;
    if (existing && isOurs(existing, entry)) {
      return linkCreated(ctx, draft, existing.id, 'found', release, existing);
    }
  }
  release();
  // No longer in flight: the update below must say "queued", not "sending".
  ctx.sending.delete(draft.id);
  if (failure.kind === 'retry') return resendLater(ctx, draft, entry, failure, error);
  ctx.bodies.delete(draft.id);
  if (failure.kind === 'attention' && failure.unexpected) {
    ctx.log.error('outbox: unexpected failure', { draftId: draft.id, ...describeError(error) });
  }
  await ctx.write((tx) => transitions.stopped(tx, draft.id, failure, uncertain));
  ctx.work.done(draft.id);
  ctx.draftChanged(draft.id);
  ctx.progress.settle(draft.id);
}

/** A failure worth sending again: the draft stays queued, with its key, until its backoff has passed. */
async function resendLater(
  ctx: SendContext,
  draft: QueuedDraft,
  entry: OutboxEntry,
  failure: Extract<Failure, { kind: 'retry' }>,
  error: unknown,
): Promise<void> {
  const attempts = draft.attempts + 1;
  const delay = resendDelayMs(attempts, ctx.backoff, ctx.random);
  const nextAttemptAt = new Date(ctx.now().getTime() + delay).toISOString();
  ctx.work.backOff(draft, attempts, nextAttemptAt);
  draft.entry = { ...entry, attempts: entry.attempts + 1, maybeCreated: true };
  await ctx.write((tx) => transitions.resendLater(tx, draft.id, attempts, nextAttemptAt, failure.problem));
  ctx.draftChanged(draft.id);
  // "Cannot be reached" is the outbox's one banner: the bar repeats only the other reasons to wait.
  if (!(error instanceof NetworkError)) ctx.progress.waiting(failure.problem);
}

/**
 * The draft is its customer's: the customer is fetched (as any client would after a create) while the
 * draft keeps its slot, and the link and the customer are written together. A customer that cannot be
 * fetched now is fetched later (`fetchCreated`), and the next start fetches what was not recorded.
 */
async function linkCreated(
  ctx: SendContext,
  draft: QueuedDraft,
  customerId: string,
  how: Exclude<LinkKind, 'linked'>,
  release: () => void,
  known?: Customer,
) {
  const { signal } = ctx;
  const body = await ctx.bodies.get(draft.id);
  const fetched =
    known ??
    (body && !signal.aborted ? await unlessClosed(ctx, fetchCustomer(ctx.client(), customerId)) : undefined);
  release();
  const customer = await ctx.write(async (tx) => {
    await transitions.created(tx, draft.id, customerId, how);
    if (!fetched || !body) return undefined;
    // A customer that cannot be recorded now leaves the link written; it is fetched again later.
    return tx.transaction((inner) => storeCustomer(inner, body, fetched, 'created')).catch(() => undefined);
  });
  ctx.work.done(draft.id);
  if (customer) {
    ctx.bodies.delete(draft.id);
    ctx.customerChanged(queueRowOf(customer));
  } else if (!signal.aborted) ctx.fetchLater(draft.id, customerId);
  ctx.draftChanged(draft.id);
  ctx.progress.settle(draft.id);
}

/** GET a created draft's customer and record it with the personal data of its draft. */
async function fetchCreated(
  ctx: SendContext,
  draftId: string,
  customerId: string,
  release: () => void,
): Promise<void> {
  const fetched = await unlessClosed(ctx, fetchCustomer(ctx.client(), customerId));
  release();
  const body = await ctx.bodies.get(draftId);
  if (!fetched || !body || ctx.signal.aborted) return; // fetched again on the next start
  ctx.bodies.delete(draftId);
  const customer = await ctx.write((tx) => storeCustomer(tx, body, fetched, 'created'));
  ctx.customerChanged(queueRowOf(customer));
}

async function storeCustomer(
  tx: JournalRepositories,
  form: CustomerInput,
  fetched: Customer,
  how: LinkKind,
): Promise<JournalCustomer> {
  if (how !== 'linked') {
    // Ours: recorded with its draft's personal data in one write.
    return (await tx.customers.upsert(fetched, { source: 'created' }, personalData(form))).customer;
  }
  const { customer } = await tx.customers.upsert(fetched, { source: 'poll' });
  // A customer someone else created keeps the personal data Vetted may hold for it.
  if (!(await tx.customers.personal(customer.id))) {
    await tx.customers.setPersonal(customer.id, personalData(form));
  }
  return customer;
}

/** Links a draft rejected as a `Duplicate` to the existing customer. */
async function linkDuplicate(ctx: SendContext, id: string): Promise<void> {
  const { journal } = ctx;
  const draft = await journal.drafts.get(id);
  const duplicateOf = (await journal.outbox.get(id))?.duplicateOf;
  if (draft?.state !== 'rejected' || !duplicateOf) {
    throw new DeskError('NotDuplicate', 'This draft was not rejected for an e-mail already in use.');
  }
  let existing: Customer;
  try {
    existing = await ctx.client().customers.get(duplicateOf);
  } catch (error) {
    if (isNotFound(error)) {
      throw new DeskError(
        'NotFound',
        'The customer with this e-mail no longer exists. Submit the draft again.',
      );
    }
    throw error;
  }
  const customer = await ctx.write(async (tx) => {
    await transitions.created(tx, id, existing.id, 'linked');
    return storeCustomer(tx, draft.form, existing, 'linked');
  });
  ctx.customerChanged(queueRowOf(customer));
  ctx.draftChanged(id);
}

/**
 * Our customer, found by its e-mail; null when the service says no customer of ours has it; undefined when
 * it cannot tell (no customer list).
 */
export async function findOwnCustomer(
  client: ServiceClient,
  email: string,
  entry: OutboxEntry,
): Promise<Customer | null | undefined> {
  const page = await client.customers.list({ email, limit: 10 });
  if ('unsupported' in page) return undefined;
  const match = page.customers.find(
    (customer) => customer.email.toLowerCase() === email.trim().toLowerCase(),
  );
  return match && isOurs(match, entry) ? match : null;
}

/** The customer, or undefined if it cannot be fetched now (it is fetched again on the next start). */
async function fetchCustomer(client: ServiceClient, id: string): Promise<Customer | undefined> {
  try {
    return await client.customers.get(id);
  } catch {
    return undefined;
  }
}
