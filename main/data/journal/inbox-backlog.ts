/**
 * The webhook inbox's writes to the events table, kept behind the answers. A delivery is durable once the
 * inbox log holds it (inbox-file.ts), and the listener answers 200 then; writing it into the journal's tables
 * (about 60 µs of main's time per event, indexes and WAL pages) and what follows (processing, the reconcile's
 * GET, the screen) can wait. While deliveries pour in (`InboxPriority.busy`), they do wait: the service is
 * answered at the pace of the log, and the backlog is written once the flood eases, in batches. Held back
 * only up to a bound: beyond `maxEvents` the writes go regardless, and answering slows with them
 * (backpressure, not a backlog without end). When deliveries are few, nothing waits: a write goes on the next
 * turn of the event loop. Writes go in the order they were asked for (a mark of "processed" never overtakes
 * its event's insert).
 */
import type { InboxPriority } from './interface.ts';

export interface InboxBacklog<T> {
  /**
   * Queues a write; `events` is what it weighs against the bound (0 for a mark or a refusal). A write that
   * is `soon` (a mark, a refusal: losing it only means doing some work again) waits up to `soonMs` for company.
   */
  push(item: T, events: number, when?: 'now' | 'soon'): void;
  /** Events waiting to be written. */
  readonly events: number;
  /** Nothing queued, nothing being written. */
  readonly idle: boolean;
  /** Writes everything queued so far, busy or not; resolves once that is written. */
  flush(): Promise<void>;
}

export interface InboxBacklogOptions<T> {
  /** Writes a batch, in order, and tells whoever waits on its items; never rejects. */
  write(batch: T[]): Promise<void>;
  priority?: InboxPriority | undefined;
  /** Beyond this many events waiting, writes go even while deliveries pour in. */
  maxEvents?: number;
  /** Events per batch: one transaction each, with a turn of the event loop between (answers go out). */
  batchEvents?: number;
  /** How long a `soon` write waits for company: fewer commits, fewer WAL pages written again. */
  soonMs?: number;
}

export const MAX_BEHIND_EVENTS = 50_000;
const BATCH_EVENTS = 500;
const SOON_MS = 50;

interface Queued<T> {
  item: T;
  events: number;
  now: boolean;
}

/** A backlog's moving parts: its queue, its timers, and who waits on a flush. */
interface BacklogState<T> {
  options: InboxBacklogOptions<T>;
  maxEvents: number;
  batchEvents: number;
  soonMs: number;
  queue: Queued<T>[];
  /** Queued writes asked for `now`: with none, the queue waits for its `soon` timer. */
  urgent: number;
  soonTimer: NodeJS.Timeout | null;
  soonDue: boolean;
  events: number;
  writing: boolean;
  scheduled: boolean;
  awaitingQuiet: boolean;
  flushing: number;
  /** Items pushed and written since start: a flush waits for the count pushed when it was asked. */
  pushed: number;
  written: number;
  waiters: Array<{ upTo: number; resolve(): void }>;
}

export function createInboxBacklog<T>(options: InboxBacklogOptions<T>): InboxBacklog<T> {
  const state: BacklogState<T> = {
    options,
    maxEvents: options.maxEvents ?? MAX_BEHIND_EVENTS,
    batchEvents: options.batchEvents ?? BATCH_EVENTS,
    soonMs: options.soonMs ?? SOON_MS,
    queue: [],
    urgent: 0,
    soonTimer: null,
    soonDue: false,
    events: 0,
    writing: false,
    scheduled: false,
    awaitingQuiet: false,
    flushing: 0,
    pushed: 0,
    written: 0,
    waiters: [],
  };
  return {
    get events() {
      return state.events;
    },
    get idle() {
      return state.queue.length === 0 && !state.writing;
    },
    push(item, weight, when = 'now') {
      state.queue.push({ item, events: weight, now: when === 'now' });
      if (when === 'now') state.urgent++;
      state.events += weight;
      state.pushed++;
      schedule(state);
    },
    flush: () => flush(state),
  };
}

const mayWait = <T>(state: BacklogState<T>) =>
  state.flushing === 0 && state.events < state.maxEvents && state.options.priority?.busy === true;

function schedule<T>(state: BacklogState<T>): void {
  if (state.writing || state.scheduled || state.queue.length === 0) return;
  if (mayWait(state)) {
    if (!state.awaitingQuiet) {
      state.awaitingQuiet = true;
      state.options.priority?.onQuiet(() => {
        state.awaitingQuiet = false;
        schedule(state);
      });
    }
    return;
  }
  if (state.urgent === 0 && state.flushing === 0 && !state.soonDue) {
    state.soonTimer ??= setTimeout(() => {
      state.soonTimer = null;
      state.soonDue = true;
      schedule(state);
    }, state.soonMs);
    return;
  }
  state.soonDue = false;
  if (state.soonTimer) clearTimeout(state.soonTimer);
  state.soonTimer = null;
  state.scheduled = true;
  setImmediate(() => writeBatch(state));
}

function writeBatch<T>(state: BacklogState<T>): void {
  state.scheduled = false;
  // The deliveries read since this batch was asked for may show the flood going on: answers first.
  if (mayWait(state)) {
    schedule(state);
    return;
  }
  const batch = takeBatch(state);
  state.writing = true;
  void state.options.write(batch).finally(() => {
    state.writing = false;
    state.written += batch.length;
    const done = state.waiters.filter((waiter) => waiter.upTo <= state.written);
    state.waiters = state.waiters.filter((waiter) => waiter.upTo > state.written);
    for (const waiter of done) waiter.resolve();
    schedule(state);
  });
}

/** The queue's head, up to `batchEvents` events (at least one item, however heavy). */
function takeBatch<T>(state: BacklogState<T>): T[] {
  const { queue } = state;
  const batch: T[] = [];
  let weight = 0;
  while (queue.length > 0 && (batch.length === 0 || weight + (queue[0]?.events ?? 0) <= state.batchEvents)) {
    const next = queue.shift() as Queued<T>;
    batch.push(next.item);
    weight += next.events;
    if (next.now) state.urgent--;
  }
  state.events -= weight;
  return batch;
}

async function flush<T>(state: BacklogState<T>): Promise<void> {
  const upTo = state.pushed;
  if (state.written >= upTo) return;
  state.flushing++;
  try {
    await new Promise<void>((resolve) => {
      state.waiters.push({ upTo, resolve });
      schedule(state);
    });
  } finally {
    state.flushing--;
  }
}
