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

export function createInboxBacklog<T>(options: InboxBacklogOptions<T>): InboxBacklog<T> {
  const { priority } = options;
  const maxEvents = options.maxEvents ?? MAX_BEHIND_EVENTS;
  const batchEvents = options.batchEvents ?? BATCH_EVENTS;
  const soonMs = options.soonMs ?? SOON_MS;
  const queue: Array<{ item: T; events: number; now: boolean }> = [];
  /** Queued writes asked for `now`: with none, the queue waits for its `soon` timer. */
  let urgent = 0;
  let soonTimer: NodeJS.Timeout | null = null;
  let soonDue = false;
  let events = 0;
  let writing = false;
  let scheduled = false;
  let awaitingQuiet = false;
  let flushing = 0;
  /** Items pushed and written since start: a flush waits for the count pushed when it was asked. */
  let pushed = 0;
  let written = 0;
  let waiters: Array<{ upTo: number; resolve(): void }> = [];

  const mayWait = () => flushing === 0 && events < maxEvents && priority?.busy === true;

  const schedule = () => {
    if (writing || scheduled || queue.length === 0) return;
    if (mayWait()) {
      if (!awaitingQuiet) {
        awaitingQuiet = true;
        priority?.onQuiet(() => {
          awaitingQuiet = false;
          schedule();
        });
      }
      return;
    }
    if (urgent === 0 && flushing === 0 && !soonDue) {
      soonTimer ??= setTimeout(() => {
        soonTimer = null;
        soonDue = true;
        schedule();
      }, soonMs);
      return;
    }
    soonDue = false;
    if (soonTimer) clearTimeout(soonTimer);
    soonTimer = null;
    scheduled = true;
    setImmediate(writeBatch);
  };

  const writeBatch = () => {
    scheduled = false;
    // The deliveries read since this batch was asked for may show the flood going on: answers first.
    if (mayWait()) return schedule();
    const batch: T[] = [];
    let weight = 0;
    while (queue.length > 0 && (batch.length === 0 || weight + (queue[0]?.events ?? 0) <= batchEvents)) {
      const next = queue.shift() as { item: T; events: number; now: boolean };
      batch.push(next.item);
      weight += next.events;
      if (next.now) urgent--;
    }
    events -= weight;
    writing = true;
    void options.write(batch).finally(() => {
      writing = false;
      written += batch.length;
      const done = waiters.filter((waiter) => waiter.upTo <= written);
      waiters = waiters.filter((waiter) => waiter.upTo > written);
      for (const waiter of done) waiter.resolve();
      schedule();
    });
  };

  return {
    get events() {
      return events;
    },
    get idle() {
      return queue.length === 0 && !writing;
    },
    push(item, weight, when = 'now') {
      queue.push({ item, events: weight, now: when === 'now' });
      if (when === 'now') urgent++;
      events += weight;
      pushed++;
      schedule();
    },
    async flush() {
      const upTo = pushed;
      if (written >= upTo) return;
      flushing++;
      try {
        await new Promise<void>((resolve) => {
          waiters.push({ upTo, resolve });
          schedule();
        });
      } finally {
        flushing--;
      }
    },
  };
}
