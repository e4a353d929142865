import { describe, expect, it } from 'vitest';
import { rateLimitedUntilText } from '#main/data/failures.ts';
import { createRequestBudget, inBackground, RateLimitedError } from '#main/data/service/budget.ts';
import { clientOf, customerBody, reply, startFakeService } from './fake-service.ts';

/** A clock that only moves when someone sleeps: sleeping `ms` moves it by `ms` at once. */
function virtualClock() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

describe('request budget', () => {
  it('lets a burst through, then the steady rate: 620 requests in the first minute at 10/s, burst 20', async () => {
    const clock = virtualClock();
    const budget = createRequestBudget({ ratePerSecond: 10, burst: 20, ...clock });
    let sent = 0;
    for (;;) {
      await budget.take('background');
      if (clock.now() >= 60_000) break;
      sent++;
    }
    expect(sent).toBeGreaterThanOrEqual(619);
    expect(sent).toBeLessThanOrEqual(620);
  });

  it('a 429 closes the gate: background work waits for it, a reviewer is told when the next try is', async () => {
    const clock = virtualClock();
    const budget = createRequestBudget({ ratePerSecond: 10, burst: 20, ...clock });
    const retryAt = budget.limited(undefined);
    expect(retryAt).toBe(30_000);
    expect(budget.closedUntil()).toBe(30_000);
    const refused = await budget.take('interactive').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused).toMatchObject({ status: 429, retryAt: 30_000, retryable: true });
    await budget.take('background');
    expect(clock.now()).toBeGreaterThanOrEqual(30_000);
    expect(budget.closedUntil()).toBeNull();
  });

  it('backs off longer each time without Retry-After, up to 5 minutes, and starts again after a success', () => {
    const clock = virtualClock();
    const budget = createRequestBudget({ ...clock });
    const closures: number[] = [];
    for (let i = 0; i < 6; i++) {
      const from = clock.now();
      closures.push(budget.limited(undefined) - from);
      void clock.sleep(closures.at(-1) ?? 0);
    }
    expect(closures).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
    budget.passed();
    const from = clock.now();
    expect(budget.limited(undefined) - from).toBe(30_000);
    // A Retry-After the service gives is followed as it is.
    expect(budget.limited(90_000) - clock.now()).toBe(90_000);
  });

  it('says the next try in local HH:MM', () => {
    const at = new Date(2026, 10, 23, 12, 5, 0).getTime();
    expect(rateLimitedUntilText(at)).toBe('Rate limited by the service — next try at 12:05');
  });
});

describe('429 without Retry-After through the client', () => {
  it('a reviewer’s read fails at once, later ones without asking; a background read waits and succeeds', async () => {
    const fake = await startFakeService();
    let limited = true;
    fake.route('GET', '/customers/c1', (_req, res) =>
      limited
        ? reply(res, 429, { code: 'TooManyRequests', message: 'Slow down.' })
        : reply(res, 200, customerBody(fake.baseUrl, 'c1')),
    );
    const outcomes: unknown[] = [];
    let t = 1_000_000;
    const gateSleeps: number[] = [];
    const { client } = clientOf(fake, {
      now: () => t,
      retry: { maxAttempts: 1 },
      onOutcome: (outcome) => outcomes.push(outcome),
      budget: {
        sleep: async (ms) => {
          gateSleeps.push(ms);
          t += ms;
          limited = false;
        },
      },
    });
    await expect(client.customers.get('c1')).rejects.toMatchObject({ status: 429 });
    expect(outcomes.at(-1)).toMatchObject({ ok: false, rateLimitedUntil: 1_030_000 });
    await expect(client.customers.get('c1')).rejects.toBeInstanceOf(RateLimitedError);
    expect(fake.count('GET', '/customers/c1')).toBe(1);
    limited = true;
    outcomes.length = 0;
    t += 60_000;
    await expect(inBackground(() => client.customers.get('c1'))).resolves.toMatchObject({ id: 'c1' });
    // The background read hit a 429, waited it out (shown with the next try), then succeeded.
    expect(outcomes).toEqual([
      expect.objectContaining({ ok: false, rateLimitedUntil: 1_000_000 + 60_000 + 60_000 }),
      { ok: true },
    ]);
    // The gate, then one token's time: what was saved up before the 429 is not spent at once after it.
    expect(gateSleeps).toEqual([60_000, 100]);
    expect(fake.count('GET', '/customers/c1')).toBe(3);
    await client.close();
    await fake.close();
  });
});

describe('what a reviewer waits for', () => {
  it('never waits for a token, but spends one, so background work slows down meanwhile', async () => {
    const clock = virtualClock();
    const budget = createRequestBudget({ ratePerSecond: 10, burst: 5, ...clock });
    for (let i = 0; i < 50; i++) await budget.take('interactive');
    expect(clock.now()).toBe(0);
    await budget.take('background');
    expect(clock.now()).toBe(100);
  });
});
