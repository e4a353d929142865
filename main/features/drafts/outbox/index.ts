// The outbox: submits drafts to `POST /customers` exactly once, whatever fails and whenever Vetted stops.
//
// Exactly once rests on one rule: a draft's Idempotency-Key is stored (committed) before any request leaves
// with it, and every send of that draft reuses it until the service has answered in a way that proves nothing
// was created. The service replays the original answer for 24 h, so a lost answer, a crash or a kill at any
// moment only ever leads to the same key being sent again. After 24 h the service forgets the key: then Vetted
// looks for the customer first (the list by e-mail, or the `Duplicate` error's `about` link) instead of
// re-posting blindly.
//
// Durable writes are kept to what that rule needs: drafts are queued with their keys a chunk per transaction
// (submit.ts), and outcomes are written in transactions shared by the drafts that finish together (`groupCommit`).
// "sending" lives in memory only: after a restart every queued draft counts as possibly sent, which costs
// nothing but a replay.
//
// The parts: states.ts (the per-draft state machine), classify.ts (what a failure means), backoff.ts, pump.ts
// (how many requests at once), send.ts (one draft), submit.ts, progress.ts; this file wires them.
import type { Progress } from '#contract/customers.ts';
import type { SubmitResult } from '#contract/drafts.ts';
import type { QueueRow } from '#contract/queue.ts';
import type { Journal } from '#main/data/journal/index.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { type Backoff, DEFAULT_BACKOFF } from './backoff.ts';
import { groupCommit } from './group-write.ts';
import { type ProgressTracker, progressTracker } from './progress.ts';
import { createPump, type Job } from './pump.ts';
import { draftSender } from './send.ts';
import { transitions } from './states.ts';
import { draftSubmitter } from './submit.ts';
import { type BodyCache, bodyCache, type WorkList, workList } from './work.ts';

export { type Backoff, DEFAULT_BACKOFF, resendDelayMs } from './backoff.ts';
export { classifyFailure } from './classify.ts';
export { isEditable } from './states.ts';

export const DEFAULT_OUTBOX_CONCURRENCY = 8;

export interface OutboxOptions {
  journal: Journal;
  /** The current service client; throws `NotConfiguredError` when no service is set up. */
  client(): ServiceClient;
  log: Logger;
  /** False while no service is configured: drafts stay queued, no attempt is spent. */
  canSend?(): boolean;
  /** A draft's state changed (or its resend was rescheduled). */
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
  activity(): Promise<OutboxActivity>;
  /** Resolves once no draft is queued or in flight (tests, bench; never while offline). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

type Pump = ReturnType<typeof createPump>;
type Sender = ReturnType<typeof draftSender>;

/** What the outbox's parts share while it runs. */
interface OutboxState {
  journal: Journal;
  log: Logger;
  now(): Date;
  canSend(): boolean;
  draftChanged(id: string): void;
  shutdown: AbortController;
  progress: ProgressTracker;
  bodies: BodyCache;
  work: WorkList;
  /** The busy drafts whose request is on its way (the others' customers are being fetched). */
  sending: Set<string>;
  settledWaiters: (() => void)[];
  /** Resumes and wakes still reading the journal: the outbox has not settled under them. */
  preparing: Set<Promise<void>>;
}

function outboxState(options: OutboxOptions): OutboxState {
  const { journal, log } = options;
  const now = options.now ?? (() => new Date());
  return {
    journal,
    log,
    now,
    canSend: options.canSend ?? (() => true),
    draftChanged: (id) => options.onDraftChange?.(id),
    shutdown: new AbortController(),
    progress: progressTracker((p) => options.onProgress?.(p)),
    bodies: bodyCache(journal),
    work: workList(journal, now),
    sending: new Set(),
    settledWaiters: [],
    preparing: new Set(),
  };
}

function senderFor(state: OutboxState, options: OutboxOptions): Sender {
  const { journal, log, now, bodies, progress, sending, work, draftChanged } = state;
  return draftSender({
    journal,
    log,
    client: options.client,
    now,
    random: options.random ?? Math.random,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    signal: state.shutdown.signal,
    write: groupCommit(journal),
    bodies,
    progress,
    sending,
    work,
    fetchLater: work.fetchLater,
    draftChanged,
    customerChanged: (row) => options.onCustomerChange?.(row),
  });
}

/** Created drafts whose customer the journal does not hold yet: fetched once nothing waits to be sent. */
async function fetchUnrecorded({ journal, work }: OutboxState): Promise<void> {
  const created = await journal.drafts.createdWithoutCustomer();
  for (const { id, customerId } of created) work.fetchLater(id, customerId);
}

/** A queued draft that is due, else a created draft's customer to fetch. */
async function nextJob(
  { work }: OutboxState,
  sender: Sender,
  busy: ReadonlySet<string>,
): Promise<Job | undefined> {
  const due = await work.nextDue(busy);
  if (due) return { id: due.id, run: (release) => sender.send(due.id, release) };
  const next = work.nextFetch(busy);
  if (!next) return undefined;
  return {
    id: next.draftId,
    run: (release) => sender.fetchCreated(next.draftId, next.customerId, release),
  };
}

async function checkSettled(state: OutboxState, busy: ReadonlySet<string>): Promise<void> {
  const { settledWaiters, work, preparing, journal } = state;
  if (settledWaiters.length === 0 || busy.size > 0 || work.fetchesLeft > 0 || preparing.size > 0) return;
  if ((await journal.drafts.countByState()).queued > 0) return;
  for (const resolve of settledWaiters.splice(0)) resolve();
}

function pumpFor(state: OutboxState, options: OutboxOptions, sender: Sender): Pump {
  return createPump({
    concurrency: options.concurrency ?? DEFAULT_OUTBOX_CONCURRENCY,
    signal: state.shutdown.signal,
    canSend: state.canSend,
    next: (busy) => nextJob(state, sender, busy),
    nextAttemptAt: async () => state.work.nextAttemptAfter(),
    now: state.now,
    log: state.log,
    afterTurn: (busy) => checkSettled(state, busy),
  });
}

function submitterFor(state: OutboxState, pump: Pump) {
  return draftSubmitter({
    journal: state.journal,
    now: state.now,
    signal: state.shutdown.signal,
    bodies: state.bodies,
    progress: state.progress,
    queued(drafts) {
      if (drafts.length === 0) return;
      for (const { id, entry } of drafts) {
        state.work.queue(id, entry);
        state.draftChanged(id);
      }
      pump.pump();
    },
  });
}

/** Reads the journal, then pumps; `settled` waits for it. */
function prepare(state: OutboxState, pump: Pump, reading: () => Promise<void>): void {
  const task: Promise<void> = reading()
    .catch((error: unknown) => state.log.error('outbox: could not resume', describeError(error)))
    .finally(() => {
      state.preparing.delete(task);
      pump.pump();
    });
  state.preparing.add(task);
}

function resume(state: OutboxState, pump: Pump): void {
  const { journal, work, progress, now } = state;
  if (state.shutdown.signal.aborted || !state.canSend()) return;
  prepare(state, pump, async () => {
    await journal.drafts.clearBackoff();
    await work.reload();
    work.clearBackoff();
    await fetchUnrecorded(state);
    progress.add(await journal.drafts.due(now().toISOString(), Number.MAX_SAFE_INTEGER));
  });
}

function wake(state: OutboxState, pump: Pump): void {
  if (state.shutdown.signal.aborted) return;
  prepare(state, pump, async () => {
    await state.journal.drafts.clearBackoff();
    state.work.clearBackoff();
    // A customer whose fetch after its create was refused (a burst of 429s, the network) would
    // otherwise stay out of the queue until the next start.
    await fetchUnrecorded(state);
  });
}

async function activity({ journal, now, sending }: OutboxState): Promise<OutboxActivity> {
  const nextAttemptAt = await journal.drafts.nextAttemptAfter(now().toISOString());
  const queuedNow = (await journal.drafts.countByState()).queued;
  return { inFlight: sending.size, draining: sending.size > 0 || queuedNow > 0, nextAttemptAt };
}

export function createOutbox(options: OutboxOptions): Outbox {
  const state = outboxState(options);
  // Begins at once: every other use of the journal waits for it.
  void state.journal
    .transaction((tx) => transitions.recover(tx))
    .catch((error: unknown) => state.log.error('outbox: recovery failed', describeError(error)));
  const sender = senderFor(state, options);
  const pump = pumpFor(state, options, sender);
  const submitter = submitterFor(state, pump);
  return {
    submit: submitter.submit,
    tryAgain: submitter.tryAgain,
    linkDuplicate: sender.linkDuplicate,
    resume: () => resume(state, pump),
    wake: () => wake(state, pump),
    isSending: (id) => state.sending.has(id),
    activity: () => activity(state),
    settled() {
      const done = new Promise<void>((resolve) => state.settledWaiters.push(resolve));
      void checkSettled(state, pump.busy);
      return done;
    },
    async close() {
      state.shutdown.abort();
      await pump.close();
      state.bodies.clear();
    },
  };
}
