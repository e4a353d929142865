import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, idOf, type Receiver, type Res, receiver, subscribe } from './helpers.ts';

/** service-facts.md §7, the API table: webhook subscriptions and their webhooks. */
let h: Harness;
let hooks: Receiver;
beforeAll(async () => {
  h = await harness();
  hooks = await receiver(200);
});
afterAll(async () => {
  await h.close();
  await hooks.close();
});
// Each test starts from no subscriptions (at most 10 may exist).
afterEach(async () => {
  const list = await h.api('GET', '/webhook-subscriptions');
  for (const sub of list.json._embedded['webhook-subscriptions']) await h.api('DELETE', sub._links.self.href);
});

const createSub = (json: unknown) => h.api('POST', '/webhook-subscriptions', { json });

function fieldErrors(res: Res): [string, string, string][] {
  expect(res.status, res.text).toBe(400);
  expect(res.json.code).toBe('ValidationError');
  return res.json._embedded.errors.map((e: Record<string, string>) => [e.path, e.code, e.message]);
}

describe('create — POST /webhook-subscriptions', () => {
  it('201 + Location', async () => {
    const res = await createSub({ url: 'https://example.com/hooks', secret: 'shh' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${h.base}/webhook-subscriptions/[0-9a-f-]{36}$`));
    expect(res.text).toBe('');
  });

  it.each([
    'https://example.com/h',
    'http://127.0.0.1:9/h',
    'http://localhost:8080/h',
    'http://[::1]:9/h',
    'http://127.8.9.10/h',
  ])('url %s is accepted (https, or http to a loopback host)', async (url) => {
    expect((await createSub({ url, secret: 's' })).status).toBe(201);
  });

  it.each([
    'http://example.com/h',
    'http://10.0.0.1/h',
    'ftp://example.com/h',
    'http://localhost.example.com/h',
  ])('url %s is refused: Invalid', async (url) => {
    expect(fieldErrors(await createSub({ url, secret: 's' }))).toEqual([
      ['/url', 'Invalid', 'Url must use https (http is allowed only to a loopback host).'],
    ]);
  });

  it('url that is not a URL: InvalidFormat; missing: Required', async () => {
    expect(fieldErrors(await createSub({ url: 'not a url', secret: 's' }))).toEqual([
      ['/url', 'InvalidFormat', 'Url invalid.'],
    ]);
    expect(fieldErrors(await createSub({ url: 42, secret: 's' }))).toEqual([
      ['/url', 'InvalidFormat', 'Url invalid.'],
    ]);
    expect(fieldErrors(await createSub({ secret: 's' }))).toEqual([['/url', 'Required', 'Url required.']]);
  });

  it('secret required, at most 128 chars', async () => {
    expect(fieldErrors(await createSub({ url: 'https://e.example/h' }))).toEqual([
      ['/secret', 'Required', 'Secret required.'],
    ]);
    expect(fieldErrors(await createSub({ url: 'https://e.example/h', secret: '' }))).toEqual([
      ['/secret', 'Required', 'Secret required.'],
    ]);
    expect((await createSub({ url: 'https://e.example/h', secret: 's'.repeat(128) })).status).toBe(201);
    expect(fieldErrors(await createSub({ url: 'https://e.example/h', secret: 's'.repeat(129) }))).toEqual([
      ['/secret', 'InvalidFormat', 'Secret must be at most 128 characters.'],
    ]);
  });

  it('both fields wrong: both reported', async () => {
    expect(fieldErrors(await createSub({})).map(([path]) => path)).toEqual(['/url', '/secret']);
  });

  it('more than 10 subscriptions: 400 MaxNumberOfResources', async () => {
    for (let i = 0; i < 10; i++) await subscribe(h, `https://n${i}.example/h`);
    const res = await createSub({ url: 'https://eleven.example/h', secret: 's' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('MaxNumberOfResources');
  });
});

describe('get and list', () => {
  it('GET: {_links: {self, webhooks}, id, url, paused, created}, never the secret', async () => {
    const id = await subscribe(h, 'https://get.example/h', 'top-secret-value');
    const res = await h.api('GET', `/webhook-subscriptions/${id}`);
    expect(res.json).toEqual({
      _links: {
        self: expect.objectContaining({ href: `${h.base}/webhook-subscriptions/${id}` }),
        webhooks: expect.objectContaining({ href: `${h.base}/webhook-subscriptions/${id}/webhooks` }),
      },
      id,
      url: 'https://get.example/h',
      paused: false,
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
    });
    expect(res.text).not.toContain('top-secret-value');
  });

  it('list: {_links, _embedded: {"webhook-subscriptions": [...]}, total}', async () => {
    const a = await subscribe(h, 'https://a.example/h');
    const b = await subscribe(h, 'https://b.example/h');
    const res = await h.api('GET', '/webhook-subscriptions');
    expect(res.json.total).toBe(2);
    expect(res.json._links.self.href).toBe(`${h.base}/webhook-subscriptions`);
    expect(res.json._embedded['webhook-subscriptions'].map((s: { id: string }) => s.id).sort()).toEqual(
      [a, b].sort(),
    );
  });

  it('unknown id: 404 "Webhook subscription not found."', async () => {
    const res = await h.api('GET', `/webhook-subscriptions/${crypto.randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.json.message).toBe('Webhook subscription not found.');
  });
});

describe('pause / resume — POST /webhook-subscriptions/{id} {paused}', () => {
  it('200 with the subscription, paused true then false', async () => {
    const id = await subscribe(h, 'https://p.example/h');
    const paused = await h.api('POST', `/webhook-subscriptions/${id}`, { json: { paused: true } });
    expect(paused.status).toBe(200);
    expect(paused.json).toMatchObject({ id, paused: true });
    expect((await h.api('GET', `/webhook-subscriptions/${id}`)).json.paused).toBe(true);
    const resumed = await h.api('POST', `/webhook-subscriptions/${id}`, { json: { paused: false } });
    expect(resumed.json.paused).toBe(false);
  });

  it('paused must be a boolean; url and secret are read-only', async () => {
    const id = await subscribe(h, 'https://p.example/h');
    const url = `/webhook-subscriptions/${id}`;
    expect(fieldErrors(await h.api('POST', url, { json: {} }))).toEqual([
      ['/paused', 'Required', 'Paused required.'],
    ]);
    expect(fieldErrors(await h.api('POST', url, { json: { paused: 'yes' } }))).toEqual([
      ['/paused', 'InvalidFormat', 'Paused invalid.'],
    ]);
    expect(fieldErrors(await h.api('POST', url, { json: { paused: true, secret: 'new' } }))).toEqual([
      ['/secret', 'ReadOnly', 'Secret is read-only.'],
    ]);
  });

  it('unknown id: 404', async () => {
    expect(
      (await h.api('POST', `/webhook-subscriptions/${crypto.randomUUID()}`, { json: { paused: true } }))
        .status,
    ).toBe(404);
  });
});

describe('delete — DELETE /webhook-subscriptions/{id}', () => {
  it('deletes the subscription and its delivery history', async () => {
    const id = await subscribe(h, hooks.url);
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const [webhook] = (await h.api('GET', `/webhook-subscriptions/${id}/webhooks`)).json._embedded.webhooks;
    expect((await h.api('GET', `/webhooks/${webhook.id}`)).status).toBe(200);
    const res = await h.api('DELETE', `/webhook-subscriptions/${id}`);
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(id);
    expect((await h.api('GET', `/webhook-subscriptions/${id}`)).status).toBe(404);
    expect((await h.api('GET', `/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await h.api('DELETE', `/webhook-subscriptions/${id}`)).status).toBe(404);
  });
});

describe('deliveries — GET /webhook-subscriptions/{id}/webhooks', () => {
  it('each {id, topic, eventId, subscriptionId, attempts: [{id, request, response}]}', async () => {
    const id = await subscribe(h, hooks.url);
    const customer = await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const res = await h.api('GET', `/webhook-subscriptions/${id}/webhooks`);
    expect(res.json.total).toBe(2);
    const [webhook] = res.json._embedded.webhooks;
    const event = (await h.api('GET', `/events/${webhook.eventId}`)).json;
    expect(webhook).toMatchObject({ id: expect.any(String), topic: 'customer_verified', subscriptionId: id });
    expect(event._links.customer.href).toBe(`${h.base}/customers/${customer}`);
    expect(webhook.attempts).toHaveLength(1);
    const [attempt] = webhook.attempts;
    expect(attempt.request).toEqual({
      timestamp: expect.stringMatching(/Z$/),
      url: hooks.url,
      headers: expect.arrayContaining([{ name: 'X-Service-Topic', value: 'customer_verified' }]),
      body: JSON.stringify(event),
    });
    expect(attempt.response).toEqual({
      timestamp: expect.stringMatching(/Z$/),
      headers: expect.arrayContaining([{ name: 'content-type', value: 'text/plain' }]),
      statusCode: 200,
      body: 'status 200',
    });
  });

  it('paginated with limit and offset, newest first', async () => {
    const id = await subscribe(h, hooks.url);
    await h.createCustomer();
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const page = await h.api('GET', `/webhook-subscriptions/${id}/webhooks?limit=3&offset=1`);
    expect(page.json.total).toBe(4);
    expect(page.json._embedded.webhooks).toHaveLength(3);
    expect(page.json._links.prev.href).toContain('offset=0');
    expect(page.json._embedded.webhooks[0].topic).toBe('customer_created');
  });

  it('unknown subscription: 404', async () => {
    expect((await h.api('GET', `/webhook-subscriptions/${crypto.randomUUID()}/webhooks`)).status).toBe(404);
  });
});

describe('redeliver — POST /webhooks/{id}/retries', () => {
  it('201 + Location, and one more attempt', async () => {
    const id = await subscribe(h, hooks.url);
    await h.createCustomer();
    await h.sandbox.advanceClock(0);
    const [webhook] = (await h.api('GET', `/webhook-subscriptions/${id}/webhooks`)).json._embedded.webhooks;
    const res = await h.api('POST', `/webhooks/${webhook.id}/retries`);
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(
      new RegExp(`^${h.base}/webhooks/${webhook.id}/retries/[0-9a-f-]{36}$`),
    );
    await h.sandbox.advanceClock(0);
    expect((await h.api('GET', `/webhooks/${webhook.id}`)).json.attempts).toHaveLength(2);
    const retry = await h.api('GET', String(res.headers.location));
    expect(retry.json.id).toBe(idOf(res.headers.location));
    const retries = await h.api('GET', `/webhooks/${webhook.id}/retries`);
    expect(retries.json.total).toBe(1);
  });

  it('unknown webhook: 404', async () => {
    expect((await h.api('POST', `/webhooks/${crypto.randomUUID()}/retries`)).status).toBe(404);
  });
});
