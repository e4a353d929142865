import type { InboxPriority } from '#main/data/journal/index.ts';

/**
 * How hard deliveries are coming, for the inbox (inbox-backlog.ts). A flood begins once the last `busyAt`
 * deliveries all arrived within `windowMs` (by default 125 in 250 ms, 500 a second: a service redelivering its
 * backlog after an outage, not a working day: at the service's ordinary pace nothing waits), and lasts until
 * the last `busyAt` no longer arrived within `releaseMs` (by default 1,250 ms, 100 a second). The two rates
 * differ on purpose: while a flood is served, main's own work (a batch of the events table, a slow sync, a
 * collection of the heap) holds arrivals back for tens of milliseconds, and with one rate that gap read as the
 * flood's end: the held-back writes went at once, their batches made the next gap, and the whole backlog was
 * written in the middle of the flood (bench/README.md). A timer notices the end (there may be no further
 * delivery to notice it). O(1) per delivery: the arrival times of the last `busyAt` in a ring.
 *
 * The window is a quarter of a second, not a few milliseconds, because a burst is not a flood (#38): 100
 * deliveries in one second (a working day's peak) come at 100 a second, but a listener answering them by group
 * commit answers several at once, and the service then sends the next several at once: 25 within 50 ms, the
 * rule before, and processing waited for the whole burst to end. Over 250 ms such clumps even out to the
 * burst's own rate; a real flood still counts as one within its first 125 deliveries.
 *
 * A listener slower than 500 a second is flooded all the same when deliveries wait for one another: once
 * `busyInFlight` are unanswered at once (by default 10, all the service sends at a time: at its ordinary pace
 * and in a burst, a few are answered before the next come), the flood begins, and it lasts until none has
 * found that many waiting for `releaseMs`. A hub writing into PostgreSQL answered 40-250 a second under load
 * with its processing inline (about ten round trips to the store per reconcile), so the rate alone never
 * called it a flood (bench/README.md, team ingest).
 */
export interface DeliveryPressure extends InboxPriority {
  /** A delivery came in. */
  arrived(): void;
  /** A delivery that came in has been answered (whatever the answer). */
  answered(): void;
  /** Forgets whoever waits for quiet and stops the timer. */
  close(): void;
}

export interface DeliveryPressureOptions {
  windowMs?: number;
  /** Once busy, how long the last `busyAt` may take to arrive before the flood counts as over. */
  releaseMs?: number;
  busyAt?: number;
  /** Deliveries unanswered at once that make a flood whatever their rate. */
  busyInFlight?: number;
  /** Milliseconds on a monotonic clock; injectable for tests (with fake timers). */
  now?: () => number;
}

export function createDeliveryPressure(options: DeliveryPressureOptions = {}): DeliveryPressure {
  const windowMs = options.windowMs ?? 250;
  const releaseMs = Math.max(windowMs, options.releaseMs ?? 1_250);
  const busyAt = Math.max(1, options.busyAt ?? 125);
  const busyInFlight = Math.max(1, options.busyInFlight ?? 10);
  const now = options.now ?? (() => performance.now());
  const arrivals = new Float64Array(busyAt).fill(Number.NEGATIVE_INFINITY);
  /** Where the next arrival goes: the oldest of the last `busyAt` is there. */
  let next = 0;
  let flooding = false;
  let inFlight = 0;
  /** When an arrival last found `busyInFlight` waiting (itself included). */
  let crowdedAt = Number.NEGATIVE_INFINITY;
  let waiting: Array<() => void> = [];
  let timer: NodeJS.Timeout | null = null;

  /** Milliseconds until quiet if nothing else arrives; 0 when quiet now. */
  const untilQuiet = () => {
    if (!flooding) return 0;
    const at = now();
    // Deliveries still wait for one another: the flood goes on.
    if (inFlight >= busyInFlight) crowdedAt = at;
    const wait = Math.max(arrivals[next] as number, crowdedAt) + releaseMs - at;
    if (wait <= 0) flooding = false;
    return Math.max(0, wait);
  };

  const check = () => {
    timer = null;
    const wait = untilQuiet();
    if (wait > 0) {
      timer = setTimeout(check, Math.ceil(wait));
      timer.unref();
      return;
    }
    const callbacks = waiting;
    waiting = [];
    for (const callback of callbacks) callback();
  };

  return {
    get busy() {
      return untilQuiet() > 0;
    },
    arrived() {
      const at = now();
      arrivals[next] = at;
      next = (next + 1) % busyAt;
      inFlight++;
      const crowded = inFlight >= busyInFlight;
      if (crowded) crowdedAt = at;
      if (!flooding && (crowded || (arrivals[next] as number) + windowMs > at)) flooding = true;
    },
    answered() {
      inFlight = Math.max(0, inFlight - 1);
    },
    onQuiet(callback) {
      waiting.push(callback);
      if (timer === null) {
        timer = setTimeout(check, Math.ceil(untilQuiet()));
        timer.unref();
      }
    },
    close() {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = [];
    },
  };
}
