import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/poll.ts';
import { type Harness, harness, jpeg, multipart, person, retryBody } from './helpers.ts';

/** service-facts.md §8: Idempotency-Key on POST. */
let h: Harness;
beforeAll(async () => {
  h = await harness({ tokenTtlSeconds: 30 * 86_400 });
});
afterAll(() => h.close());

const keyed = (key: string) => ({ 'idempotency-key': key });
const totals = async () => ({
  customers: (await h.api('GET', '/customers')).json.total,
  events: (await h.api('GET', '/events')).json.total,
});

describe('same key and same body within 24 h: the original response, nothing new', () => {
  it('POST /customers: same 201 and Location; one customer, one set of events', async () => {
    const key = crypto.randomUUID();
    const body = person();
    const first = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    const before = await totals();
    const again = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await totals()).toEqual(before);
  });

  it('the same object with its keys in another order counts as the same body', async () => {
    const key = crypto.randomUUID();
    const body = person();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    const again = await h.api('POST', '/customers', { json: reordered, headers: keyed(key) });
    expect(again.headers.location).toBe(first.headers.location);
  });

  it('an error answer is replayed too', async () => {
    const key = crypto.randomUUID();
    const body = person({ email: 'nope' });
    const first = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    const again = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    expect(first.status).toBe(400);
    expect(again.text).toBe(first.text);
  });

  it('the retry: the same 200 body, and the single retry is not used up twice', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const key = crypto.randomUUID();
    const body = retryBody({ firstName: 'document' });
    const first = await h.api('POST', `/customers/${id}`, { json: body, headers: keyed(key) });
    const again = await h.api('POST', `/customers/${id}`, { json: body, headers: keyed(key) });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
  });

  it('a document upload with a fresh multipart boundary: same Location, one document', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const key = crypto.randomUUID();
    const send = () => {
      const form = multipart([
        { name: 'documentType', data: Buffer.from('passport') },
        { name: 'file', filename: 'p.jpg', contentType: 'image/jpeg', data: jpeg() },
      ]);
      return h.api('POST', `/customers/${id}/documents`, {
        body: form.body,
        headers: { 'content-type': form.contentType, ...keyed(key) },
      });
    };
    const first = await send();
    const again = await send();
    expect(again.headers.location).toBe(first.headers.location);
    expect((await h.api('GET', `/customers/${id}/documents`)).json.total).toBe(1);
  });

  it('webhook subscriptions follow the same rule', async () => {
    const key = crypto.randomUUID();
    const body = { url: 'https://idem.example/h', secret: 's' };
    const first = await h.api('POST', '/webhook-subscriptions', { json: body, headers: keyed(key) });
    const again = await h.api('POST', '/webhook-subscriptions', { json: body, headers: keyed(key) });
    expect(again.headers.location).toBe(first.headers.location);
    expect((await h.api('GET', '/webhook-subscriptions')).json.total).toBe(1);
    await h.api('DELETE', String(first.headers.location));
  });
});

describe('same key, different request', () => {
  it('a different body: 400 ValidationError, embedded Invalid at /', async () => {
    const key = crypto.randomUUID();
    await h.api('POST', '/customers', { json: person(), headers: keyed(key) });
    const res = await h.api('POST', '/customers', { json: person(), headers: keyed(key) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('ValidationError');
    expect(res.json._embedded.errors).toEqual([
      { code: 'Invalid', message: expect.any(String), path: '/', _links: {} },
    ]);
  });

  it('the same body to another path is a different request', async () => {
    const key = crypto.randomUUID();
    const a = await h.createCustomer({ firstName: 'retry' });
    const b = await h.createCustomer({ firstName: 'retry' });
    const body = retryBody();
    expect((await h.api('POST', `/customers/${a}`, { json: body, headers: keyed(key) })).status).toBe(200);
    expect((await h.api('POST', `/customers/${b}`, { json: body, headers: keyed(key) })).status).toBe(400);
  });
});

describe('same key while the first request is still running', () => {
  it('409 Conflict; the first completes; then the replay', async () => {
    // The first request is held until the faults are set again: the second meets it still running.
    await h.api('POST', '/sandbox/faults', {
      json: { rate: 1, kinds: ['delay'], paths: ['/customers'], delayMs: 60_000 },
    });
    const key = crypto.randomUUID();
    const body = person();
    const first = h.api('POST', '/customers', { json: body, headers: keyed(key) });
    try {
      await until(
        async () => (await h.api('GET', '/sandbox/stats')).json.heldRequests === 1,
        'a held request',
      );
      const second = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
      expect(second.status).toBe(409);
      expect(second.json).toEqual({ code: 'Conflict', message: expect.any(String) });
    } finally {
      await h.api('POST', '/sandbox/faults', { json: { rate: 0 } });
    }
    expect((await first).status).toBe(201);
    const third = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    expect(third.status).toBe(201);
    expect(third.headers['idempotent-replayed']).toBe('true');
  });
});

describe('after 24 h a key is forgotten', () => {
  it('the same request runs again (and meets the Duplicate check)', async () => {
    const key = crypto.randomUUID();
    const body = person();
    const first = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    await h.sandbox.advanceClock(24 * 3600 - 60);
    expect((await h.api('POST', '/customers', { json: body, headers: keyed(key) })).headers.location).toBe(
      first.headers.location,
    );
    await h.sandbox.advanceClock(60);
    const later = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    expect(later.status).toBe(400);
    expect(later.json._embedded.errors[0]).toMatchObject({
      code: 'Duplicate',
      _links: { about: { href: first.headers.location } },
    });
  });
});

describe('keys on other methods and without a key', () => {
  it('a GET ignores Idempotency-Key', async () => {
    const res = await h.api('GET', '/customers', { headers: keyed(crypto.randomUUID()) });
    expect(res.status).toBe(200);
  });

  it('POST without a key creates each time', async () => {
    const body = person();
    expect((await h.api('POST', '/customers', { json: body })).status).toBe(201);
    expect((await h.api('POST', '/customers', { json: body })).status).toBe(400); // Duplicate
  });

  it('an overlong key is a 400 BadRequest', async () => {
    const res = await h.api('POST', '/customers', { json: person(), headers: keyed('k'.repeat(256)) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('BadRequest');
  });
});

describe('expired keys are swept now and then, and judged by their age in between', () => {
  it('a key past 24 h is forgotten even right after a sweep', async () => {
    const key = crypto.randomUUID();
    const body = person();
    const created = (await h.api('POST', '/customers', { json: body, headers: keyed(key) })).headers.location;
    await h.sandbox.advanceClock(24 * 3600 - 10);
    // Another keyed request sweeps the expired keys now; ours has 10 s left and is kept.
    const other = await h.api('POST', '/customers', { json: person(), headers: keyed(crypto.randomUUID()) });
    await h.sandbox.advanceClock(10);
    // Not the replay of the first answer: the request runs again and meets the e-mail already in use.
    const again = await h.api('POST', '/customers', { json: body, headers: keyed(key) });
    const error = again.json._embedded?.errors?.[0];
    expect([other.status, again.status, error?.code, error?._links?.about?.href]).toEqual([
      201,
      400,
      'Duplicate',
      created,
    ]);
  });
});
