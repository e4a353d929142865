import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '#main/data/service/index.ts';
import { samplePerson } from '#test/support/person.ts';
import { clientOf, customerBody, type FakeService, HAL, reply, startFakeService } from './fake-service.ts';

let fake: FakeService;
let client: ServiceClient;
beforeEach(async () => {
  fake = await startFakeService();
  client = clientOf(fake).client;
});
afterEach(async () => {
  await client.close();
  await fake.close();
});

const retryInput = samplePerson('Jane', 'Doe', 'jane@example.com', { tin: '123-45-6789' });

const sub = (id: string, paused = false) => ({
  _links: { self: { href: `${fake.baseUrl}/webhook-subscriptions/${id}` } },
  id,
  url: 'https://hooks.example/vetted',
  paused,
  created: '2026-11-22T10:00:00.000+00:00',
});

describe('customers', () => {
  it('retry: posts the full data and reads the customer answered', async () => {
    fake.route('POST', '/customers/c1', (_req, res) =>
      reply(res, 200, customerBody(fake.baseUrl, 'c1', 'document')),
    );
    const customer = await client.customers.retry('c1', retryInput, { idempotencyKey: 'r-1' });
    expect(customer.status).toBe('document');
    const post = fake.received.find((r) => r.method === 'POST' && r.path === '/customers/c1')!;
    expect(JSON.parse(post.body.toString()).tin).toBe('123-45-6789');
    expect(post.headers['idempotency-key']).toBe('r-1');
  });

  it('retry: reads the customer back when the answer has no body', async () => {
    fake.route('POST', '/customers/c1', (_req, res) => reply(res, 200));
    fake.route('GET', '/customers/c1', (_req, res) =>
      reply(res, 200, customerBody(fake.baseUrl, 'c1', 'verified')),
    );
    await expect(client.customers.retry('c1', retryInput)).resolves.toMatchObject({ status: 'verified' });
  });

  it('list: sends the query (status repeated) and reads the page', async () => {
    fake.route('GET', '/customers', (_req, res) =>
      reply(res, 200, {
        _links: {
          self: { href: `${fake.baseUrl}/customers?limit=2` },
          next: { href: `${fake.baseUrl}/customers?offset=2` },
        },
        _embedded: {
          customers: [customerBody(fake.baseUrl, 'c1', 'retry'), customerBody(fake.baseUrl, 'c2', 'kba')],
        },
        total: 7,
      }),
    );
    const page = await client.customers.list({
      limit: 2,
      offset: 0,
      search: 'jane',
      status: ['retry', 'kba'],
    });
    expect(page).toMatchObject({ total: 7, links: { next: { href: `${fake.baseUrl}/customers?offset=2` } } });
    expect('customers' in page && page.customers.map((c) => c.status)).toEqual(['retry', 'kba']);
    const query = new URL(fake.received.at(-1)!.url, fake.baseUrl).searchParams;
    expect(query.getAll('status')).toEqual(['retry', 'kba']);
    expect(Object.fromEntries(query)).toMatchObject({ limit: '2', offset: '0', search: 'jane' });
    expect(query.has('email')).toBe(false);
  });

  it.each([404, 405])('list: a service without it (%i) is unsupported', async (status) => {
    fake.route('GET', '/customers', (_req, res) => reply(res, status, { code: 'x', message: 'y' }));
    await expect(client.customers.list({})).resolves.toEqual({ unsupported: true });
  });

  it('get: escapes the id into the path', async () => {
    await expect(client.customers.get('a/b')).rejects.toMatchObject({ status: 404 });
    expect(fake.received.at(-1)?.url).toBe('/customers/a%2Fb');
  });
});

describe('documents', () => {
  it('upload: a multipart form with progress, no-cache and the key', async () => {
    let form: FormData | undefined;
    fake.route('POST', '/customers/c1/documents', async (req, res) => {
      form = await new Response(req.body, {
        headers: { 'Content-Type': req.headers['content-type']! },
      }).formData();
      reply(res, 201, undefined, { Location: `${fake.baseUrl}/documents/d1` });
    });
    const bytes = new Uint8Array(300_000).fill(7);
    const progress: number[] = [];
    const created = await client.documents.upload(
      'c1',
      { documentType: 'passport', fileName: 'passport.jpg', contentType: 'image/jpeg', bytes },
      { idempotencyKey: 'u-1', onProgress: (sent) => progress.push(sent) },
    );
    expect(created).toEqual({ url: `${fake.baseUrl}/documents/d1`, id: 'd1' });
    const post = fake.received.find((r) => r.path === '/customers/c1/documents')!;
    expect(post.headers).toMatchObject({
      'cache-control': 'no-cache',
      accept: HAL,
      'idempotency-key': 'u-1',
    });
    expect(post.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(post.headers['content-length'])).toBe(post.body.byteLength);
    expect(form?.get('documentType')).toBe('passport');
    const file = form?.get('file') as File;
    expect(file.name).toBe('passport.jpg');
    expect(file.size).toBe(bytes.byteLength);
    expect(progress.at(-1)).toBe(post.body.byteLength);
  });

  it('upload: re-sent whole after a renewed token', async () => {
    fake.route('POST', '/customers/c1/documents', (req, res) => {
      if (req.headers.authorization === `Bearer ${fake.tokens[0]}`) {
        return reply(res, 401, { code: 'ExpiredAccessToken', message: 'Generate a new access token.' });
      }
      reply(res, 201, undefined, { Location: `${fake.baseUrl}/documents/d2` });
    });
    const bytes = new Uint8Array(100_000).fill(1);
    await expect(
      client.documents.upload('c1', {
        documentType: 'license',
        fileName: 'l.png',
        contentType: 'image/png',
        bytes,
      }),
    ).resolves.toMatchObject({ id: 'd2' });
    const posts = fake.received.filter((r) => r.path === '/customers/c1/documents');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.body.byteLength).toBe(posts[0]?.body.byteLength);
  });

  it('get and list for a customer', async () => {
    const doc = {
      _links: {},
      id: 'd1',
      type: 'passport',
      status: 'pending',
      created: '2026-11-22T10:00:00.000Z',
    };
    fake.route('GET', '/documents/d1', (_req, res) => reply(res, 200, doc));
    fake.route('GET', '/customers/c1/documents', (_req, res) =>
      reply(res, 200, { _links: {}, _embedded: { documents: [doc] }, total: 1 }),
    );
    await expect(client.documents.get('d1')).resolves.toMatchObject({ id: 'd1', status: 'pending' });
    await expect(client.documents.listForCustomer('c1')).resolves.toHaveLength(1);
  });
});

describe('events', () => {
  it('list and get', async () => {
    const event = {
      _links: { resource: { href: `${fake.baseUrl}/customers/c1` } },
      id: 'e1',
      created: '2026-11-22T10:00:00.000Z',
      timestamp: '2026-11-22T10:00:00.000Z',
      topic: 'customer_something_unheard_of',
      resourceId: 'c1',
    };
    fake.route('GET', '/events', (_req, res) =>
      reply(res, 200, { _links: {}, _embedded: { events: [event] }, total: 40 }),
    );
    fake.route('GET', '/events/e1', (_req, res) => reply(res, 200, event));
    await expect(client.events.list({ limit: 1, offset: 5 })).resolves.toMatchObject({
      total: 40,
      events: [{ id: 'e1' }],
    });
    expect(fake.received.at(-1)?.url).toBe('/events?limit=1&offset=5');
    await expect(client.events.get({ href: `${fake.baseUrl}/events/e1` })).resolves.toMatchObject({
      topic: event.topic,
    });
  });
});

describe('subscriptions', () => {
  it('create, get, list, pause, delete', async () => {
    fake.route('POST', '/webhook-subscriptions', (_req, res) =>
      reply(res, 201, undefined, { Location: `${fake.baseUrl}/webhook-subscriptions/s1` }),
    );
    fake.route('GET', '/webhook-subscriptions/s1', (_req, res) => reply(res, 200, sub('s1')));
    fake.route('GET', '/webhook-subscriptions', (_req, res) =>
      reply(res, 200, {
        _links: {},
        _embedded: { 'webhook-subscriptions': [sub('s1'), sub('s2', true)] },
        total: 2,
      }),
    );
    fake.route('POST', '/webhook-subscriptions/s1', (req, res) =>
      reply(res, 200, sub('s1', JSON.parse(req.body.toString()).paused)),
    );
    fake.route('DELETE', '/webhook-subscriptions/s1', (_req, res) => reply(res, 200));

    await expect(client.subscriptions.create('https://hooks.example/vetted', 'whsec-1')).resolves.toEqual({
      url: `${fake.baseUrl}/webhook-subscriptions/s1`,
      id: 's1',
    });
    expect(JSON.parse(fake.received.at(-1)!.body.toString())).toEqual({
      url: 'https://hooks.example/vetted',
      secret: 'whsec-1',
    });
    await expect(client.subscriptions.get('s1')).resolves.toMatchObject({ id: 's1', paused: false });
    await expect(client.subscriptions.list()).resolves.toHaveLength(2);
    await expect(client.subscriptions.setPaused('s1', true)).resolves.toMatchObject({ paused: true });
    await expect(client.subscriptions.delete('s1')).resolves.toBeUndefined();
  });

  it('deliveries and redeliver', async () => {
    fake.route('GET', '/webhook-subscriptions/s1/webhooks', (_req, res) =>
      reply(res, 200, {
        _links: {},
        _embedded: {
          webhooks: [
            { id: 'w1', topic: 'customer_created', eventId: 'e1', subscriptionId: 's1', attempts: [] },
          ],
        },
        total: 1,
      }),
    );
    fake.route('POST', '/webhooks/w1/retries', (_req, res) =>
      reply(res, 201, undefined, { Location: `${fake.baseUrl}/webhooks/w1/retries/r1` }),
    );
    await expect(client.subscriptions.deliveries('s1', { limit: 10 })).resolves.toMatchObject({
      total: 1,
      deliveries: [{ id: 'w1', attempts: [] }],
    });
    expect(fake.received.at(-1)?.url).toBe('/webhook-subscriptions/s1/webhooks?limit=10');
    await expect(client.subscriptions.redeliver('w1')).resolves.toEqual({
      url: `${fake.baseUrl}/webhooks/w1/retries/r1`,
    });
  });

  it('a resource it cannot read is an InvalidResponse, not a crash', async () => {
    fake.route('GET', '/webhook-subscriptions/s9', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Request-ID': 'rid-9' });
      res.end('hello');
    });
    await expect(client.subscriptions.get('s9')).rejects.toMatchObject({
      name: 'ServiceError',
      code: 'InvalidResponse',
      requestId: 'rid-9',
    });
  });
});
