/**
 * The sandbox's time: real time plus an offset that only moves forward. Everything time-based
 * (token expiry, review delay, webhook retries, idempotency keys) reads this clock, so tests and
 * trainees can jump hours ahead instead of waiting.
 */
export class Clock {
  #offsetMs: number;
  readonly #persist: (offsetMs: number) => void;

  constructor(offsetMs: number, persist: (offsetMs: number) => void) {
    this.#offsetMs = offsetMs;
    this.#persist = persist;
  }

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  advance(seconds: number): void {
    this.#offsetMs += Math.round(seconds * 1000);
    this.#persist(this.#offsetMs);
  }
}

export const isoTime = (ms: number): string => new Date(ms).toISOString();

/** Work that falls due on the clock: document reviews, webhook deliveries. */
export interface DueWork {
  /** Clock time of the earliest pending item; null when nothing is pending. */
  nextDueAt(): number | null;
  /** Runs everything due now and resolves when it has finished. */
  runDue(): Promise<void>;
  /** Tells a long-running `runDue` that new work may have become due. */
  wake?(): void;
}

// Node timers overflow above 2^31-1 ms; re-arming hourly also bounds drift.
const MAX_TIMER_MS = 60 * 60 * 1000;
// Work still due right after a pass could not be done in it (e.g. set aside after an internal
// error); trying again a second later, rather than at once, keeps that from spinning.
const RETRY_STUCK_WORK_MS = 1000;

/**
 * Runs due work when its time comes in real time, right after state changes (`kick`), and on
 * demand (`drain`, used when the clock is advanced). One pass at a time; a request for another
 * pass while one runs makes that pass loop once more.
 */
export class Scheduler {
  readonly #clock: Clock;
  readonly #work: DueWork[] = [];
  readonly #onError: (error: unknown) => void;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #kickTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(clock: Clock, onError: (error: unknown) => void) {
    this.#clock = clock;
    this.#onError = onError;
  }

  /** Work sources run in the order added, each pass. */
  add(...work: DueWork[]): void {
    this.#work.push(...work);
  }

  /** Schedules a pass soon, without waiting for it. */
  kick(): void {
    if (this.#closed || this.#kickTimer) return;
    this.#kickTimer = setTimeout(() => {
      this.#kickTimer = null;
      void this.drain();
    }, 0);
    this.#kickTimer.unref();
  }

  /** Runs everything due now, including work that becomes due meanwhile. */
  drain(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      for (const work of this.#work) work.wake?.();
      return this.#running;
    }
    this.#running = this.#passes().finally(() => {
      this.#running = null;
      this.#arm();
    });
    return this.#running;
  }

  async #passes(): Promise<void> {
    do {
      this.#again = false;
      for (const work of this.#work) {
        if (this.#closed) return;
        try {
          await work.runDue();
        } catch (error) {
          this.#onError(error);
        }
      }
    } while (this.#again && !this.#closed);
  }

  #arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#closed) return;
    const dueTimes = this.#work.map((work) => work.nextDueAt()).filter((due) => due !== null);
    if (dueTimes.length === 0) return;
    const untilDue = Math.min(...dueTimes) - this.#clock.now();
    const delay = untilDue <= 0 ? RETRY_STUCK_WORK_MS : Math.min(untilDue, MAX_TIMER_MS);
    this.#timer = setTimeout(() => void this.drain(), delay);
    this.#timer.unref();
  }

  /** Stops timers; resolves once the pass under way (if any) has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#kickTimer) clearTimeout(this.#kickTimer);
    this.#timer = null;
    this.#kickTimer = null;
    await this.#running?.catch(() => undefined);
  }
}
