import type { InboxPriority } from '../journal/index.ts';

/**
 * How hard deliveries are coming, for the inbox (inbox-backlog.ts): busy while the last `busyAt` deliveries
 * all arrived within `windowMs` (by default 25 in 50 ms, 500 a second), the rate of a flood (a service
 * redelivering its backlog after an outage), not of a working day: at the service's ordinary pace nothing
 * waits. It turns quiet once the rate has fallen below that, which a timer notices (there may be no further
 * delivery to notice it). O(1) per delivery: the arrival times of the last `busyAt` in a ring.
 */
export interface DeliveryPressure extends InboxPriority {
  /** A delivery came in. */
  arrived(): void;
  /** Forgets whoever waits for quiet and stops the timer. */
  close(): void;
}

export interface DeliveryPressureOptions {
  windowMs?: number;
  busyAt?: number;
  /** Milliseconds on a monotonic clock; injectable for tests (with fake timers). */
  now?: () => number;
}

export function createDeliveryPressure(options: DeliveryPressureOptions = {}): DeliveryPressure {
  const windowMs = options.windowMs ?? 50;
  const busyAt = Math.max(1, options.busyAt ?? 25);
  const now = options.now ?? (() => performance.now());
  const arrivals = new Float64Array(busyAt).fill(Number.NEGATIVE_INFINITY);
  /** Where the next arrival goes: the oldest of the last `busyAt` is there. */
  let next = 0;
  let waiting: Array<() => void> = [];
  let timer: NodeJS.Timeout | null = null;

  /** Milliseconds until quiet if nothing else arrives; 0 when quiet now. */
  const untilQuiet = () => Math.max(0, (arrivals[next] as number) + windowMs - now());

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
      arrivals[next] = now();
      next = (next + 1) % busyAt;
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
