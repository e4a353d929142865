import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CallOutcome,
  createServiceClient,
  NetworkError,
  ServiceError,
} from '#main/data/service/index.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  clientOf,
  customerBody,
  type FakeService,
  HAL,
  type Handler,
  reply,
  startFakeService,
} from './fake-service.ts';

const input = samplePerson('Jane', 'Doe', 'jane@example.com');

let fake: FakeService;
beforeEach(async () => {
  fake = await startFakeService();
});
afterEach(() => fake.close());

/** A handler that fails `times` times with `fail`, then succeeds with `succeed`. */
function flaky(times: number, fail: Handler, succeed: Handler): Handler {
  let left = times;
  return (req, res, raw) => (left-- > 0 ? fail(req, res, raw) : succeed(req, res, raw));
}

const serverError: Handler = (_req, res) => reply(res, 503, { code: 'ServiceUnavailable', message: 'Down.' });
const reset: Handler = (_req, _res, raw) => {
  raw.socket.destroy();
};
const stall: Handler = () => {};
const customer: Handler = (_req, res) => reply(res, 200, customerBody(fake.baseUrl, 'c1'));
const created: Handler = (_req, res) =>
  reply(res, 201, undefined, { Location: `${fake.baseUrl}/customers/new-1` });

describe('requests', () => {
  it('send the media type, the bearer token and the Idempotency-Key', async () => {
    fake.route('POST', '/customers', created);
    const { client } = clientOf(fake);
    const result = await client.customers.create(input, { idempotencyKey: 'key-1' });
    await client.close();
    expect(result).toEqual({ url: `${fake.baseUrl}/customers/new-1`, id: 'new-1' });
    const post = fake.received.find((r) => r.path === '/customers')!;
    expect(post.headers).toMatchObject({
      accept: HAL,
      'content-type': HAL,
      authorization: `Bearer ${fake.tokens[0]}`,
      'idempotency-key': 'key-1',
    });
    expect(JSON.parse(post.body.toString())).toEqual(input);
  });

  it('resolve a relative Location against the request', async () => {
    fake.route('POST', '/customers', (_req, res) =>
      reply(res, 201, undefined, { Location: '/customers/rel-2' }),
    );
    const { client } = clientOf(fake);
    await expect(client.customers.create(input)).resolves.toEqual({
      url: `${fake.baseUrl}/customers/rel-2`,
      id: 'rel-2',
    });
    await client.close();
  });

  it('refuse a create answered without Location', async () => {
    fake.route('POST', '/customers', (_req, res) => reply(res, 201));
    const { client } = clientOf(fake);
    await expect(client.customers.create(input)).rejects.toMatchObject({
      code: 'InvalidResponse',
      status: 201,
    });
    await client.close();
  });

  it('never carry the token to another host', async () => {
    const { client } = clientOf(fake);
    await expect(client.customers.get({ href: 'https://elsewhere.example/customers/c1' })).rejects.toThrow(
      /not under/,
    );
    await expect(
      client.customers.get({ href: `${fake.baseUrl.replace('127.0.0.1', 'localhost')}/customers/c1` }),
    ).rejects.toThrow();
    await client.close();
    expect(fake.received).toHaveLength(0);
  });

  it('follow a URL of the service', async () => {
    fake.route('GET', '/customers/c1', customer);
    const { client } = clientOf(fake);
    await expect(client.customers.get({ href: `${fake.baseUrl}/customers/c1` })).resolves.toMatchObject({
      id: 'c1',
    });
    await client.close();
  });
});

describe('retries', () => {
  it('retry a GET on 5xx with full-jitter backoff', async () => {
    fake.route('GET', '/customers/c1', flaky(2, serverError, customer));
    const { client, sleeps, logs } = clientOf(fake, { retry: { baseDelayMs: 100 } });
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
    expect(fake.count('GET', '/customers/c1')).toBe(3);
    expect(sleeps).toEqual([50, 100]); // random() = 0.5 of 100, then of 200
    const warnings = logs.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({
      method: 'GET',
      path: '/customers/c1',
      status: 503,
      code: 'ServiceUnavailable',
    });
    expect(warnings[0]?.requestId).toMatch(/^req-/);
  });

  it('give up after maxAttempts, with a retryable error', async () => {
    fake.route('GET', '/customers/c1', serverError);
    const { client, sleeps, logs } = clientOf(fake, { retry: { maxAttempts: 3 } });
    const error = await client.customers.get('c1').catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(fake.count('GET', '/customers/c1')).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(logs.at(-1)).toMatchObject({ level: 'error', status: 503 });
  });

  it('give up when the total time would run out', async () => {
    let t = 0;
    fake.route('GET', '/customers/c1', serverError);
    const { client } = clientOf(fake, {
      now: () => t,
      sleep: async (ms) => {
        t += ms;
      },
      retry: { maxAttempts: 100, maxElapsedMs: 1_000, baseDelayMs: 400, maxDelayMs: 400 },
    });
    await expect(client.customers.get('c1')).rejects.toBeInstanceOf(ServiceError);
    await client.close();
    // Waits of 200 ms each: retries at 200, 400, 600, 800, 1000, then none.
    expect(fake.count('GET', '/customers/c1')).toBe(6);
  });

  it('retry a GET after a connection reset', async () => {
    fake.route('GET', '/customers/c1', flaky(1, reset, customer));
    const { client } = clientOf(fake);
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
    expect(fake.count('GET', '/customers/c1')).toBe(2);
  });

  it.each([
    ['503', serverError],
    ['reset', reset],
    ['429', (_req, res) => reply(res, 429, { code: 'TooManyRequests', message: 'Slow down.' })],
  ] as [string, Handler][])('never re-send a POST without Idempotency-Key (%s)', async (_name, fail) => {
    fake.route('POST', '/customers', flaky(1, fail, created));
    const { client, sleeps } = clientOf(fake);
    const error = await client.customers.create(input).catch((e: unknown) => e);
    await client.close();
    expect(error instanceof ServiceError || error instanceof NetworkError).toBe(true);
    expect((error as ServiceError | NetworkError).retryable).toBe(true);
    expect(fake.count('POST', '/customers')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it.each([
    ['503', serverError],
    ['reset', reset],
  ] as [string, Handler][])(
    're-send a POST that carries an Idempotency-Key (%s), identically',
    async (_name, fail) => {
      fake.route('POST', '/customers', flaky(1, fail, created));
      const { client } = clientOf(fake);
      await expect(client.customers.create(input, { idempotencyKey: 'k-7' })).resolves.toMatchObject({
        id: 'new-1',
      });
      await client.close();
      const posts = fake.received.filter((r) => r.path === '/customers');
      expect(posts).toHaveLength(2);
      expect(posts.map((p) => p.headers['idempotency-key'])).toEqual(['k-7', 'k-7']);
      expect(posts[1]?.body.equals(posts[0]!.body)).toBe(true);
    },
  );

  it('never re-send other failures (4xx, 409 included)', async () => {
    fake.route('POST', '/customers', (_req, res) =>
      reply(res, 409, { code: 'Conflict', message: 'In progress.' }),
    );
    fake.route('GET', '/customers/c1', (_req, res) =>
      reply(res, 404, { code: 'NotFound', message: 'Customer not found.' }),
    );
    const { client, sleeps } = clientOf(fake);
    await expect(client.customers.create(input, { idempotencyKey: 'k' })).rejects.toMatchObject({
      retryable: true,
    });
    await expect(client.customers.get('c1')).rejects.toMatchObject({ status: 404, retryable: false });
    await client.close();
    expect(fake.count('POST', '/customers')).toBe(1);
    expect(fake.count('GET', '/customers/c1')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('honour Retry-After on 429', async () => {
    const tooMany: Handler = (_req, res) =>
      reply(res, 429, { code: 'TooManyRequests', message: 'Slow down.' }, { 'Retry-After': '2' });
    fake.route('GET', '/customers/c1', flaky(1, tooMany, customer));
    const { client, sleeps } = clientOf(fake);
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
    expect(sleeps).toEqual([2000]);
  });

  it('back off with jitter on 429 without Retry-After (as the real service sends it)', async () => {
    const tooMany: Handler = (_req, res) =>
      reply(res, 429, { code: 'TooManyRequests', message: 'Slow down.' });
    fake.route('GET', '/customers/c1', flaky(3, tooMany, customer));
    const draws = [0.9, 0.1, 0.5];
    const { client, sleeps } = clientOf(fake, { random: () => draws.shift()!, retry: { baseDelayMs: 1000 } });
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
    expect(sleeps).toEqual([900, 200, 2000]);
  });

  it('do not wait for a Retry-After beyond the total time', async () => {
    const tooMany: Handler = (_req, res) =>
      reply(res, 429, { code: 'TooManyRequests', message: 'Slow down.' }, { 'Retry-After': '3600' });
    fake.route('GET', '/customers/c1', tooMany);
    const { client, sleeps } = clientOf(fake);
    await expect(client.customers.get('c1')).rejects.toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    await client.close();
    expect(sleeps).toEqual([]);
  });
});

describe('timeouts and failures of the network', () => {
  it('time out waiting for headers, and retry only what is safe', async () => {
    fake.route('GET', '/customers/c1', stall);
    fake.route('POST', '/customers', stall);
    const { client } = clientOf(fake, { timeouts: { headersMs: 100 }, retry: { maxAttempts: 2 } });
    await expect(client.customers.get('c1')).rejects.toMatchObject({ name: 'NetworkError', kind: 'timeout' });
    await expect(client.customers.create(input)).rejects.toMatchObject({ kind: 'timeout', retryable: true });
    await client.close();
    expect(fake.count('GET', '/customers/c1')).toBe(2);
    expect(fake.count('POST', '/customers')).toBe(1);
  });

  it('time out when the body stops arriving', async () => {
    fake.route('GET', '/customers/c1', (_req, res) => {
      res.writeHead(200, { 'Content-Type': HAL });
      res.write('{"id":');
    });
    const { client } = clientOf(fake, { timeouts: { bodyMs: 100 }, retry: { maxAttempts: 1 } });
    await expect(client.customers.get('c1')).rejects.toMatchObject({ kind: 'timeout' });
    await client.close();
  });

  it('report a refused connection as refused', async () => {
    const port = await freePort();
    const client = createServiceClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      sleep: async () => {},
    });
    await expect(client.customers.get('c1')).rejects.toMatchObject({ kind: 'refused', retryable: true });
    await client.close();
  });

  it('abort on the caller’s signal, without retrying', async () => {
    fake.route('POST', '/customers', stall);
    const { client } = clientOf(fake);
    const controller = new AbortController();
    const pending = client.customers.create(input, { idempotencyKey: 'k', signal: controller.signal });
    await until(() => fake.count('POST', '/customers') === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', retryable: false });
    await client.close();
    expect(fake.count('POST', '/customers')).toBe(1);
  });

  it('abort what is in flight on close, and refuse calls after it', async () => {
    fake.route('GET', '/customers/c1', stall);
    const { client } = clientOf(fake);
    const outcome = client.customers.get('c1').catch((e: unknown) => e);
    await until(() => fake.count('GET', '/customers/c1') === 1);
    await client.close();
    expect(await outcome).toMatchObject({ kind: 'aborted' });
    await expect(client.customers.get('c1')).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('stop backing off on close', async () => {
    fake.route('GET', '/customers/c1', serverError);
    const { client } = clientOf(fake, {
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    });
    const outcome = client.customers.get('c1').catch((e: unknown) => e);
    await until(() => fake.count('GET', '/customers/c1') === 1);
    await client.close();
    expect(await outcome).toMatchObject({ kind: 'aborted' });
  });
});

describe('outcomes', () => {
  it('tell how each call ended, after retries and token renewal', async () => {
    const outcomes: CallOutcome[] = [];
    fake.route('GET', '/customers/c1', flaky(1, serverError, customer));
    fake.route('GET', '/customers/c2', reset);
    const { client } = clientOf(fake, { retry: { maxAttempts: 2 }, onOutcome: (o) => outcomes.push(o) });
    await client.customers.get('c1');
    fake.expired.add(fake.tokens[0]!);
    await client.customers.get('c1');
    await client.customers.get('c2').catch(() => {});
    await client.close();
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, false]);
    expect(outcomes[2]).toMatchObject({ error: { name: 'NetworkError', kind: 'reset' } });
  });

  it('survive a listener that throws', async () => {
    fake.route('GET', '/customers/c1', customer);
    const { client } = clientOf(fake, {
      onOutcome: () => {
        throw new Error('listener bug');
      },
      log: () => {
        throw new Error('logger bug');
      },
    });
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    await client.close();
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
