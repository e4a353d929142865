// The outbox: submits drafts to `POST /customers` exactly once, whatever fails and whenever Vetted stops.
//
// Exactly once rests on one rule: a draft's Idempotency-Key is stored (committed) before any request leaves
// with it, and every send of that draft reuses it until the service has answered in a way that proves nothing
// was created. The service replays the original answer for 24 h, so a lost answer, a crash or a kill at any
// moment only ever leads to the same key being sent again. After 24 h the service forgets the key: then Vetted
// looks for the customer first (the list by e-mail, or the `Duplicate` error's `about` link) instead of
// re-posting blindly.
//
// Durable writes are kept to what that rule needs: drafts are queued with their keys a chunk per transaction,
// and outcomes are written in transactions shared by the drafts that finish together (`groupCommit`).
// "sending" lives in memory only: after a restart every queued draft counts as possibly sent, which costs
// nothing but a replay.
import {
  CUSTOMER_FIELDS,
  type CustomerInput,
  validateCustomerCreate,
} from '../../contract/customer-rules.ts';
import type { Progress } from '../../contract/customers.ts';
import type { DraftState, SubmitResult } from '../../contract/drafts.ts';
import { DeskError } from '../../contract/errors.ts';
import type { QueueRow } from '../../contract/queue.ts';
import { toQueueRow } from '../customers/reconcile.ts';
import { errorFields, sendFailure, serviceFieldErrors } from '../failures.ts';
import type {
  Draft,
  DraftSummary,
  Journal,
  JournalCustomer,
  OutboxEntry,
  PersonalData,
} from '../journal/index.ts';
import { describeError, type Logger } from '../log.ts';
import {
  type Customer,
  NetworkError,
  NotConfiguredError,
  type ServiceClient,
  type CustomerInput as ServiceCustomerInput,
  ServiceError,
} from '../service/index.ts';

export const DEFAULT_OUTBOX_CONCURRENCY = 8;
const DUE_BATCH = 64;
const FIRST_CHUNK = 16;
const SUBMIT_CHUNK = 200;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** The service keeps a key 24 h from its first use; an hour less leaves room for the two clocks to differ. */
export const KEY_TRUSTED_MS = 23 * HOUR_MS;
/** A customer the service created (by its clock) after our key existed, give or take the clocks, is ours. */
const CLOCK_SKEW_MS = 10 * MINUTE_MS;

export interface Backoff {
  baseMs: number;
  maxMs: number;
}
export const DEFAULT_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 60_000 };

export interface OutboxOptions {
  journal: Journal;
  /** The current service client; throws `NotConfiguredError` when no service is set up. */
  client(): ServiceClient;
  log: Logger;
  /** False while no service is configured: drafts stay queued, no attempt is spent. */
  canSend?(): boolean;
  /** A draft's state changed (or its retry was rescheduled). */
  onDraftChange?(draftId: string): void;
  /** A customer row the queue shows was written. */
  onCustomerChange?(row: QueueRow): void;
  onProgress?(progress: Progress): void;
  concurrency?: number;
  backoff?: Partial<Backoff>;
  // Injectable for tests.
  random?: () => number;
  now?: () => Date;
}

export interface OutboxActivity {
  inFlight: number;
  draining: boolean;
  nextAttemptAt: string | null;
}

export interface Outbox {
  /** Checks each draft with the contract rules and queues the valid ones, each with its key. */
  submit(ids: readonly string[]): Promise<SubmitResult>;
  /** "Try again" on a draft that needs attention. */
  tryAgain(id: string): Promise<void>;
  /** Links a draft rejected as a `Duplicate` to the existing customer. */
  linkDuplicate(id: string): Promise<void>;
  /** After start-up and every (re)connection: send what is queued now, fetch customers not yet fetched. */
  resume(): void;
  /** The service answers again: queued drafts need not wait for their backoff. */
  wake(): void;
  isSending(id: string): boolean;
  activity(): OutboxActivity;
  /** Resolves once no draft is queued or in flight (tests, bench; never while offline). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The states from which a draft may change: nothing can have been created from it. */
export function isEditable(state: DraftState, entry: OutboxEntry | undefined): boolean {
  if (state === 'draft' || state === 'rejected') return true;
  return state === 'attention' && !entry?.maybeCreated;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { journal, log } = options;
  const concurrency = options.concurrency ?? DEFAULT_OUTBOX_CONCURRENCY;
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const canSend = options.canSend ?? (() => true);
  const draftChanged = (id: string) => options.onDraftChange?.(id);

  const progress = progressTracker((p) => options.onProgress?.(p));
  const shutdown = new AbortController();
  const closedSignal = new Promise<undefined>((resolve) =>
    shutdown.signal.addEventListener('abort', () => resolve(undefined), { once: true }),
  );
  const write = groupCommit(journal);
  /** Drafts being sent, or whose outcome is not written yet: never picked twice. */
  const busy = new Set<string>();
  /** The busy drafts that are being sent (the others' customers are being fetched). */
  const sending = new Set<string>();
  const tasks = new Set<Promise<void>>();
  /** Created drafts whose customer the journal does not hold yet: fetched when no draft waits to be sent. */
  const toFetch = new Map<string, string>();
  /** Request bodies of drafts this process validated, so that sending them needs no second decryption. */
  const bodies = new Map<string, ServiceCustomerInput>();
  let dueBuffer: string[] = [];
  let slotsInUse = 0;
  const settledWaiters: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;

  // Whatever Vetted was doing when it last stopped, any queued draft may have been sent.
  journal.transaction(() => {
    journal.drafts.requeueSending();
    journal.outbox.assumeQueuedSent();
  });

  /** A promise that gives up (undefined) when the outbox closes; its late result is dropped. */
  const unlessClosed = <T>(promise: Promise<T>): Promise<T | undefined> => {
    promise.catch(() => {});
    return Promise.race([promise, closedSignal]);
  };

  // ---- Queueing ------------------------------------------------------------------------------

  function enqueue(draft: Draft): void {
    // A key that may have created the customer is kept: only its replay can tell. Otherwise every request
    // with it was answered without creating anything, and the (corrected) form is a new request.
    journal.outbox.issueKey(draft.id);
    journal.drafts.update(draft.id, {
      state: 'queued',
      fieldErrors: {},
      lastError: null,
      attempts: 0,
      nextAttemptAt: null,
    });
  }

  /** Validates one draft and queues it with its key if it passes; says which in `result`. */
  function admit(id: string, today: Date, result: SubmitResult): boolean {
    const draft = journal.drafts.get(id);
    if (!draft) {
      result.skipped.push({ id, reason: 'Vetted has no such draft.' });
      return false;
    }
    if (!isEditable(draft.state, journal.outbox.get(id))) {
      result.skipped.push({ id, reason: `It cannot be submitted while ${draft.state}.` });
      return false;
    }
    const body = customerBody(draft.form);
    const errors = validateCustomerCreate(body, { today });
    if (errors.length > 0) {
      result.invalid.push({ id, errors });
      return false;
    }
    enqueue(draft);
    bodies.set(id, body as ServiceCustomerInput);
    result.queued.push(id);
    return true;
  }

  async function submit(ids: readonly string[]): Promise<SubmitResult> {
    const result: SubmitResult = { queued: [], invalid: [], skipped: [] };
    const unique = [...new Set(ids)];
    const today = now();
    // The bar counts every draft submitted; a refused one is done at once.
    progress.hold();
    progress.add(unique);
    try {
      // A small first chunk gets requests going at once; then larger ones, each one transaction (one sync).
      for (let start = 0, size = FIRST_CHUNK; start < unique.length; start += size, size = SUBMIT_CHUNK) {
        // Between chunks, answers come in and requests go out.
        if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const chunk = unique.slice(start, start + size);
        if (shutdown.signal.aborted) {
          result.skipped.push(...chunk.map((id) => ({ id, reason: 'Vetted is closing.' })));
          continue;
        }
        // Each chunk's keys are committed before any of its requests leaves.
        const admitted = journal.transaction(() => chunk.filter((id) => admit(id, today, result)));
        const refused = new Set(chunk);
        for (const id of admitted) refused.delete(id);
        for (const id of refused) progress.settle(id);
        queued(admitted);
      }
    } finally {
      progress.release();
    }
    return result;
  }

  function queued(ids: readonly string[]): void {
    if (ids.length === 0) return;
    for (const id of ids) draftChanged(id);
    pump();
  }

  async function tryAgain(id: string): Promise<void> {
    const draft = journal.drafts.summary(id);
    if (!draft) throw new DeskError('NotFound', 'Vetted has no such draft.');
    if (draft.state !== 'attention') {
      throw new DeskError('NotNeeded', 'Only a draft that needs attention can be tried again.');
    }
    if (journal.outbox.get(id)?.maybeCreated) {
      // The same key and the same form: the service answers with what it did the first time, if anything.
      journal.drafts.update(id, { state: 'queued', lastError: null, attempts: 0, nextAttemptAt: null });
      progress.add([id]);
      queued([id]);
      return;
    }
    const { invalid } = await submit([id]);
    if (invalid[0]) {
      throw new DeskError(
        'InvalidDraft',
        'Correct the highlighted fields first.',
        errorFields(invalid[0].errors),
      );
    }
  }

  // ---- The pump: at most `concurrency` requests at a time --------------------------------------

  function pump(): void {
    if (shutdown.signal.aborted || !canSend()) return;
    while (slotsInUse < concurrency) {
      const id = nextDue();
      if (id) {
        sending.add(id);
        start(id, (release) => send(id, release).finally(() => sending.delete(id)));
      } else {
        const next = nextFetch();
        if (!next) break;
        start(next.draftId, (release) => fetchCreated(next.draftId, next.customerId, release));
      }
    }
    scheduleNext();
    checkSettled();
  }

  /**
   * Runs one job in a slot. The job releases its slot as soon as the service has answered, so the next
   * request leaves while the outcome waits for its (shared) write; the draft stays busy until written.
   */
  function start(id: string, job: (release: () => void) => Promise<void>): void {
    slotsInUse++;
    busy.add(id);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      slotsInUse--;
      pump();
    };
    const task = job(release)
      .catch((error: unknown) => {
        if (!shutdown.signal.aborted) log.error('outbox: a job failed', describeError(error));
      })
      .finally(() => {
        busy.delete(id);
        tasks.delete(task);
        if (released) pump();
        else release();
      });
    tasks.add(task);
  }

  /** Due drafts are read a batch at a time; `send` checks each again before it goes. */
  function nextDue(): string | undefined {
    let id = dueBuffer.shift();
    while (id !== undefined && busy.has(id)) id = dueBuffer.shift();
    if (id !== undefined) return id;
    dueBuffer = journal.drafts
      .due(now().toISOString(), busy.size + DUE_BATCH)
      .filter((due) => !busy.has(due));
    return dueBuffer.shift();
  }

  function bodyOf(id: string): ServiceCustomerInput | undefined {
    let body = bodies.get(id);
    if (!body) {
      const draft = journal.drafts.get(id);
      body = draft && (customerBody(draft.form) as ServiceCustomerInput);
      if (body) bodies.set(id, body);
    }
    return body;
  }

  function nextFetch(): { draftId: string; customerId: string } | undefined {
    for (const [draftId, customerId] of toFetch) {
      if (busy.has(draftId)) continue;
      toFetch.delete(draftId);
      return { draftId, customerId };
    }
    return undefined;
  }

  function scheduleNext(): void {
    clearTimeout(timer);
    timer = undefined;
    const next = journal.drafts.nextAttemptAfter(now().toISOString());
    if (!next || shutdown.signal.aborted) return;
    timer = setTimeout(pump, Math.max(0, Date.parse(next) - now().getTime()));
    timer.unref();
  }

  // ---- One draft -------------------------------------------------------------------------------

  async function send(id: string, release: () => void): Promise<void> {
    const draft = journal.drafts.summary(id);
    if (draft?.state !== 'queued' || (draft.nextAttemptAt ?? '') > now().toISOString()) return;
    const body = bodyOf(id);
    if (!body) return;
    const entry = journal.outbox.get(id) ?? journal.outbox.ensureKey(id);
    draftChanged(id);
    let uncertain = entry.maybeCreated;
    try {
      const client = options.client();
      if (uncertain && keyMayBeForgotten(entry, now())) {
        const found = await findOwnCustomer(client, body.email, entry);
        if (shutdown.signal.aborted) return;
        if (found) return await linkCreated(draft, found.id, 'found', release);
        if (found === null) {
          // No customer has this e-mail: the earlier sends created nothing, and the key is forgotten.
          journal.outbox.setMaybeCreated(id, false);
          uncertain = false;
        }
      }
      const created = await client.customers.create(body, {
        idempotencyKey: entry.idempotencyKey,
        signal: shutdown.signal,
      });
      await linkCreated(draft, created.id, 'created', release);
    } catch (error) {
      if (shutdown.signal.aborted) return; // stays queued; the next start replays the key
      await recordFailure(draft, entry, uncertain, error, release);
    }
  }

  async function recordFailure(
    draft: DraftSummary,
    entry: OutboxEntry,
    uncertain: boolean,
    error: unknown,
    release: () => void,
  ): Promise<void> {
    const failure = classifyFailure(error);
    if (failure.kind === 'rejected' && failure.duplicateOf && uncertain && keyMayBeForgotten(entry, now())) {
      // Our own earlier send may have created it, and the service no longer remembers the key.
      const existing = await unlessClosed(fetchCustomer(options.client(), failure.duplicateOf));
      if (shutdown.signal.aborted) return;
      if (existing && isOurs(existing, entry)) return linkCreated(draft, existing.id, 'found', release);
    }
    release();
    // No longer in flight: the update below must say "queued", not "sending".
    sending.delete(draft.id);
    if (failure.kind !== 'retry') bodies.delete(draft.id);
    if (failure.kind === 'retry') {
      const attempts = draft.attempts + 1;
      const nextAttemptAt = new Date(now().getTime() + retryDelayMs(attempts, backoff, random)).toISOString();
      await write(() => {
        journal.outbox.recordAttempt(draft.id, { maybeCreated: true });
        journal.drafts.update(draft.id, { attempts, nextAttemptAt, lastError: failure.problem });
      });
      draftChanged(draft.id);
      progress.waiting(failure.problem);
      return;
    }
    if (failure.kind === 'attention' && failure.unexpected) {
      log.error('outbox: unexpected failure', { draftId: draft.id, ...describeError(error) });
    }
    await write(() => {
      if (failure.kind === 'rejected') {
        journal.outbox.recordAttempt(draft.id, { maybeCreated: false, duplicateOf: failure.duplicateOf });
        journal.drafts.update(draft.id, {
          state: 'rejected',
          fieldErrors: failure.fields,
          lastError: failure.problem,
          nextAttemptAt: null,
        });
      } else {
        journal.outbox.recordAttempt(draft.id, { maybeCreated: uncertain || failure.processed });
        journal.drafts.update(draft.id, {
          state: 'attention',
          lastError: failure.problem,
          nextAttemptAt: null,
        });
      }
      journal.audit.record({ action: 'customer.create', outcome: failure.kind, detail: `draft ${draft.id}` });
    });
    draftChanged(draft.id);
    progress.settle(draft.id);
  }

  /** The draft is its customer's: linked at once; the customer itself is fetched next (`fetchCreated`). */
  async function linkCreated(
    draft: DraftSummary,
    customerId: string,
    how: Exclude<LinkKind, 'linked'>,
    release: () => void,
  ) {
    release();
    await write(() => {
      journal.drafts.update(draft.id, {
        state: 'created',
        customerId,
        fieldErrors: {},
        lastError: null,
        nextAttemptAt: null,
      });
      journal.outbox.recordAttempt(draft.id, { maybeCreated: false });
      journal.audit.record({
        action: LINK_AUDIT[how],
        customerId,
        outcome: 'ok',
        detail: `draft ${draft.id}`,
      });
    });
    toFetch.set(draft.id, customerId);
    draftChanged(draft.id);
    progress.settle(draft.id);
  }

  /** GET the new customer and record it with the personal data of its draft. */
  async function fetchCreated(draftId: string, customerId: string, release: () => void): Promise<void> {
    const fetched = await unlessClosed(fetchCustomer(options.client(), customerId));
    release();
    const body = bodyOf(draftId);
    if (!fetched || !body || shutdown.signal.aborted) return; // fetched again on the next start
    bodies.delete(draftId);
    const customer = await write(() => storeCustomer(body, fetched, 'created'));
    options.onCustomerChange?.(toQueueRow(customer));
  }

  function storeCustomer(form: CustomerInput, fetched: Customer, how: LinkKind): JournalCustomer {
    const { customer } = journal.customers.upsert(fetched, { source: how === 'linked' ? 'poll' : 'created' });
    // A customer someone else created keeps the personal data Vetted may hold for it.
    if (how !== 'linked' || !journal.customers.personal(customer.id)) {
      journal.customers.setPersonal(customer.id, personalData(form));
    }
    return customer;
  }

  async function linkDuplicate(id: string): Promise<void> {
    const draft = journal.drafts.get(id);
    const duplicateOf = journal.outbox.get(id)?.duplicateOf;
    if (draft?.state !== 'rejected' || !duplicateOf) {
      throw new DeskError('NotDuplicate', 'This draft was not rejected for an e-mail already in use.');
    }
    let existing: Customer;
    try {
      existing = await options.client().customers.get(duplicateOf);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) {
        throw new DeskError(
          'NotFound',
          'The customer with this e-mail no longer exists. Submit the draft again.',
        );
      }
      throw error;
    }
    const customer = await write(() => {
      journal.drafts.update(id, {
        state: 'created',
        customerId: existing.id,
        fieldErrors: {},
        lastError: null,
      });
      journal.audit.record({
        action: LINK_AUDIT.linked,
        customerId: existing.id,
        outcome: 'ok',
        detail: `draft ${id}`,
      });
      return storeCustomer(draft.form, existing, 'linked');
    });
    options.onCustomerChange?.(toQueueRow(customer));
    draftChanged(id);
  }

  // ---- Lifecycle -----------------------------------------------------------------------------

  function checkSettled(): void {
    if (busy.size > 0 || toFetch.size > 0 || journal.drafts.countByState().queued > 0) return;
    for (const resolve of settledWaiters.splice(0)) resolve();
  }

  return {
    submit,
    tryAgain,
    linkDuplicate,
    resume() {
      if (shutdown.signal.aborted || !canSend()) return;
      journal.drafts.clearBackoff();
      for (const { id, customerId } of journal.drafts.createdWithoutCustomer()) toFetch.set(id, customerId);
      progress.add(journal.drafts.due(now().toISOString(), Number.MAX_SAFE_INTEGER));
      pump();
    },
    wake() {
      journal.drafts.clearBackoff();
      pump();
    },
    isSending: (id) => sending.has(id),
    activity() {
      const nextAttemptAt = journal.drafts.nextAttemptAfter(now().toISOString());
      const queuedNow = journal.drafts.countByState().queued;
      return { inFlight: sending.size, draining: sending.size > 0 || queuedNow > 0, nextAttemptAt };
    },
    settled() {
      const done = new Promise<void>((resolve) => settledWaiters.push(resolve));
      checkSettled();
      return done;
    },
    async close() {
      shutdown.abort();
      clearTimeout(timer);
      await Promise.allSettled([...tasks]);
      bodies.clear();
    },
  };
}

// ---- The form as the service takes it -------------------------------------------------------

/** The request body: the form's fields as typed, blank ones left out (the rules treat both alike). */
export function customerBody(form: CustomerInput): CustomerInput {
  const body: CustomerInput = {};
  for (const field of CUSTOMER_FIELDS) {
    const value = form[field];
    if (value !== undefined && value.trim() !== '') body[field] = value;
  }
  return body;
}

/** What the journal keeps (encrypted) of a validated form: never more than the SSN's last four digits. */
export function personalData(form: CustomerInput): PersonalData {
  const {
    address1 = '',
    address2,
    city = '',
    state = '',
    postalCode = '',
    dateOfBirth = '',
    tin = '',
  } = form;
  return {
    address: { address1, ...(address2?.trim() ? { address2 } : {}), city, state, postalCode },
    dateOfBirth,
    ssnLastFour: tin.slice(-4),
  };
}

// ---- Outcomes ---------------------------------------------------------------------------------

type LinkKind = 'created' | 'found' | 'linked';
const LINK_AUDIT: Record<LinkKind, string> = {
  created: 'customer.create',
  found: 'customer.create.found',
  linked: 'draft.linkDuplicate',
};

type Failure =
  | { kind: 'retry'; problem: string }
  | { kind: 'rejected'; problem: string; fields: Record<string, string>; duplicateOf: string | null }
  /** `processed`: the service may have acted on the request although it did not say so. */
  | { kind: 'attention'; problem: string; processed: boolean; unexpected?: boolean };

/** Sorts a failed send: try again later, the form is wrong, or a person must look. */
export function classifyFailure(error: unknown): Failure {
  if (error instanceof NetworkError || error instanceof NotConfiguredError) {
    return { kind: 'retry', problem: sendFailure.willResend(error) };
  }
  if (!(error instanceof ServiceError)) {
    return { kind: 'attention', problem: sendFailure.unexpected, processed: true, unexpected: true };
  }
  if (error.is('Conflict')) return { kind: 'retry', problem: sendFailure.stillWorking };
  // Refused credentials: every draft would fail alike, so they wait for Settings rather than each needing a click.
  if (error.status === 401) return { kind: 'retry', problem: sendFailure.credentialsRefused(error) };
  if (error.retryable) return { kind: 'retry', problem: sendFailure.willResend(error) };
  const keyReused = error.fields.some((field) => field.path === '/' || field.path === '');
  if (error.is('ValidationError') && error.fields.length > 0 && !keyReused) {
    const { fields, duplicateOf } = serviceFieldErrors(error, 'create');
    return { kind: 'rejected', problem: sendFailure.rejected(fields, duplicateOf), fields, duplicateOf };
  }
  return {
    kind: 'attention',
    problem: sendFailure.needsAttention(error, keyReused),
    processed: keyReused || error.status < 300,
  };
}

function keyMayBeForgotten(entry: OutboxEntry, now: Date): boolean {
  return now.getTime() - Date.parse(entry.keyCreatedAt) >= KEY_TRUSTED_MS;
}

/** A customer created after this draft's key existed (its e-mail being unique, the one we may have made). */
function isOurs(customer: Customer, entry: OutboxEntry): boolean {
  return Date.parse(customer.created) >= Date.parse(entry.keyCreatedAt) - CLOCK_SKEW_MS;
}

/**
 * Our customer, found by its e-mail; null when the service says no customer of ours has it; undefined when
 * it cannot tell (no customer list).
 */
async function findOwnCustomer(
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

/**
 * Outcomes are written in shared transactions: the journal syncs every commit to disk, and that sync, not the
 * network, would otherwise set the pace (node:sqlite blocks the thread for it). A write waits at most
 * `windowMs` for others to join it, or until `maxBatch` have. Nothing here needs to be on disk before the
 * next request leaves: the keys were, at submit; an outcome lost in a crash is learnt again by replaying its
 * key. Each write runs in its own savepoint, so one that fails leaves the others written.
 */
function groupCommit(journal: Journal, { windowMs = 20, maxBatch = 64 } = {}) {
  type Pending = { write: () => unknown; done: (error: unknown, value?: unknown) => void };
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    let results: { value?: unknown; error?: unknown }[];
    try {
      results = journal.transaction(() =>
        batch.map(({ write }) => {
          try {
            return { value: journal.transaction(write) };
          } catch (error) {
            return { error: error ?? new Error('The write failed.') };
          }
        }),
      );
    } catch (error) {
      results = batch.map(() => ({ error }));
    }
    for (const [i, item] of batch.entries()) item.done(results[i]?.error, results[i]?.value);
  };
  return <T>(write: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.push({ write, done: (error, value) => (error ? reject(error) : resolve(value as T)) });
      if (pending.length >= maxBatch) flush();
      else timer ??= setTimeout(flush, windowMs);
    });
}

/** "Equal jitter": half the exponential delay fixed, half random, so a failing outbox never spins. */
export function retryDelayMs(failures: number, backoff: Backoff, random: () => number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** One progress bar per burst of work: from the first draft queued until none is left queued. */
function progressTracker(emit: (progress: Progress) => void) {
  const batch = new Set<string>();
  const done = new Set<string>();
  /** Submits still adding drafts: the bar does not finish under them. */
  let adding = 0;
  const report = (message: string | null) => {
    const finished = adding === 0 && done.size >= batch.size;
    emit({ job: 'outbox', done: done.size, total: batch.size, finished, message });
    if (finished) {
      batch.clear();
      done.clear();
    }
  };
  return {
    add(ids: readonly string[]) {
      if (ids.length === 0) return;
      for (const id of ids) {
        batch.add(id);
        done.delete(id);
      }
      report(null);
    },
    settle(id: string) {
      if (!batch.has(id)) return;
      done.add(id);
      report(null);
    },
    waiting(problem: string) {
      if (batch.size > 0) report(problem);
    },
    hold() {
      adding++;
    },
    release() {
      adding--;
      if (batch.size > 0) report(null);
    },
  };
}
