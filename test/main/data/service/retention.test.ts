import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beyondRetention, retainedDates } from '#main/data/service/index.ts';
import { clientOf, type FakeService, reply, startFakeService } from './fake-service.ts';

let fake: FakeService;
beforeEach(async () => {
  fake = await startFakeService();
});
afterEach(() => fake.close());

describe('the service’s 30-day retention', () => {
  it('bounds a subscription’s webhooks by date on the request', async () => {
    fake.route('GET', '/webhook-subscriptions/s1/webhooks', (_req, res) =>
      reply(res, 200, { _links: {}, _embedded: { webhooks: [] }, total: 0 }),
    );
    const { client } = clientOf(fake);
    await client.subscriptions.deliveries('s1', { limit: 50, ...retainedDates(Date.UTC(2026, 10, 23, 12)) });
    await client.close();
    const [request] = fake.received.filter((r) => r.path.endsWith('/webhooks'));
    const query = new URL(request?.url ?? '', fake.baseUrl).searchParams;
    expect(query.get('startDate')).toBe('2026-10-23');
    expect(query.get('endDate')).toBe('2026-11-24');
    expect(query.get('limit')).toBe('50');
  });

  it('tells an event beyond the retention, seen from the newest one', () => {
    const newest = '2026-11-23T10:00:00.000Z';
    expect(beyondRetention('2026-10-24T10:00:00.000Z', newest)).toBe(false);
    expect(beyondRetention('2026-10-22T09:00:00.000Z', newest)).toBe(true);
    expect(beyondRetention('not a date', newest)).toBe(false);
  });
});
