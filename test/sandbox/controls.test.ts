import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/poll.ts';
import { call, type Harness, harness, person, receiver, subscribe } from './helpers.ts';

/** The sandbox's own controls: clock, faults, stats (same bearer token as the API; never faulted). */
let h: Harness;
beforeAll(async () => {
  h = await harness({ reviewDelayMs: 60_000, tokenTtlSeconds: 365 * 86_400 });
});
afterAll(() => h.close());
afterEach(async () => {
  await h.api('POST', '/sandbox/faults', { json: { rate: 0 } });
});

const control = (method: string, path: string, json?: unknown) =>
  call(`${h.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
const faults = (json: unknown) => control('POST', '/sandbox/faults', json);
const customersNamed = async (email: unknown) =>
  (await h.api('GET', `/customers?email=${encodeURIComponent(String(email))}`)).json.total;

describe('access', () => {
  it('needs the bearer token; any Accept will do', async () => {
    const res = await call(`${h.base}/sandbox/stats`);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('InvalidCredentials');
    expect((await control('GET', '/sandbox/stats')).status).toBe(200);
  });

  it('unknown control: 404; wrong method: 405', async () => {
    expect((await control('GET', '/sandbox/nothing')).status).toBe(404);
    expect((await control('DELETE', '/sandbox/clock')).status).toBe(405);
  });
});

describe('POST /sandbox/clock', () => {
  it('moves the clock and answers with the new time', async () => {
    const before = Date.parse((await control('GET', '/sandbox/clock')).json.now);
    const res = await control('POST', '/sandbox/clock', { advanceSeconds: 3600 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.now) - before).toBeGreaterThanOrEqual(3_600_000);
    expect(res.json.offsetSeconds).toBeGreaterThanOrEqual(3600);
  });

  it('runs what falls due before answering (a document review)', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const doc = String((await h.upload(id)).headers.location);
    await control('POST', '/sandbox/clock', { advanceSeconds: 60 });
    expect((await h.api('GET', doc)).json.status).toBe('reviewed');
  });

  it('runs due webhook deliveries before answering', async () => {
    const hooks = await receiver(200);
    const sub = await subscribe(h, hooks.url);
    try {
      await h.createCustomer();
      await control('POST', '/sandbox/clock', { advanceSeconds: 0 });
      expect(hooks.received.length).toBeGreaterThanOrEqual(2);
    } finally {
      await h.api('DELETE', `/webhook-subscriptions/${sub}`);
      await hooks.close();
    }
  });

  it.each([{}, { advanceSeconds: -1 }, { advanceSeconds: 'soon' }, { advanceSeconds: 1e12 }])(
    'a bad body %j is a ValidationError',
    async (body) => {
      const res = await control('POST', '/sandbox/clock', body);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('ValidationError');
      expect(res.json._embedded.errors[0].path).toBe('/advanceSeconds');
    },
  );

  it('advanceClock() of the API does the same', async () => {
    const before = Date.parse((await control('GET', '/sandbox/clock')).json.now);
    await h.sandbox.advanceClock(120);
    expect(Date.parse((await control('GET', '/sandbox/clock')).json.now) - before).toBeGreaterThanOrEqual(
      120_000,
    );
    await expect(h.sandbox.advanceClock(-5)).rejects.toThrow(RangeError);
  });
});

describe('POST /sandbox/faults', () => {
  it('answers with the configuration; GET reads it; {"rate": 0} clears it', async () => {
    const set = await faults({ rate: 0.5, kinds: ['500'], paths: ['/customers'] });
    expect(set.json).toEqual({ rate: 0.5, kinds: ['500'], paths: ['/customers'], delayMs: 2000 });
    expect((await control('GET', '/sandbox/faults')).json.rate).toBe(0.5);
    await faults({ rate: 0 });
    expect((await control('GET', '/sandbox/faults')).json.rate).toBe(0);
  });

  it.each([
    { rate: 2 },
    { rate: -0.1 },
    { rate: 1, kinds: ['teapot'] },
    { rate: 1, kinds: [] },
    { kinds: ['500'] },
  ])('a bad configuration %j is a ValidationError', async (body) => {
    expect((await faults(body)).json.code).toBe('ValidationError');
  });

  it('500 after the work: the customer exists; a keyed replay returns the original 201', async () => {
    await faults({ rate: 1, kinds: ['500'], paths: ['/customers'] });
    const body = person();
    const key = crypto.randomUUID();
    const lost = await h.api('POST', '/customers', { json: body, headers: { 'idempotency-key': key } });
    expect(lost.status).toBe(500);
    expect(lost.json.code).toBe('ServerError');
    await faults({ rate: 0 });
    expect(await customersNamed(body.email)).toBe(1);
    const replay = await h.api('POST', '/customers', { json: body, headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(201);
    expect(await customersNamed(body.email)).toBe(1);
  });

  it('reset after the work: the connection drops, the work is done and replayable', async () => {
    await faults({ rate: 1, kinds: ['reset'], paths: ['/customers'] });
    const body = person();
    const key = crypto.randomUUID();
    await expect(
      h.api('POST', '/customers', { json: body, headers: { 'idempotency-key': key } }),
    ).rejects.toThrow();
    await faults({ rate: 0 });
    const replay = await h.api('POST', '/customers', { json: body, headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(201);
    expect(await customersNamed(body.email)).toBe(1);
  });

  it('429 and 503 before the work: nothing is done', async () => {
    for (const kind of ['429', '503']) {
      await faults({ rate: 1, kinds: [kind], paths: ['/customers'] });
      const body = person();
      const res = await h.api('POST', '/customers', {
        json: body,
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expect(res.status).toBe(Number(kind));
      await faults({ rate: 0 });
      expect(await customersNamed(body.email)).toBe(0);
    }
  });

  it('delay holds the request until its time is up or the faults are set again, then answers normally', async () => {
    await faults({ rate: 1, kinds: ['delay'], paths: ['/customers'], delayMs: 60_000 });
    const held = h.api('POST', '/customers', { json: person() });
    const heldCount = async () => (await h.api('GET', '/sandbox/stats')).json.heldRequests;
    await until(async () => (await heldCount()) === 1, 'a held request');
    await faults({ rate: 0 });
    expect((await held).status).toBe(201);
    expect(await heldCount()).toBe(0);

    await faults({ rate: 1, kinds: ['delay'], paths: ['/customers'], delayMs: 1 });
    expect((await h.api('POST', '/customers', { json: person() })).status).toBe(201);
  });

  it('paths: exact paths, route patterns and prefixes with *; other paths are untouched', async () => {
    const id = await h.createCustomer();
    await faults({ rate: 1, kinds: ['503'], paths: ['/customers/{id}'] });
    expect((await h.customer(id)).status).toBe(503);
    expect((await h.api('GET', '/customers')).status).toBe(200);
    await faults({ rate: 1, kinds: ['503'], paths: ['/events*'] });
    expect((await h.api('GET', '/events')).status).toBe(503);
    expect((await h.customer(id)).status).toBe(200);
  });

  it('no paths: every API route, the token endpoint included', async () => {
    await faults({ rate: 1, kinds: ['503'] });
    expect((await h.api('GET', '/customers')).status).toBe(503);
    const token = await call(`${h.base}/oauth/v2/token`, { method: 'POST' });
    expect(token.status).toBe(503);
  });

  it('never applies to /sandbox/* control routes', async () => {
    await faults({ rate: 1, kinds: ['500', '503', '429', 'reset'], paths: ['/sandbox/*'] });
    for (let i = 0; i < 5; i++) expect((await control('GET', '/sandbox/stats')).status).toBe(200);
    await faults({ rate: 1, kinds: ['reset'] });
    expect((await faults({ rate: 0 })).status).toBe(200);
  });

  it('a rate between 0 and 1 faults some requests, not all', async () => {
    await faults({ rate: 0.5, kinds: ['503'], paths: ['/events'] });
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) statuses.add((await h.api('GET', '/events?limit=1')).status);
    expect(statuses).toEqual(new Set([200, 503]));
  });
});

describe('GET /sandbox/stats', () => {
  it('counts tokens, requests per route and status, customers by status, deliveries', async () => {
    const own = await harness();
    const hooks = await receiver(200);
    try {
      await subscribe(own, hooks.url);
      await own.createCustomer({ firstName: 'retry' });
      await own.createCustomer();
      await own.customer(crypto.randomUUID());
      await own.sandbox.advanceClock(0);
      const stats = (await own.api('GET', '/sandbox/stats')).json;
      expect(stats.tokensIssued).toBe(1);
      expect(stats.requests['POST /customers']).toEqual({ '201': 2 });
      expect(stats.requests['GET /customers/{id}']).toEqual({ '404': 1 });
      expect(stats.requests['POST /oauth/v2/token']).toEqual({ '200': 1 });
      expect(stats.customers).toEqual({ verified: 1, retry: 1, document: 0, suspended: 0 });
      expect(stats.deliveries).toEqual({ attempted: 4, succeeded: 4, failed: 0 });
    } finally {
      await own.close();
      await hooks.close();
    }
  });

  it('counts resets and unmatched routes', async () => {
    await faults({ rate: 1, kinds: ['reset'], paths: ['/events'] });
    await h.api('GET', '/events').catch(() => undefined);
    await faults({ rate: 0 });
    await h.api('GET', '/nowhere');
    const { requests } = (await control('GET', '/sandbox/stats')).json;
    expect(requests['GET /events'].reset).toBeGreaterThanOrEqual(1);
    expect(requests['GET (unmatched)']['404']).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /sandbox/customers/{id}', () => {
  it('shows what the sandbox received for a customer, corrections of the retry included, never the SSN', async () => {
    const body = person({ firstName: 'retry', address1: '1 First Street' });
    const id = await h.createCustomer(body);
    expect((await control('GET', `/sandbox/customers/${id}`)).json).toMatchObject({
      id,
      status: 'retry',
      retried: false,
      firstName: 'retry',
      address1: '1 First Street',
      city: body.city,
      dateOfBirth: body.dateOfBirth,
    });
    const corrected = { ...body, firstName: 'document', address1: '2 Second Avenue', tin: '123-45-6789' };
    expect((await h.api('POST', `/customers/${id}`, { json: corrected })).status).toBe(200);
    const received = await control('GET', `/sandbox/customers/${id}`);
    expect(received.json).toMatchObject({ status: 'document', retried: true, address1: '2 Second Avenue' });
    expect(received.text).not.toMatch(/6789|123-45/);
    expect((await control('GET', `/sandbox/customers/${crypto.randomUUID()}`)).status).toBe(404);
  });
});
