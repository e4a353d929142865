import { isServiceId } from '#contract/service-id.ts';
import type { EventInbox, Journal, JournalEvent } from '#main/data/journal/index.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import type { Reconciler } from '#main/sync/reconcile/reconciler.ts';
import type { LatencyRecorder } from '../diagnostics/metrics.ts';
import { type Notify, statusNotice } from './notify.ts';
import { createRefreshWindow, type RefreshWindow, systemTimers, type Timers } from './refresh-window.ts';

/**
 * What follows recording an event: GET the customer it names and trust its current status, in
 * whatever order events came. One refresh per customer at a time, and at most one per `coalesceMs`
 * (refresh-window.ts): events that arrive for a customer meanwhile are served together by one more
 * refresh. An event stays unprocessed until its refresh succeeded, so a failure (offline) is tried
 * again later and after a restart.
 */
export interface EventProcessor {
  enqueue(events: readonly JournalEvent[]): void;
  /** Everything the journal still holds unprocessed (start-up, reconnection, catch-up). */
  resumeUnprocessed(): void;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  close(): Promise<void>;
  /** Events marked processed since start: a catch-up run reports the difference. */
  readonly processed: number;
  /** Events waiting for their customer's refresh, and refreshes (GETs) made since start. */
  readonly backlog: number;
  readonly refreshes: number;
}

/** The topics the service documents; any other is shown in the event log and otherwise ignored. */
export const CUSTOMER_TOPICS: ReadonlySet<string> = new Set([
  'customer_created',
  'customer_verified',
  'customer_reverification_needed',
  'customer_verification_document_needed',
  'customer_verification_document_uploaded',
  'customer_verification_document_approved',
  'customer_verification_document_failed',
  'customer_suspended',
  // Today's real service (real-service.md): its statuses kba and deactivated, and their way back.
  'customer_kba_verification_needed',
  'customer_kba_verification_failed',
  'customer_kba_verification_passed',
  'customer_deactivated',
  'customer_reactivated',
  'customer_activated',
]);

/** Whether recording the event is all there is to do with it. */
export function needsNoProcessing(event: Pick<JournalEvent, 'topic' | 'customerId'>): boolean {
  // A customer id no request can carry (service-id.ts) could never be refreshed: the event stays in the log.
  return !CUSTOMER_TOPICS.has(event.topic) || event.customerId === null || !isServiceId(event.customerId);
}

/** Long enough to gather a burst of events about one customer, short enough not to be noticed. */
export const DEFAULT_COALESCE_MS = 1_000;

export interface EventProcessorOptions {
  journal: Journal;
  reconciler: Reconciler;
  writer: EventInbox;
  notify: Notify;
  log: Logger;
  concurrency?: number;
  /** After a failed refresh, when to try the events left unprocessed again. */
  retryDelayMs?: number;
  /**
   * Customers waiting at most (backpressure): events beyond stay unprocessed in the journal, read
   * again once the backlog is gone, instead of an ever-growing queue in memory.
   */
  maxWaiting?: number;
  /** Events held in memory at most, all customers together (same backpressure as `maxWaiting`). */
  maxEvents?: number;
  /** A customer refreshed is refreshed again no sooner than this (events meanwhile share that GET). */
  coalesceMs?: number;
  /** The clock and timers of that window (tests drive it by hand). */
  timers?: Timers;
  /** Told, for each event refreshed, how long after its arrival its customer's change went out. */
  eventToScreen?: LatencyRecorder;
}

/** The processor's state: the customers waiting, the refreshes running, the marks to write, its counts. */
interface ProcessorState {
  options: EventProcessorOptions;
  concurrency: number;
  maxWaiting: number;
  maxEvents: number;
  retryDelayMs: number;
  refreshWindow: RefreshWindow;
  startedAt: number;
  /** Events by customer, waiting for that customer's refresh. */
  waiting: Map<string, JournalEvent[]>;
  /** Ids of the events taken (waiting, refreshing or being marked): a resume does not take them again. */
  queued: Set<string>;
  running: Map<string, Promise<void>>;
  // Marks are gathered (one statement for all finished in a turn) and written lazily (see
  // EventInbox.markProcessed): a customer's slot is free before they commit.
  toMark: JournalEvent[];
  markScheduled: NodeJS.Immediate | null;
  marking: Set<Promise<void>>;
  /** Reads of the events left unprocessed, which `idle` waits for too. */
  reading: Set<Promise<void>>;
  idleWaiters: Array<() => void>;
  retryTimer: NodeJS.Timeout | null;
  closed: boolean;
  processed: number;
  refreshes: number;
  backlog: number;
  /** Events were left in the journal for want of room: read them again once the backlog is gone. */
  overflowed: boolean;
  // Refreshes start after this turn: the 200s go out first, and events arriving together coalesce.
  pumpScheduled: NodeJS.Immediate | null;
}

function processorState(options: EventProcessorOptions): ProcessorState {
  const state: ProcessorState = {
    options,
    concurrency: options.concurrency ?? 4,
    maxWaiting: options.maxWaiting ?? 2_000,
    maxEvents: options.maxEvents ?? 50_000,
    retryDelayMs: options.retryDelayMs ?? 30_000,
    refreshWindow: createRefreshWindow(
      options.coalesceMs ?? DEFAULT_COALESCE_MS,
      options.timers ?? systemTimers,
      () => {
        pump(state);
        settleIdle(state);
      },
    ),
    startedAt: Date.now(),
    waiting: new Map(),
    queued: new Set(),
    running: new Map(),
    toMark: [],
    markScheduled: null,
    marking: new Set(),
    reading: new Set(),
    idleWaiters: [],
    retryTimer: null,
    closed: false,
    processed: 0,
    refreshes: 0,
    backlog: 0,
    overflowed: false,
    pumpScheduled: null,
  };
  return state;
}

function schedulePump(state: ProcessorState): void {
  state.pumpScheduled ??= setImmediate(() => {
    state.pumpScheduled = null;
    pump(state);
    settleIdle(state);
  });
}

function settleIdle(state: ProcessorState): void {
  const { waiting, running, toMark, marking, reading } = state;
  if (waiting.size > 0 || running.size > 0 || toMark.length > 0 || marking.size > 0 || reading.size > 0)
    return;
  for (const resolve of state.idleWaiters.splice(0)) resolve();
}

/** The events stay `queued` until marked, so that a resume meanwhile does not take them again. */
function markProcessed(state: ProcessorState, events: readonly JournalEvent[]): void {
  state.toMark.push(...events);
  state.markScheduled ??= setImmediate(() => writeMarks(state));
}

function writeMarks(state: ProcessorState): void {
  state.markScheduled = null;
  const events = state.toMark;
  state.toMark = [];
  if (events.length === 0) return;
  const ids = events.map((event) => event.id);
  const marked: Promise<void> = state.options.writer
    .markProcessed(ids)
    .then(
      () => {
        state.processed += events.length;
      },
      (error: unknown) => state.options.log.warn('events not marked processed', describeError(error)),
    )
    .finally(() => {
      for (const event of events) state.queued.delete(event.id);
      state.marking.delete(marked);
      settleIdle(state);
    });
  state.marking.add(marked);
}

function retryLater(state: ProcessorState): void {
  if (state.closed || state.retryTimer) return;
  state.retryTimer = setTimeout(() => {
    state.retryTimer = null;
    resumeUnprocessed(state);
  }, state.retryDelayMs);
  state.retryTimer.unref();
}

async function refresh(state: ProcessorState, customerId: string, events: JournalEvent[]): Promise<void> {
  const { reconciler, log } = state.options;
  // The newest event by the service's time speaks for the status the refresh finds.
  const newest = events.reduce((a, b) => (b.created > a.created ? b : a));
  state.refreshes++;
  // Everything, the first read included, inside the try: a store away (a failover) is a refresh to try
  // again later, never a rejection no one catches (it ended the hub's process).
  try {
    const { before, after } = await reconciler.refreshed(customerId, {
      source: 'event',
      eventId: newest.id,
      at: newest.created,
    });
    markProcessed(state, events);
    recordLatency(state, events);
    if (before && after && !after.goneAt && after.status !== before.status)
      state.options.notify(statusNotice(after));
  } catch (error) {
    if (state.closed) return;
    log.warn('webhook event not processed yet', {
      customerId,
      events: events.length,
      ...describeError(error),
    });
    for (const event of events) state.queued.delete(event.id);
    retryLater(state);
  }
}

/** Tells `eventToScreen` how long after its arrival each refreshed event's change went out. */
function recordLatency({ options, startedAt }: ProcessorState, events: readonly JournalEvent[]): void {
  const now = Date.now();
  for (const event of events) {
    // Events left from before this run would say how long the app was closed, not how fast it is.
    const arrived = Date.parse(event.receivedAt);
    if (arrived >= startedAt) options.eventToScreen?.add(now - arrived);
  }
}

/** Starts the refreshes that may start now; wakes again when the soonest customer's window has passed. */
function pump(state: ProcessorState): void {
  const { waiting, running, refreshWindow } = state;
  let soonest = Number.POSITIVE_INFINITY;
  for (const [customerId, events] of waiting) {
    if (state.closed || running.size >= state.concurrency) break;
    if (running.has(customerId)) continue;
    const wait = refreshWindow.wait(customerId);
    if (wait > 0) {
      soonest = Math.min(soonest, wait);
      continue;
    }
    startRefresh(state, customerId, events);
  }
  if (soonest !== Number.POSITIVE_INFINITY && !state.closed) refreshWindow.wakeIn(soonest);
}

function startRefresh(state: ProcessorState, customerId: string, events: JournalEvent[]): void {
  state.refreshWindow.started(customerId);
  state.waiting.delete(customerId);
  state.backlog -= events.length;
  const task = refresh(state, customerId, events)
    // refresh() catches its own failures; whatever escapes it still must not float.
    .catch((error: unknown) => state.options.log.error('webhook event refresh failed', describeError(error)))
    .finally(() => {
      state.running.delete(customerId);
      pump(state);
      if (state.overflowed && state.waiting.size === 0 && !state.closed) {
        state.overflowed = false;
        resumeUnprocessed(state);
      }
      settleIdle(state);
    });
  state.running.set(customerId, task);
}

function enqueue(state: ProcessorState, events: readonly JournalEvent[]): void {
  if (state.closed) return;
  const { queued, waiting } = state;
  for (const event of events) {
    if (event.processedAt !== null || queued.has(event.id)) continue;
    queued.add(event.id);
    if (needsNoProcessing(event)) {
      markProcessed(state, [event]);
      continue;
    }
    const customerId = event.customerId as string;
    const ofCustomer = waiting.get(customerId);
    if ((!ofCustomer && waiting.size >= state.maxWaiting) || state.backlog >= state.maxEvents) {
      queued.delete(event.id);
      state.overflowed = true;
      continue;
    }
    if (ofCustomer) ofCustomer.push(event);
    else waiting.set(customerId, [event]);
    state.backlog++;
  }
  schedulePump(state);
}

function resumeUnprocessed(state: ProcessorState): void {
  const read: Promise<void> = state.options.journal.events
    .unprocessed()
    .then(
      (events) => enqueue(state, events),
      (error: unknown) => state.options.log.warn('unprocessed events not read', describeError(error)),
    )
    .finally(() => {
      state.reading.delete(read);
      settleIdle(state);
    });
  state.reading.add(read);
}

async function close(state: ProcessorState): Promise<void> {
  state.closed = true;
  if (state.retryTimer) clearTimeout(state.retryTimer);
  if (state.pumpScheduled) clearImmediate(state.pumpScheduled);
  state.refreshWindow.close();
  state.waiting.clear();
  state.backlog = 0;
  await Promise.allSettled([...state.running.values(), ...state.reading]);
  if (state.markScheduled) clearImmediate(state.markScheduled);
  writeMarks(state);
  await state.options.writer.flush().catch(() => {});
  await Promise.allSettled(state.marking);
  settleIdle(state);
  state.idleWaiters = [];
}

export function createEventProcessor(options: EventProcessorOptions): EventProcessor {
  const state = processorState(options);
  return {
    get processed() {
      return state.processed;
    },
    get backlog() {
      return state.backlog;
    },
    get refreshes() {
      return state.refreshes;
    },
    enqueue: (events) => enqueue(state, events),
    resumeUnprocessed: () => resumeUnprocessed(state),
    idle() {
      return new Promise((resolve) => {
        state.idleWaiters.push(resolve);
        settleIdle(state);
      });
    },
    close: () => close(state),
  };
}
