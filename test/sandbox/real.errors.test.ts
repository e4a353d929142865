import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxProfile } from '#sandbox/index.ts';
import { type Harness, MiB, subscribe } from './helpers.ts';
import { expected, PROFILES, sandboxes } from './profiles.setup.ts';

/** real-service.md rows "error code case", "unknown customer", "more errors" and "429", on both profiles. */
const faults = (h: Harness, json: unknown) => h.api('POST', '/sandbox/faults', { json });
afterEach(async () => {
  for (const profile of PROFILES) await faults(sandboxes[profile], { rate: 0 });
});

/** Each error the real service spells in camelCase, provoked the same way on both profiles. */
const PROVOKE: Record<string, (h: Harness) => Promise<{ status: number; json: { code: string } }>> = {
  NotFound: (h) => h.api('GET', `/webhook-subscriptions/${crypto.randomUUID()}`),
  InvalidResourceState: async (h) =>
    h.api('POST', `/customers/${await h.createCustomer()}`, { json: h.retryBody() }),
  InvalidFileType: async (h) =>
    h.upload(await h.createCustomer({ firstName: 'document' }), 'notes.jpg', 'passport', Buffer.from('text')),
  MaxNumberOfResources: async (h) => {
    const id = await h.createCustomer({ firstName: 'document' });
    for (let i = 0; i < 4; i++) expect((await h.upload(id)).status).toBe(201);
    return h.upload(id);
  },
  FileTooLarge: async (h) => {
    const big = Buffer.alloc(10 * MiB + 1);
    big.set([0xff, 0xd8, 0xff]);
    return h.upload(await h.createCustomer({ firstName: 'document' }), 'big.jpg', 'passport', big);
  },
};
const REAL_SPELLING: Record<string, string> = {
  NotFound: 'notFound',
  InvalidResourceState: 'invalidResourceState',
  InvalidFileType: 'invalidFileType',
  MaxNumberOfResources: 'maximumNumberOfResources',
  FileTooLarge: 'fileTooLarge',
};
const STATUS: Record<string, number> = {
  NotFound: 404,
  InvalidResourceState: 403,
  InvalidFileType: 400,
  MaxNumberOfResources: 400,
  FileTooLarge: 413,
};

describe.each(PROFILES)('error code case (%s profile)', (profile) => {
  it.each(Object.keys(PROVOKE))('%s', async (code) => {
    const res = await PROVOKE[code]!(sandboxes[profile]);
    expect(res.status).toBe(STATUS[code]);
    expect(res.json.code).toBe(expected(profile, { interface: code, real: REAL_SPELLING[code]! }));
  });

  it('PascalCase codes stay as they are (ValidationError, InvalidVersion)', async () => {
    const h = sandboxes[profile];
    const invalid = await h.api('POST', '/customers', { json: h.person({ email: 'nope' }) });
    expect(invalid.json.code).toBe('ValidationError');
    const version = await h.api('GET', '/events', { headers: { accept: 'application/json' } });
    expect(version.json.code).toBe('InvalidVersion');
  });
});

describe.each(PROFILES)('unknown customer (%s profile)', (profile) => {
  it(expected(profile, { interface: '404 NotFound', real: '403 notFound' }), async () => {
    const h = sandboxes[profile];
    const res = await h.customer(crypto.randomUUID());
    expect(res.status).toBe(expected(profile, { interface: 404, real: 403 }));
    expect(res.json).toMatchObject({
      code: expected(profile, { interface: 'NotFound', real: 'notFound' }),
      message: 'Customer not found.',
    });
    const upload = await h.upload(crypto.randomUUID());
    expect(upload.status).toBe(res.status);
  });
});

const MORE_ERRORS = [
  ['InvalidAccountStatus', 401],
  ['InvalidApplicationStatus', 401],
  ['InvalidScopes', 401],
  ['RequestTimeout', 500],
] as const;

describe('more errors', () => {
  it.each(MORE_ERRORS)('real: %s (%i) through POST /sandbox/faults', async (kind, status) => {
    const h = sandboxes.real;
    expect((await faults(h, { rate: 1, kinds: [kind], paths: ['/events'] })).status).toBe(200);
    const res = await h.api('GET', '/events');
    expect(res.status).toBe(status);
    expect(res.json.code).toBe(kind);
    await faults(h, { rate: 0 });
    expect((await h.api('GET', '/events')).status).toBe(200);
  });

  it('real: 401s answer before the work, RequestTimeout after it (an Idempotency-Key replay finds the customer)', async () => {
    const h = sandboxes.real;
    const body = h.person();
    await faults(h, { rate: 1, kinds: ['InvalidScopes'], paths: ['/customers'], count: 1 });
    expect((await h.api('POST', '/customers', { json: body })).status).toBe(401);
    expect(
      (await h.api('GET', `/customers?email=${encodeURIComponent(String(body.email))}`)).json.total,
    ).toBe(0);
    await faults(h, { rate: 1, kinds: ['RequestTimeout'], paths: ['/customers'], count: 1 });
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const lost = await h.api('POST', '/customers', { json: body, headers });
    expect(lost.status).toBe(500);
    const replay = await h.api('POST', '/customers', { json: body, headers });
    expect(replay.status).toBe(201);
  });

  it("interface (unchanged): the real service's faults cannot be set", async () => {
    const res = await faults(sandboxes.interface, { rate: 1, kinds: ['InvalidScopes'] });
    expect(res.status).toBe(400);
    expect(res.json._embedded.errors[0].path).toBe('/kinds');
  });
});

describe.each(PROFILES)('429 (%s profile)', (profile: SandboxProfile) => {
  it(
    expected(profile, {
      interface: 'TooManyRequests with Retry-After',
      real: 'TooManyRequests, no Retry-After',
    }),
    async () => {
      const h = sandboxes[profile];
      await faults(h, { rate: 1, kinds: ['429'], paths: ['/events'] });
      const res = await h.api('GET', '/events');
      expect(res.status).toBe(429);
      expect(res.json.code).toBe('TooManyRequests');
      expect(res.headers['retry-after']).toBe(expected(profile, { interface: '1', real: undefined }));
    },
  );

  it('a limit for N requests: exactly N are refused, then the faults are over', async () => {
    const h = sandboxes[profile];
    const set = await faults(h, { rate: 1, kinds: ['429'], paths: ['/events'], count: 3 });
    expect(set.json.count).toBe(3);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.api('GET', '/events')).status);
    expect(statuses).toEqual([429, 429, 429, 200, 200]);
    expect((await h.api('GET', '/sandbox/faults')).json.rate).toBe(0);
  });

  it('a limit lasting 5 minutes on the sandbox clock, however many requests come', async () => {
    const h = sandboxes[profile];
    const set = await faults(h, { rate: 1, kinds: ['429'], paths: ['/events'], forSeconds: 300 });
    expect(Date.parse(set.json.until)).toBeGreaterThan(Date.now());
    for (let i = 0; i < 5; i++) expect((await h.api('GET', '/events')).status).toBe(429);
    // A minute to spare: the sandbox clock also moves with real time.
    await h.sandbox.advanceClock(240);
    expect((await h.api('GET', '/events')).status).toBe(429);
    await h.sandbox.advanceClock(60);
    expect((await h.api('GET', '/sandbox/faults')).json.rate).toBe(0);
    expect((await h.api('GET', '/events')).status).toBe(200);
  });

  it('other routes are untouched by a limit on one path', async () => {
    const h = sandboxes[profile];
    await faults(h, { rate: 1, kinds: ['429'], paths: ['/events'], forSeconds: 300 });
    await subscribe(h, 'https://example.com/hooks');
    expect((await h.api('GET', '/webhook-subscriptions')).status).toBe(200);
  });
});
