import { isServiceId } from '#contract/service-id.ts';
import type { EventInbox, Journal, JournalEvent } from '#main/data/journal/index.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import type { Reconciler } from '#main/sync/reconcile/reconciler.ts';
import type { LatencyRecorder } from '../diagnostics/metrics.ts';
import { type Notify, statusNotice } from './notify.ts';
import { createRefreshWindow, systemTimers, type Timers } from './refresh-window.ts';

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

export function createEventProcessor(options: EventProcessorOptions): EventProcessor {
  const { journal, reconciler, writer, log } = options;
  const concurrency = options.concurrency ?? 4;
  const maxWaiting = options.maxWaiting ?? 2_000;
  const maxEvents = options.maxEvents ?? 50_000;
  const refreshWindow = createRefreshWindow(
    options.coalesceMs ?? DEFAULT_COALESCE_MS,
    options.timers ?? systemTimers,
    () => {
      pump();
      settleIdle();
    },
  );
  const startedAt = Date.now();
  const retryDelayMs = options.retryDelayMs ?? 30_000;
  const waiting = new Map<string, JournalEvent[]>();
  const queued = new Set<string>();
  const running = new Map<string, Promise<void>>();
  // Marks are gathered (one statement for all finished in a turn) and written lazily (see
  // EventInbox.markProcessed): a customer's slot is free before they commit.
  let toMark: JournalEvent[] = [];
  let markScheduled: NodeJS.Immediate | null = null;
  const marking = new Set<Promise<void>>();
  /** Reads of the events left unprocessed, which `idle` waits for too. */
  const reading = new Set<Promise<void>>();
  let idleWaiters: Array<() => void> = [];
  let retryTimer: NodeJS.Timeout | null = null;
  let closed = false;
  let processed = 0;
  let refreshes = 0;
  let backlog = 0;
  /** Events were left in the journal for want of room: read them again once the backlog is gone. */
  let overflowed = false;
  // Refreshes start after this turn: the 200s go out first, and events arriving together coalesce.
  let pumpScheduled: NodeJS.Immediate | null = null;
  const schedulePump = () => {
    pumpScheduled ??= setImmediate(() => {
      pumpScheduled = null;
      pump();
      settleIdle();
    });
  };

  const settleIdle = () => {
    if (waiting.size > 0 || running.size > 0 || toMark.length > 0 || marking.size > 0 || reading.size > 0)
      return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };

  /** The events stay `queued` until marked, so that a resume meanwhile does not take them again. */
  const markProcessed = (events: readonly JournalEvent[]) => {
    toMark.push(...events);
    markScheduled ??= setImmediate(writeMarks);
  };

  const writeMarks = () => {
    markScheduled = null;
    const events = toMark;
    toMark = [];
    if (events.length === 0) return;
    const ids = events.map((event) => event.id);
    const marked: Promise<void> = writer
      .markProcessed(ids)
      .then(
        () => {
          processed += events.length;
        },
        (error: unknown) => log.warn('events not marked processed', describeError(error)),
      )
      .finally(() => {
        for (const event of events) queued.delete(event.id);
        marking.delete(marked);
        settleIdle();
      });
    marking.add(marked);
  };

  const retryLater = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      processor.resumeUnprocessed();
    }, retryDelayMs);
    retryTimer.unref();
  };

  const refresh = async (customerId: string, events: JournalEvent[]) => {
    // The newest event by the service's time speaks for the status the refresh finds.
    const newest = events.reduce((a, b) => (b.created > a.created ? b : a));
    refreshes++;
    // Everything, the first read included, inside the try: a store away (a failover) is a refresh to try
    // again later, never a rejection no one catches (it ended the hub's process).
    try {
      const { before, after } = await reconciler.refreshed(customerId, {
        source: 'event',
        eventId: newest.id,
        at: newest.created,
      });
      markProcessed(events);
      const now = Date.now();
      for (const event of events) {
        // Events left from before this run would say how long the app was closed, not how fast it is.
        const arrived = Date.parse(event.receivedAt);
        if (arrived >= startedAt) options.eventToScreen?.add(now - arrived);
      }
      if (before && after && !after.goneAt && after.status !== before.status)
        options.notify(statusNotice(after));
    } catch (error) {
      if (closed) return;
      log.warn('webhook event not processed yet', {
        customerId,
        events: events.length,
        ...describeError(error),
      });
      for (const event of events) queued.delete(event.id);
      retryLater();
    }
  };

  const pump = () => {
    let soonest = Number.POSITIVE_INFINITY;
    for (const [customerId, events] of waiting) {
      if (closed || running.size >= concurrency) break;
      if (running.has(customerId)) continue;
      const wait = refreshWindow.wait(customerId);
      if (wait > 0) {
        soonest = Math.min(soonest, wait);
        continue;
      }
      refreshWindow.started(customerId);
      waiting.delete(customerId);
      backlog -= events.length;
      const task = refresh(customerId, events)
        // refresh() catches its own failures; whatever escapes it still must not float.
        .catch((error: unknown) => log.error('webhook event refresh failed', describeError(error)))
        .finally(() => {
          running.delete(customerId);
          pump();
          if (overflowed && waiting.size === 0 && !closed) {
            overflowed = false;
            processor.resumeUnprocessed();
          }
          settleIdle();
        });
      running.set(customerId, task);
    }
    if (soonest !== Number.POSITIVE_INFINITY && !closed) refreshWindow.wakeIn(soonest);
  };

  const processor: EventProcessor = {
    get processed() {
      return processed;
    },
    get backlog() {
      return backlog;
    },
    get refreshes() {
      return refreshes;
    },
    enqueue(events) {
      if (closed) return;
      for (const event of events) {
        if (event.processedAt !== null || queued.has(event.id)) continue;
        queued.add(event.id);
        if (needsNoProcessing(event)) {
          markProcessed([event]);
          continue;
        }
        const customerId = event.customerId as string;
        const ofCustomer = waiting.get(customerId);
        if ((!ofCustomer && waiting.size >= maxWaiting) || backlog >= maxEvents) {
          queued.delete(event.id);
          overflowed = true;
          continue;
        }
        if (ofCustomer) ofCustomer.push(event);
        else waiting.set(customerId, [event]);
        backlog++;
      }
      schedulePump();
    },
    resumeUnprocessed() {
      const read: Promise<void> = journal.events
        .unprocessed()
        .then(
          (events) => processor.enqueue(events),
          (error: unknown) => log.warn('unprocessed events not read', describeError(error)),
        )
        .finally(() => {
          reading.delete(read);
          settleIdle();
        });
      reading.add(read);
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      if (pumpScheduled) clearImmediate(pumpScheduled);
      refreshWindow.close();
      waiting.clear();
      backlog = 0;
      await Promise.allSettled([...running.values(), ...reading]);
      if (markScheduled) clearImmediate(markScheduled);
      writeMarks();
      await writer.flush().catch(() => {});
      await Promise.allSettled(marking);
      settleIdle();
      idleWaiters = [];
    },
  };
  return processor;
}
