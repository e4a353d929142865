import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CustomerInput,
  createServiceClient,
  type LogEntry,
  NetworkError,
  type ServiceClient,
  type ServiceClientOptions,
  ServiceError,
} from '../../main/service/index.ts';
import { startSandbox } from '../../sandbox/index.ts';
import { until } from '../support/poll.ts';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

interface Stats {
  tokensIssued: number;
  requests: Record<string, Record<string, number>>;
  /** Requests a `delay` fault is holding right now. */
  heldRequests: number;
}

/** One sandbox and one client per test, with instant recorded back-off and every line logged. */
interface Setup {
  sandbox: Sandbox;
  client: ServiceClient;
  logs: LogEntry[];
  sandboxLines: string[];
  sleeps: number[];
  /** Moves the sandbox's clock and the client's together. */
  advance(seconds: number): Promise<void>;
  stats(): Promise<Stats>;
  /** All answers to one route (`GET /customers/{id}`), by status or `reset`. */
  outcomes(route: string): Promise<Record<string, number>>;
  control(path: string, body: unknown): Promise<void>;
}

const open: Setup[] = [];
afterEach(async () => {
  for (const setup of open.splice(0)) {
    await setup.client.close();
    await setup.sandbox.close();
  }
});

async function setUp(
  sandboxOptions: Parameters<typeof startSandbox>[0] = {},
  clientOptions: Partial<ServiceClientOptions> = {},
): Promise<Setup> {
  const sandboxLines: string[] = [];
  const sandbox = await startSandbox({ log: (line) => sandboxLines.push(line), ...sandboxOptions });
  const logs: LogEntry[] = [];
  const sleeps: number[] = [];
  let offsetMs = 0;
  const client = createServiceClient({
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    log: (entry) => logs.push(entry),
    now: () => Date.now() + offsetMs,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...clientOptions,
  });
  // Controls go around the client, so that they never count among its requests or retries.
  async function sandboxCall(method: 'GET' | 'POST', path: string, body?: unknown) {
    const token = await client.token.get();
    const res = await request(`${sandbox.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text);
  }
  const setup: Setup = {
    sandbox,
    client,
    logs,
    sandboxLines,
    sleeps,
    advance: async (seconds) => {
      offsetMs += seconds * 1000;
      await sandbox.advanceClock(seconds);
    },
    stats: () => sandboxCall('GET', '/sandbox/stats'),
    outcomes: async (route) => (await setup.stats()).requests[route] ?? {},
    control: async (path, body) => {
      await sandboxCall('POST', path, body);
    },
  };
  open.push(setup);
  return setup;
}

let serial = 0;
function person(firstName = 'Jane'): CustomerInput {
  serial++;
  return {
    firstName,
    lastName: 'Doe',
    email: `jane.doe.${serial}.${Date.now()}@example.com`,
    type: 'personal',
    address1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62701',
    dateOfBirth: '1990-01-01',
    tin: '1234',
    ipAddress: '203.0.113.7',
  };
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe('token', () => {
  it('one token for 500 calls', async () => {
    const { client, stats } = await setUp();
    const { id } = await client.customers.create(person());
    for (let batch = 0; batch < 25; batch++) {
      await Promise.all(Array.from({ length: 20 }, () => client.customers.get(id)));
    }
    const { tokensIssued, requests } = await stats();
    expect(requests['GET /customers/{id}']).toEqual({ '200': 500 });
    expect(tokensIssued).toBe(1);
  });

  it('renews a 2 s token before it runs out, without a 401', async () => {
    const { client, stats, advance, outcomes } = await setUp({ tokenTtlSeconds: 2 });
    const { id } = await client.customers.create(person());
    const first = await client.token.get();
    await advance(1.5);
    await client.customers.get(id);
    expect(await client.token.get()).not.toBe(first);
    await advance(1.5);
    await client.customers.get(id);
    expect((await stats()).tokensIssued).toBe(3);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '200': 2 });
  });

  it('recovers from 401 ExpiredAccessToken with one renewal and one re-send', async () => {
    const { client, stats, sandbox, outcomes, logs } = await setUp();
    const { id } = await client.customers.create(person());
    // Only the service's clock moves: the client still believes in its token.
    await sandbox.advanceClock(3601);
    await expect(client.customers.get(id)).resolves.toMatchObject({ id });
    expect((await stats()).tokensIssued).toBe(2);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '200': 1, '401': 1 });
    expect(logs.find((l) => l.status === 401)).toMatchObject({ code: 'ExpiredAccessToken' });
  });

  it('maps bad credentials to invalid_client', async () => {
    const { sandbox } = await setUp();
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: 'nope',
    });
    const error = await client.token.get().catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_client', retryable: false });
  });
});

describe('retries against injected faults', () => {
  const maxAttempts = 3;

  it('429 with the Retry-After the sandbox sends: honoured, then given up', async () => {
    const { client, control, outcomes, sleeps } = await setUp({}, { retry: { maxAttempts } });
    const { id } = await client.customers.create(person());
    await control('/sandbox/faults', { rate: 1, kinds: ['429'], paths: ['/customers/{id}'] });
    const error = await client.customers.get(id).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 429,
      code: 'TooManyRequests',
      retryable: true,
      retryAfterMs: 1000,
    });
    expect(sleeps).toEqual([1000, 1000]);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '429': maxAttempts });
  });

  it('429 with a Retry-After beyond the time budget: not waited for', async () => {
    // (The sandbox always sends Retry-After; its absence is covered against the fake service.)
    const { client, control, outcomes, sleeps } = await setUp(
      {},
      { retry: { maxAttempts, maxElapsedMs: 500 } },
    );
    const { id } = await client.customers.create(person());
    await control('/sandbox/faults', { rate: 1, kinds: ['429'], paths: ['/customers/{id}'] });
    await expect(client.customers.get(id)).rejects.toMatchObject({ status: 429, retryable: true });
    expect(sleeps).toEqual([]);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '429': 1 });
  });

  it.each(['500', '503', 'reset'])('%s: a GET is retried', async (kind) => {
    const { client, control, outcomes } = await setUp({}, { retry: { maxAttempts } });
    const { id } = await client.customers.create(person());
    await control('/sandbox/faults', { rate: 1, kinds: [kind], paths: ['/customers/{id}'] });
    const error = await client.customers.get(id).catch((e: unknown) => e);
    expect(error instanceof ServiceError || error instanceof NetworkError).toBe(true);
    expect((error as ServiceError | NetworkError).retryable).toBe(true);
    expect(sum(await outcomes('GET /customers/{id}'))).toBe(maxAttempts);
  });

  it.each(['500', '503', 'reset'])('%s: a POST without Idempotency-Key is never re-sent', async (kind) => {
    const { client, control, outcomes } = await setUp({}, { retry: { maxAttempts } });
    await control('/sandbox/faults', { rate: 1, kinds: [kind], paths: ['/customers'] });
    const error = await client.customers.create(person()).catch((e: unknown) => e);
    expect((error as ServiceError | NetworkError).retryable).toBe(true);
    expect(sum(await outcomes('POST /customers'))).toBe(1);
  });

  it.each(['500', '503', 'reset'])('%s: a POST with an Idempotency-Key is re-sent', async (kind) => {
    const { client, control, outcomes } = await setUp({}, { retry: { maxAttempts } });
    await control('/sandbox/faults', { rate: 1, kinds: [kind], paths: ['/customers'] });
    await client.customers.create(person(), { idempotencyKey: crypto.randomUUID() }).catch(() => {});
    expect(sum(await outcomes('POST /customers'))).toBe(maxAttempts);
  });

  it('with keys, flaky creates make one customer each', async () => {
    const { client, control, stats } = await setUp({}, { retry: { maxAttempts: 8, maxElapsedMs: 60_000 } });
    await control('/sandbox/faults', { rate: 0.4, kinds: ['500', 'reset', '503'], paths: ['/customers'] });
    const inputs = Array.from({ length: 12 }, () => person());
    const results = await Promise.all(
      inputs.map((input) =>
        client.customers.create(input, { idempotencyKey: crypto.randomUUID() }).catch(() => null),
      ),
    );
    await control('/sandbox/faults', { rate: 0 });
    const created = results.filter((r) => r !== null);
    expect(new Set(created.map((r) => r.id)).size).toBe(created.length);
    for (const [i, result] of results.entries()) {
      if (!result) continue;
      await expect(client.customers.get(result.id)).resolves.toMatchObject({ email: inputs[i]!.email });
    }
    const customers = await client.customers.list({ limit: 200 });
    expect('customers' in customers && customers.total).toBeLessThanOrEqual(12);
    expect((await stats()).tokensIssued).toBe(1);
  });

  it('times out a stalled answer, retrying only the GET', async () => {
    const { client, control, outcomes, stats } = await setUp(
      {},
      { retry: { maxAttempts: 2 }, timeouts: { headersMs: 150 } },
    );
    const { id } = await client.customers.create(person());
    // Held until released (not for a time racing the client's 150 ms): the answer cannot beat the timeout.
    await control('/sandbox/faults', {
      rate: 1,
      kinds: ['delay'],
      paths: ['/customers/{id}'],
      delayMs: 60_000,
    });
    await expect(client.customers.get(id)).rejects.toMatchObject({ name: 'NetworkError', kind: 'timeout' });
    await expect(client.customers.retry(id, { ...person(), tin: '123-45-6789' })).rejects.toMatchObject({
      kind: 'timeout',
    });
    await until(async () => (await stats()).heldRequests === 3, 'two GETs and the POST held');
    await control('/sandbox/faults', { rate: 0 });
    // The sandbox counts a held request once it is answered: two GETs (one re-sent), one POST (never re-sent).
    const counted = async () => [
      sum(await outcomes('GET /customers/{id}')),
      sum(await outcomes('POST /customers/{id}')),
    ];
    await until(async () => (await counted()).join() === '2,1', 'two GETs and one POST answered');
  });
});

describe('every error the sandbox sends, mapped', () => {
  it('ValidationError with field paths, and Duplicate with its about link', async () => {
    const { client } = await setUp();
    const bad = { ...person(), email: 'not-an-email', dateOfBirth: '1990-02-30', postalCode: 'x', tin: '12' };
    const error = (await client.customers.create(bad).catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.is('validationerror')).toBe(true);
    expect(error.status).toBe(400);
    expect(error.fields.map((f) => f.path).sort()).toEqual(['/dateOfBirth', '/email', '/postalCode', '/tin']);
    expect(error.requestId).toBeTruthy();

    const first = person();
    const { url } = await client.customers.create(first);
    const duplicate = (await client.customers
      .create({ ...person(), email: first.email })
      .catch((e: unknown) => e)) as ServiceError;
    expect(duplicate.fields[0]).toMatchObject({ code: 'Duplicate', path: '/email' });
    expect(duplicate.aboutUrl).toBe(url);
    await expect(client.customers.get(duplicate.aboutUrl!)).resolves.toMatchObject({ email: first.email });
  });

  it('NotFound, InvalidResourceState, list', async () => {
    const { client } = await setUp();
    await expect(client.customers.get(crypto.randomUUID())).rejects.toMatchObject({
      status: 404,
      code: 'NotFound',
    });
    const { id } = await client.customers.create(person());
    const retry = { ...person(), tin: '123-45-6789' };
    const error = (await client.customers.retry(id, retry).catch((e: unknown) => e)) as ServiceError;
    expect(error.status).toBe(403);
    expect(error.is('InvalidResourceState')).toBe(true);
    const page = await client.customers.list({ status: ['verified'], limit: 10 });
    expect('customers' in page && page.customers.map((c) => c.id)).toContain(id);
  });

  it('Conflict while a keyed request is still running', async () => {
    const { client, control, stats } = await setUp();
    // Held until the faults are set again: the second request meets the first still running.
    await control('/sandbox/faults', { rate: 1, kinds: ['delay'], paths: ['/customers'], delayMs: 60_000 });
    const key = crypto.randomUUID();
    const input = person();
    const firstOutcome = client.customers.create(input, { idempotencyKey: key });
    await until(async () => (await stats()).heldRequests === 1, 'the first request held');
    const second = await client.customers.create(input, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(second).toMatchObject({ status: 409, code: 'Conflict', retryable: true });
    await control('/sandbox/faults', { rate: 0 });
    const first = await firstOutcome;
    await expect(client.customers.create(input, { idempotencyKey: key })).resolves.toEqual(first);
  });

  it('the retry flow, then document upload errors and success', async () => {
    const { client } = await setUp({ reviewDelayMs: 60_000 });
    const input = person('retry');
    const { id } = await client.customers.create(input);
    await expect(client.customers.get(id)).resolves.toMatchObject({ status: 'retry' });
    const after = await client.customers.retry(id, { ...input, firstName: 'document', tin: '123-45-6789' });
    expect(after.status).toBe('document');
    await expect(client.customers.retry(id, { ...input, tin: '123-45-6789' })).rejects.toMatchObject({
      status: 403,
    });

    const notAnImage = {
      documentType: 'passport',
      fileName: 'a.jpg',
      contentType: 'image/jpeg',
      bytes: new Uint8Array(64),
    };
    await expect(client.documents.upload(id, notAnImage)).rejects.toMatchObject({
      status: 400,
      code: 'InvalidFileType',
    });
    const huge = { ...jpeg(), bytes: new Uint8Array(10 * 1024 * 1024 + 1) };
    huge.bytes.set(jpeg().bytes.subarray(0, 16));
    await expect(client.documents.upload(id, huge)).rejects.toMatchObject({
      status: 413,
      code: 'FileTooLarge',
    });
    const badType = { ...jpeg(), documentType: 'selfie' };
    await expect(client.documents.upload(id, badType)).rejects.toMatchObject({
      status: 400,
      code: 'ValidationError',
    });

    const progress: number[] = [];
    const doc = await client.documents.upload(id, jpeg(), { onProgress: (sent) => progress.push(sent) });
    expect(progress.length).toBeGreaterThan(0);
    await expect(client.documents.get(doc.url)).resolves.toMatchObject({ id: doc.id, status: 'pending' });
    await expect(client.documents.listForCustomer(id)).resolves.toHaveLength(1);
    for (let i = 0; i < 3; i++) await client.documents.upload(id, jpeg());
    await expect(client.documents.upload(id, jpeg())).rejects.toMatchObject({
      status: 400,
      code: 'MaxNumberOfResources',
    });
  });

  it('subscriptions, events and deliveries', async () => {
    const { client } = await setUp();
    const created = await client.subscriptions.create('http://127.0.0.1:9/hooks', 'a-secret-of-ours');
    await expect(client.subscriptions.get(created.id)).resolves.toMatchObject({
      id: created.id,
      paused: false,
    });
    await expect(client.subscriptions.setPaused(created.id, true)).resolves.toMatchObject({ paused: true });
    await expect(client.subscriptions.list()).resolves.toHaveLength(1);
    await client.customers.create(person());
    const { events, total } = await client.events.list({ limit: 10 });
    expect(total).toBeGreaterThan(0);
    await expect(client.events.get(events[0]!.id)).resolves.toMatchObject({ topic: events[0]!.topic });
    // Webhooks are recorded as the events are dispatched, which may trail the create a little.
    await until(async () => (await client.subscriptions.deliveries(created.id)).total > 0, 'a delivery');
    const { deliveries } = await client.subscriptions.deliveries(created.id, { limit: 5 });
    expect(deliveries[0]).toMatchObject({ subscriptionId: created.id });
    await expect(client.subscriptions.delete(created.id)).resolves.toBeUndefined();
    await expect(client.subscriptions.get(created.id)).rejects.toMatchObject({ status: 404 });
  });
});

it('no log line, of the client or the sandbox, carries a token or the client secret', async () => {
  const setup = await setUp(
    { tokenTtlSeconds: 2 },
    { retry: { maxAttempts: 2 }, timeouts: { headersMs: 150 } },
  );
  const { client, sandbox, control, advance, logs, sandboxLines } = setup;
  const tokens = new Set<string>();
  const remember = async () => tokens.add(await client.token.get());
  const { id } = await client.customers.create(person());
  await remember();
  await advance(1.5);
  await client.customers.get(id);
  await remember();
  await sandbox.advanceClock(5); // expires it behind the client's back: a 401, then a renewal
  await client.customers.get(id);
  await remember();
  await client.customers.create({ ...person(), email: 'broken' }).catch(() => {});
  await control('/sandbox/faults', { rate: 1, kinds: ['503'], paths: ['/customers/{id}'] });
  await client.customers.get(id).catch(() => {});
  // Held until the faults are reset: the client times out (and retries once) whatever the load.
  await control('/sandbox/faults', {
    rate: 1,
    kinds: ['delay'],
    paths: ['/customers/{id}'],
    delayMs: 60_000,
  });
  await client.customers.get(id).catch(() => {});
  await control('/sandbox/faults', { rate: 0 });
  const bad = createServiceClient({
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.clientId,
    clientSecret: `${sandbox.clientSecret}x`,
    log: (entry) => logs.push(entry),
  });
  await bad.token.get().catch(() => {});
  await bad.close();

  expect(tokens.size).toBe(3);
  expect(logs.length).toBeGreaterThan(5);
  const lines = [...logs.map((entry) => JSON.stringify(entry)), ...sandboxLines];
  for (const line of lines) {
    expect(line).not.toContain(sandbox.clientSecret);
    for (const token of tokens) expect(line).not.toContain(token);
  }
});

/** The smallest JPEG the sandbox accepts as one: SOI, JFIF APP0 and EOI markers. */
function jpeg() {
  const bytes = new Uint8Array(2048);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
  bytes.set([0xff, 0xd9], bytes.length - 2);
  return { documentType: 'passport', fileName: 'passport.jpg', contentType: 'image/jpeg', bytes };
}
