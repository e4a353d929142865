import { jitteredDelayMs } from '#main/ground/jitter.ts';

/** Bounds on re-sending a request that is safe to re-send. */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** No retry starts later than this after the first attempt began. */
  maxElapsedMs: number;
  baseDelayMs: number;
  /** Cap of the computed backoff (a server's Retry-After is honoured beyond it, within maxElapsedMs). */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  maxElapsedMs: 20_000,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
};

/**
 * "Full jitter": a uniform delay between 0 and the exponential ceiling, so that clients that
 * failed together do not come back together. `retryIndex` is 0 before the first retry.
 */
export function backoffDelayMs(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  return jitteredDelayMs(retryIndex, { baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }, random);
}

/** `Retry-After` as delay-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its day and month; this keeps Date.parse from reading "-1" as a year.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

export interface RetryState {
  /** Attempts made so far (1 after the first failure). */
  attempts: number;
  /** Time since the first attempt began. */
  elapsedMs: number;
  /** What the server asked for, if anything. */
  retryAfterMs?: number;
}

/** How long to wait before the next attempt, or undefined to give up. */
export function nextRetryDelayMs(
  state: RetryState,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (state.attempts >= policy.maxAttempts) return undefined;
  const delay = state.retryAfterMs ?? backoffDelayMs(state.attempts - 1, policy, random);
  if (state.elapsedMs + delay > policy.maxElapsedMs) return undefined;
  return delay;
}

/** A timer that an AbortSignal cancels (rejecting with the signal's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
