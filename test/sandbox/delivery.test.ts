import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/poll.ts';
import {
  type Harness,
  HOUR,
  harness,
  hmacHex,
  holdRequests,
  type Receiver,
  receiver,
  subscribe,
} from './helpers.ts';

/** service-facts.md §7, Delivery: checked by independent receivers that compute the HMAC themselves. */
const DAY = 24 * HOUR;
const RETRY_OFFSETS = [0.25 * HOUR, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY];

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function setUp(
  respond: Parameters<typeof receiver>[0] = 200,
  options: Parameters<typeof harness>[0] = {},
): Promise<{ h: Harness; hooks: Receiver; sub: string }> {
  const h = await harness({ tokenTtlSeconds: 365 * DAY, ...options });
  const hooks = await receiver(respond);
  cleanup.push(
    () => h.close(),
    () => hooks.close(),
  );
  const sub = await subscribe(h, hooks.url, 'delivery-secret');
  return { h, hooks, sub };
}

async function webhooksOf(h: Harness, sub: string) {
  return (await h.api('GET', `/webhook-subscriptions/${sub}/webhooks?limit=200`)).json._embedded.webhooks as {
    id: string;
    eventId: string;
    topic: string;
    attempts: {
      request: { timestamp: string; headers: { name: string; value: string }[] };
      response?: { statusCode: number };
      error?: string;
    }[];
  }[];
}

const isPaused = async (h: Harness, sub: string): Promise<boolean> =>
  (await h.api('GET', `/webhook-subscriptions/${sub}`)).json.paused;

describe('the webhook request', () => {
  let h: Harness;
  let hooks: Receiver;
  beforeAll(async () => {
    h = await harness();
    hooks = await receiver(200);
    await subscribe(h, hooks.url, 'delivery-secret');
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
  });
  afterAll(async () => {
    await h.close();
    await hooks.close();
  });

  it('is a POST to the subscription url, one per event', async () => {
    expect(hooks.received).toHaveLength(2);
    expect(new Set(hooks.received.map((w) => w.event.topic))).toEqual(
      new Set(['customer_created', 'customer_verified']),
    );
  });

  it('headers: Content-Type application/json, X-Service-Topic, User-Agent service-webhooks/1.1', async () => {
    for (const { headers, event } of hooks.received) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-service-topic']).toBe(event.topic);
      expect(headers['user-agent']).toBe('service-webhooks/1.1');
    }
  });

  it('X-Request-Signature-SHA-256: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret', async () => {
    for (const { headers, raw } of hooks.received) {
      const signature = headers['x-request-signature-sha-256'];
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      expect(signature).toBe(hmacHex('delivery-secret', raw));
      expect(signature).not.toBe(hmacHex('another-secret', raw));
    }
  });

  it('the signature covers the body only: no timestamp header is sent', async () => {
    const names = Object.keys(hooks.received[0]!.headers).sort();
    expect(names).toEqual([
      'connection',
      'content-length',
      'content-type',
      'host',
      'user-agent',
      'x-request-signature-sha-256',
      'x-service-topic',
    ]);
  });

  it('the body is the event resource, as GET /events/{id} returns it', async () => {
    for (const { event } of hooks.received) {
      expect((await h.api('GET', `/events/${event.id}`)).json).toEqual(event);
    }
  });
});

describe('success and failure', () => {
  it.each([200, 201, 202, 204, 299])('%i is a success: one attempt, no retries', async (status) => {
    const { h, hooks, sub } = await setUp(status);
    await h.createCustomer();
    await h.sandbox.advanceClock(10 * DAY);
    expect(hooks.received).toHaveLength(2);
    const [webhook] = await webhooksOf(h, sub);
    expect(webhook!.attempts.map((a) => a.response?.statusCode)).toEqual([status]);
  });

  it.each([301, 302, 307, 308])('%i is a failure; the redirect is not followed', async (status) => {
    const paths: string[] = [];
    const { h, hooks, sub } = await setUp((req, res) => {
      paths.push(String(req.url));
      res.writeHead(status, { location: `${hooks.url}/elsewhere` }).end();
    });
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    await h.sandbox.advanceClock(0.25 * HOUR);
    expect(paths.every((path) => path === '/hooks')).toBe(true);
    const [webhook] = await webhooksOf(h, sub);
    expect(webhook!.attempts.map((a) => a.response?.statusCode)).toEqual([status, status]);
  });

  it.each([400, 401, 404, 410, 500, 502, 503])('%i is a failure, retried', async (status) => {
    const { h, sub } = await setUp(status);
    await h.createCustomer();
    await h.sandbox.advanceClock(0); // the first attempt, before the clock jumps
    await h.sandbox.advanceClock(0.25 * HOUR);
    const [webhook] = await webhooksOf(h, sub);
    expect(webhook!.attempts).toHaveLength(2);
  });

  it('no answer within the timeout is a failure (10 s in the service; 200 ms here)', async () => {
    const { h, hooks, sub } = await setUp(holdRequests, { deliveryTimeoutMs: 200 });
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const webhooks = await webhooksOf(h, sub);
    for (const webhook of webhooks) {
      expect(webhook.attempts).toHaveLength(1);
      expect(webhook.attempts[0]).not.toHaveProperty('response');
      expect(webhook.attempts[0]!.error).toBe('No response within 0.2 s.');
    }
    hooks.releaseHeld();
  });

  it('a refused connection is a failure with no response', async () => {
    const { h } = await setUp();
    const gone = await receiver();
    await gone.close();
    const sub = await subscribe(h, gone.url);
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const [webhook] = await webhooksOf(h, sub);
    expect(webhook!.attempts[0]!.error).toMatch(/ECONNREFUSED/);
  });
});

describe('retries', () => {
  it('15 min, 1 h, 3 h, 6 h, 12 h, 24 h, 48 h, 72 h after the first attempt; then none', async () => {
    const { h, sub } = await setUp(500);
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const attemptsOf = async () => (await webhooksOf(h, sub))[0]!.attempts;
    const first = Date.parse((await attemptsOf())[0]!.request.timestamp);
    const clockNow = async () => Date.parse((await h.api('GET', '/sandbox/clock')).json.now);
    for (const [i, offset] of RETRY_OFFSETS.entries()) {
      const due = first + offset * 1000;
      await h.sandbox.advanceClock((due - (await clockNow())) / 1000 - 2);
      expect(await attemptsOf()).toHaveLength(i + 1);
      await h.sandbox.advanceClock(2);
      expect(await attemptsOf()).toHaveLength(i + 2);
    }
    await h.sandbox.advanceClock(30 * DAY);
    const attempts = await attemptsOf();
    expect(attempts).toHaveLength(9);
    const sinceFirst = attempts.slice(1).map((a) => (Date.parse(a.request.timestamp) - first) / 1000);
    for (const [i, seconds] of sinceFirst.entries()) {
      expect(seconds).toBeGreaterThanOrEqual(RETRY_OFFSETS[i]!);
      expect(seconds).toBeLessThan(RETRY_OFFSETS[i]! + 5);
    }
    expect(await isPaused(h, sub)).toBe(false); // 18 failures are far from 400
  });

  it('a success ends the retries', async () => {
    const { h, hooks, sub } = await setUp(503);
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    await h.sandbox.advanceClock(HOUR);
    hooks.respondWith(200);
    await h.sandbox.advanceClock(2 * HOUR);
    await h.sandbox.advanceClock(10 * DAY);
    const [webhook] = await webhooksOf(h, sub);
    expect(webhook!.attempts.map((a) => a.response?.statusCode)).toEqual([503, 503, 503, 200]);
  });
});

describe('at most 10 deliveries in flight to one receiver', () => {
  it('holds the 11th until one finishes; other receivers are not held up', async () => {
    const { h, hooks: slow } = await setUp(holdRequests);
    const fast = await receiver(200);
    cleanup.push(() => fast.close());
    await subscribe(h, fast.url);
    for (let i = 0; i < 8; i++) await h.createCustomer(); // 16 events
    // Every webhook has had its turn once the fast receiver has all 16; the slow one still has 10.
    await until(() => slow.open() === 10 && fast.received.length === 16, 'ten held, sixteen fast');
    expect(slow.received).toHaveLength(10);
    slow.respondWith(200);
    slow.releaseHeld();
    await h.sandbox.advanceClock(0);
    expect(slow.received).toHaveLength(16);
    expect(slow.maxOpen()).toBe(10);
  });

  it('a backlog far longer than the ten in flight is sent whole, once each, oldest first', async () => {
    const { h, hooks } = await setUp(holdRequests);
    for (let i = 0; i < 20; i++) await h.createCustomer(); // 40 events
    const expected = (await h.api('GET', '/events?limit=200')).json._embedded.events
      .map((event: { id: string }) => event.id)
      .reverse();
    await until(() => hooks.open() === 10, 'ten held');
    const ids = () => hooks.received.map((webhook) => webhook.event.id as string);
    expect(new Set(ids())).toEqual(new Set(expected.slice(0, 10)));
    hooks.respondWith(200);
    hooks.releaseHeld();
    await until(() => hooks.received.length >= 40, 'all forty sent');
    // Ten are sent at a time, so neighbours may arrive in either order; none twice.
    expect(new Set(ids()).size).toBe(ids().length);
    expect(new Set(ids())).toEqual(new Set(expected));
  });
});

describe('paused subscriptions', () => {
  it('record webhooks without sending them; resuming re-sends nothing; the client redelivers', async () => {
    const { h, hooks, sub } = await setUp(200);
    await h.api('POST', `/webhook-subscriptions/${sub}`, { json: { paused: true } });
    await h.createCustomer();
    await h.sandbox.advanceClock(HOUR);
    expect(hooks.received).toHaveLength(0);
    const held = await webhooksOf(h, sub);
    expect(held.map((w) => w.attempts.length)).toEqual([0, 0]);
    expect((await h.api('POST', `/webhooks/${held[0]!.id}/retries`)).status).toBe(403);
    await h.api('POST', `/webhook-subscriptions/${sub}`, { json: { paused: false } });
    await h.sandbox.advanceClock(10 * DAY);
    expect(hooks.received).toHaveLength(0);
    for (const webhook of held)
      expect((await h.api('POST', `/webhooks/${webhook.id}/retries`)).status).toBe(201);
    await h.sandbox.advanceClock(0);
    expect(hooks.received.map((w) => w.event.id).sort()).toEqual(held.map((w) => w.eventId).sort());
  });

  it('send nothing while paused, not even retries already scheduled', async () => {
    const { h, hooks, sub } = await setUp(500);
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    expect(hooks.received).toHaveLength(2);
    await h.api('POST', `/webhook-subscriptions/${sub}`, { json: { paused: true } });
    await h.sandbox.advanceClock(10 * DAY);
    expect(hooks.received).toHaveLength(2);
  });

  it('a redelivery carries the same event id, so a receiver can deduplicate', async () => {
    const { h, hooks, sub } = await setUp(200);
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const [webhook] = await webhooksOf(h, sub);
    await h.api('POST', `/webhooks/${webhook!.id}/retries`);
    await h.sandbox.advanceClock(0);
    const ids = hooks.received.map((w) => w.event.id);
    expect(ids.filter((id) => id === webhook!.eventId)).toHaveLength(2);
  });
});

describe('auto-pause', () => {
  it('after 400 consecutive failures and 24 h since the last success, paused becomes true', async () => {
    const { h, hooks, sub } = await setUp(500);
    for (let i = 0; i < 200; i++) await h.createCustomer(); // 400 events, 400 failed first attempts
    await h.sandbox.advanceClock(0);
    expect(hooks.received).toHaveLength(400);
    expect(await isPaused(h, sub)).toBe(false); // 400 failures, but not yet 24 h
    await h.sandbox.advanceClock(DAY);
    expect(await isPaused(h, sub)).toBe(true);
    const sent = hooks.received.length;
    expect(sent).toBeGreaterThan(400);
    expect(sent).toBeLessThanOrEqual(410); // only those already in flight
    await h.sandbox.advanceClock(5 * DAY);
    expect(hooks.received).toHaveLength(sent);
  });
});
