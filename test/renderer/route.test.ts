import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute } from '#renderer/route.ts';

describe('addresses of the app’s places', () => {
  it('gives each case in the queue its own address, and reads it back', () => {
    const route = { view: 'queue', section: 'retry', customerId: 'c-1' } as const;
    expect(formatRoute(route)).toBe('#/queue/retry/c-1');
    expect(parseRoute('#/queue/retry/c-1')).toEqual(route);
    expect(parseRoute(formatRoute({ view: 'queue', section: 'all', customerId: 'a/b c' }))).toEqual({
      view: 'queue',
      section: 'all',
      customerId: 'a/b c',
    });
  });

  it('lands in the queue for the launch token, an unknown place, or the draft form (which names no draft)', () => {
    for (const hash of ['', '#token=abc', '#/nowhere', '#/draft', '#/queue/bogus']) {
      expect(parseRoute(hash), hash).toMatchObject({ view: 'queue', customerId: null });
    }
    expect(parseRoute('#/events')).toEqual({ view: 'events' });
    expect(formatRoute({ view: 'settings' })).toBe('#/settings');
  });

  it('opens a case link’s address in the whole queue, whatever its section', () => {
    expect(parseRoute('#/case/9b2e4c1a-0f0e-4a57-9c1e-2d8e3f1a7b6c')).toEqual({
      view: 'queue',
      section: 'all',
      customerId: '9b2e4c1a-0f0e-4a57-9c1e-2d8e3f1a7b6c',
    });
    expect(parseRoute('#/case/')).toMatchObject({ view: 'queue', customerId: null });
  });

  it('carries any id the service may give, and reads a malformed address without throwing', () => {
    for (const customerId of ['C1 / ?#%', 'ÄÖ-😀', '%41', 'a%2Fb', ' x ']) {
      const route = { view: 'queue', section: 'all', customerId } as const;
      expect(parseRoute(formatRoute(route))).toEqual(route);
    }
    expect(parseRoute('#/case/%E0')).toEqual({ view: 'queue', section: 'all', customerId: '%E0' });
  });
});
