/**
 * How often one customer may be refreshed: at most one GET per customer per window, counted from the
 * start of the last one. The first event about a customer is served at once (no delay for the reviewer
 * to see a new status); events that follow it within the window wait for its end and share one GET.
 * The service sends events in bursts (created, document needed, uploaded…), each of which would
 * otherwise cost a GET and a journal write of its own.
 */
export interface Timers {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Calls `call` once after `ms`; the function returned cancels it. */
  after(ms: number, call: () => void): () => void;
}

export const systemTimers: Timers = {
  now: () => performance.now(),
  after(ms, call) {
    const timer = setTimeout(call, ms);
    return () => clearTimeout(timer);
  },
};

export interface RefreshWindow {
  /** How long until `customerId` may be refreshed again; 0 when it may be now. */
  wait(customerId: string): number;
  /** A refresh of `customerId` starts now. */
  started(customerId: string): void;
  /** `wake` is called once, `ms` from now (or sooner if asked for sooner meanwhile). */
  wakeIn(ms: number): void;
  close(): void;
}

export function createRefreshWindow(windowMs: number, timers: Timers, wake: () => void): RefreshWindow {
  // Insertion order is start order (a customer is re-inserted when it starts again), so the entries
  // whose window is over are always at the front: pruning never scans the rest.
  const lastStarted = new Map<string, number>();
  let cancel: (() => void) | null = null;
  let wakeAt = Number.POSITIVE_INFINITY;

  const prune = (now: number) => {
    for (const [customerId, at] of lastStarted) {
      if (now - at < windowMs) return;
      lastStarted.delete(customerId);
    }
  };

  return {
    wait(customerId) {
      const at = lastStarted.get(customerId);
      if (at === undefined) return 0;
      return Math.max(0, at + windowMs - timers.now());
    },
    started(customerId) {
      const now = timers.now();
      prune(now);
      lastStarted.delete(customerId);
      if (windowMs > 0) lastStarted.set(customerId, now);
    },
    wakeIn(ms) {
      const at = timers.now() + ms;
      if (cancel && wakeAt <= at) return;
      cancel?.();
      wakeAt = at;
      cancel = timers.after(ms, () => {
        cancel = null;
        wakeAt = Number.POSITIVE_INFINITY;
        wake();
      });
    },
    close() {
      cancel?.();
      cancel = null;
    },
  };
}
