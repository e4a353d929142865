import { AsyncLocalStorage } from 'node:async_hooks';
import { ServiceError } from './errors.ts';

/**
 * One request budget for the whole client: a token bucket (a steady rate with a burst) that every
 * request takes from, so start-up reconcile, import and catch-up together never outrun what the
 * service allows, and a gate that a 429 closes until the next try.
 *
 * Background work (jobs started with `inBackground`) waits: for a token, and through a closed gate.
 * What a reviewer is waiting for (and the outbox sending their drafts) never waits for a token, but
 * spends one when there is one, so the background slows down while people work; it is refused at
 * once while the gate is closed (a RateLimitedError, which says when the next try is), so nothing
 * a person does hangs for minutes.
 */
export interface BudgetOptions {
  /** Requests per second, sustained (default 10). */
  ratePerSecond?: number;
  /** Requests that may go at once after a quiet spell (default 20). */
  burst?: number;
  /** First closure of the gate after a 429 without Retry-After (default 30 s), doubling each time. */
  firstBackOffMs?: number;
  /** Longest closure without Retry-After (default 5 min: how long a volume limit may last). */
  maxBackOffMs?: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_BUDGET = { ratePerSecond: 10, burst: 20 } as const;

export type Priority = 'interactive' | 'background';

export interface RequestBudget {
  /** Resolves when this request may go; rejects with RateLimitedError (interactive, gate closed). */
  take(priority: Priority, signal?: AbortSignal): Promise<void>;
  /** The service answered 429: close the gate. Returns when it opens again (epoch ms). */
  limited(retryAfterMs?: number): number;
  /** A request went through: the next 429 starts from the first back-off again. */
  passed(): void;
  /** When the gate opens, or null when it is open. */
  closedUntil(): number | null;
}

const priority = new AsyncLocalStorage<Priority>();

/** Runs a job whose requests wait their turn behind a reviewer's. */
export function inBackground<T>(job: () => Promise<T>): Promise<T> {
  return priority.run('background', job);
}

export function currentPriority(): Priority {
  return priority.getStore() ?? 'interactive';
}

/** Refused without asking: the service said to slow down, and the next try is at `retryAt`. */
export class RateLimitedError extends ServiceError {
  readonly retryAt: number;

  constructor(retryAt: number, nowMs: number) {
    super({
      status: 429,
      code: 'TooManyRequests',
      message: 'The service is rate limiting Vetted.',
      retryAfterMs: Math.max(0, retryAt - nowMs),
    });
    this.retryAt = retryAt;
  }
}

export function createRequestBudget(options: BudgetOptions): RequestBudget {
  const { now, sleep } = options;
  const rate = options.ratePerSecond ?? DEFAULT_BUDGET.ratePerSecond;
  const burst = Math.max(1, options.burst ?? DEFAULT_BUDGET.burst);
  const firstBackOffMs = options.firstBackOffMs ?? 30_000;
  const maxBackOffMs = options.maxBackOffMs ?? 300_000;
  let tokens = burst;
  let filledAt = now();
  let gateUntil = 0;
  let nextBackOffMs = firstBackOffMs;

  const refill = (t: number) => {
    tokens = Math.min(burst, tokens + ((t - filledAt) * rate) / 1000);
    filledAt = t;
  };

  const wait = (ms: number, signal?: AbortSignal) => sleep(Math.max(1, Math.ceil(ms)), signal);

  return {
    async take(who, signal) {
      for (;;) {
        const t = now();
        if (gateUntil > t) {
          if (who === 'interactive') throw new RateLimitedError(gateUntil, t);
          await wait(gateUntil - t, signal);
          continue;
        }
        refill(t);
        if (who === 'interactive' || tokens >= 1) {
          tokens = Math.max(0, tokens - 1);
          return;
        }
        await wait(((1 - tokens) * 1000) / rate, signal);
      }
    },
    limited(retryAfterMs) {
      const delay = retryAfterMs ?? nextBackOffMs;
      if (retryAfterMs === undefined) nextBackOffMs = Math.min(maxBackOffMs, nextBackOffMs * 2);
      gateUntil = Math.max(gateUntil, now() + delay);
      // What was saved up is spent: the service counts differently from us.
      tokens = 0;
      filledAt = gateUntil;
      return gateUntil;
    },
    passed() {
      nextBackOffMs = firstBackOffMs;
    },
    closedUntil: () => (gateUntil > now() ? gateUntil : null),
  };
}
