import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  defaultRetryPolicy,
  nextRetryDelayMs,
  parseRetryAfter,
  type RetryPolicy,
  sleep,
} from '#main/data/service/request-retry.ts';

const policy: RetryPolicy = { maxAttempts: 5, maxElapsedMs: 10_000, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('backoffDelayMs (full jitter)', () => {
  it('draws uniformly below an exponential ceiling', () => {
    expect([0, 1, 2, 3].map((i) => backoffDelayMs(i, policy, () => 0.999_999))).toEqual([99, 199, 399, 799]);
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(200);
  });

  it('can be zero, so that clients that failed together spread out', () => {
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
  });

  it('caps the ceiling at maxDelayMs', () => {
    expect(backoffDelayMs(10, policy, () => 0.999_999)).toBe(999);
    expect(backoffDelayMs(60, policy, () => 0.5)).toBe(500);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP-date, never negative', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('ignores what is absent or unreadable', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('nextRetryDelayMs', () => {
  const half = () => 0.5;

  it('backs off exponentially from the first retry', () => {
    const delays = [1, 2, 3, 4].map((attempts) => nextRetryDelayMs({ attempts, elapsedMs: 0 }, policy, half));
    expect(delays).toEqual([50, 100, 200, 400]);
  });

  it('stops after maxAttempts attempts in all', () => {
    expect(nextRetryDelayMs({ attempts: 5, elapsedMs: 0 }, policy, half)).toBeUndefined();
  });

  it('honours Retry-After, even beyond maxDelayMs', () => {
    expect(nextRetryDelayMs({ attempts: 1, elapsedMs: 0, retryAfterMs: 4000 }, policy, half)).toBe(4000);
  });

  it('stops when the wait would overrun the total time', () => {
    expect(
      nextRetryDelayMs({ attempts: 1, elapsedMs: 9_990, retryAfterMs: 20 }, policy, half),
    ).toBeUndefined();
    expect(
      nextRetryDelayMs({ attempts: 1, elapsedMs: 0, retryAfterMs: 60_000 }, policy, half),
    ).toBeUndefined();
    expect(nextRetryDelayMs({ attempts: 2, elapsedMs: 9_000 }, policy, half)).toBe(100);
  });

  it('ends, under the default policy, a service that fails for ever', () => {
    // What the client does with a request that always fails: retry while a delay is given.
    const give = (retryAfterMs: number | undefined, random: () => number) => {
      const state = { attempts: 1, elapsedMs: 0 };
      for (;;) {
        const delay = nextRetryDelayMs({ ...state, retryAfterMs }, defaultRetryPolicy, random);
        if (delay === undefined || state.attempts > 1000) return state;
        state.elapsedMs += delay;
        state.attempts++;
      }
    };
    for (const retryAfterMs of [undefined, 0, 1, 5_000]) {
      for (const random of [() => 0, () => 0.5, () => 0.999_999]) {
        const { attempts, elapsedMs } = give(retryAfterMs, random);
        expect(attempts).toBeGreaterThan(1); // a passing fault is retried…
        expect(attempts).toBeLessThanOrEqual(defaultRetryPolicy.maxAttempts); // …but not for ever
        expect(elapsedMs).toBeLessThanOrEqual(defaultRetryPolicy.maxElapsedMs);
      }
    }
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('rejects with the reason when aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('closing'));
    await expect(pending).rejects.toThrow('closing');
    await expect(sleep(10, controller.signal)).rejects.toThrow('closing');
  });
});
