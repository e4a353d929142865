import { describe, expect, it } from 'vitest';
import type { ServiceStatus } from '#contract/settings.ts';
import { RateLimitedError, ServiceError, TokenError } from '#main/data/service/index.ts';
import { statusTracker } from '#main/sync/connection/connection-status.ts';

describe('the connection status', () => {
  const tracked = () => {
    const told: ServiceStatus[] = [];
    return { told, tracker: statusTracker('custom', 'https://api.example.com', (s) => told.push(s)) };
  };

  it('a token failure of any status is sign-in failed, never online', () => {
    const { tracker } = tracked();
    for (const status of [404, 403, 500]) {
      const answer = new ServiceError({ status, code: 'notFound', message: 'x' });
      tracker.record({ ok: false, error: new TokenError(answer) });
      expect(tracker.current().state).toBe('auth-failed');
    }
    const slowDown = new ServiceError({ status: 429, code: 'TooManyRequests', message: 'x' });
    tracker.record({ ok: false, error: new TokenError(slowDown) });
    expect(tracker.current().state).toBe('rate-limited');
  });

  it('a 429 says rate limited with the next try, until a call goes through', () => {
    const { tracker } = tracked();
    const until = Date.UTC(2026, 10, 23, 12, 5);
    tracker.record({
      ok: false,
      error: new RateLimitedError(until, until - 60_000),
      rateLimitedUntil: until,
    });
    expect(tracker.current()).toMatchObject({
      state: 'rate-limited',
      retryAt: new Date(until).toISOString(),
      detail: expect.stringMatching(/^Rate limited by the service — next try at \d\d:\d\d$/),
    });
    tracker.record({ ok: true });
    expect(tracker.current()).toMatchObject({ state: 'online', retryAt: null });
  });
});
