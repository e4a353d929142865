import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/poll.ts';
import {
  call,
  ERROR_TYPE,
  HAL,
  type Harness,
  harness,
  MiB,
  multipart,
  person,
  type Res,
  retryBody,
  UUID,
} from './helpers.ts';

/** service-facts.md §1 (media type, common headers), §2 (errors, one test per row) and §9 (limits). */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

function expectError(res: Res, status: number, code: string, message?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe(ERROR_TYPE);
  expect(res.json.code).toBe(code);
  expect(typeof res.json.message).toBe('string');
  if (message) expect(res.json.message).toBe(message);
  expect(res.headers['x-request-id']).toMatch(UUID);
}

describe('§1 media type and common headers', () => {
  it('requests and responses use application/vnd.service.v1.hal+json', async () => {
    const res = await h.api('POST', '/customers', { json: person() });
    expect(res.status).toBe(201);
    expect((await h.api('GET', String(res.headers.location))).headers['content-type']).toBe(HAL);
  });

  it('request bodies may also be application/json', async () => {
    const res = await h.api('POST', '/customers', {
      body: JSON.stringify(person()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('a missing Accept is 406 InvalidVersion', async () => {
    const res = await call(`${h.base}/customers`, { headers: { authorization: `Bearer ${h.token}` } });
    expectError(res, 406, 'InvalidVersion', 'Missing or invalid API version.');
  });

  it.each(['application/json', '*/*', 'application/vnd.service.v2.hal+json'])(
    'Accept %s is 406 InvalidVersion',
    async (accept) => {
      const res = await h.api('GET', '/customers', { headers: { accept } });
      expectError(res, 406, 'InvalidVersion', 'Missing or invalid API version.');
    },
  );

  it('Accept with parameters or among several types is fine', async () => {
    expect(
      (await h.api('GET', '/customers', { headers: { accept: `text/html, ${HAL}; q=0.9` } })).status,
    ).toBe(200);
  });

  it('every response carries X-Request-ID, a fresh UUID each time', async () => {
    const answers = [
      await h.api('GET', '/customers'),
      await h.api('GET', '/nowhere'),
      await h.api('GET', '/customers', { token: null }),
      await call(`${h.base}/oauth/v2/token`, { method: 'POST' }),
      await h.api('GET', '/sandbox/stats'),
      await h.api('POST', '/customers', { json: {} }),
    ];
    const ids = answers.map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('links carry type and resource-type beside href', async () => {
    const id = await h.createCustomer();
    expect((await h.customer(id)).json._links.self).toEqual({
      href: `${h.base}/customers/${id}`,
      type: HAL,
      'resource-type': 'customer',
    });
  });
});

describe('§2 errors', () => {
  it('400 BadRequest: body is not valid JSON', async () => {
    const res = await h.api('POST', '/customers', {
      body: '{"firstName": "Jane",',
      headers: { 'content-type': HAL },
    });
    expectError(res, 400, 'BadRequest');
  });

  it('400 BadRequest: body is incomplete (empty)', async () => {
    expectError(
      await h.api('POST', '/customers', { body: '', headers: { 'content-type': HAL } }),
      400,
      'BadRequest',
    );
  });

  it('400 ValidationError: field errors in _embedded.errors with code, message, path and _links', async () => {
    const res = await h.api('POST', '/customers', { json: person({ email: 'x', postalCode: '1' }) });
    expectError(res, 400, 'ValidationError');
    expect(res.json._embedded.errors).toEqual([
      { code: 'InvalidFormat', message: 'Email invalid.', path: '/email', _links: {} },
      { code: 'InvalidFormat', message: 'PostalCode invalid.', path: '/postalCode', _links: {} },
    ]);
  });

  it('401 InvalidCredentials: no Authorization header', async () => {
    expectError(await h.api('GET', '/customers', { token: null }), 401, 'InvalidCredentials');
  });

  it.each(['Basic abc', 'Bearer', 'token', 'Bearer a b'])(
    '401 InvalidCredentials: malformed Authorization %j',
    async (authorization) => {
      const res = await h.api('GET', '/customers', { token: null, headers: { authorization } });
      expectError(res, 401, 'InvalidCredentials');
    },
  );

  it('401 InvalidAccessToken: unknown token', async () => {
    expectError(
      await h.api('GET', '/customers', { token: 'not-a-token-we-issued' }),
      401,
      'InvalidAccessToken',
    );
  });

  it('401 ExpiredAccessToken: token past expires_in', async () => {
    const short = await harness({ tokenTtlSeconds: 60 });
    try {
      expect((await short.api('GET', '/customers')).status).toBe(200);
      await short.sandbox.advanceClock(60);
      expectError(
        await short.api('GET', '/customers'),
        401,
        'ExpiredAccessToken',
        'Generate a new access token using your client credentials.',
      );
    } finally {
      await short.close();
    }
  });

  it('403 Forbidden: the token is not allowed for this resource', async () => {
    const id = await h.createCustomer();
    expectError(await h.api('GET', `/customers/${id}/funding-sources`), 403, 'Forbidden');
    expectError(await h.api('POST', '/transfers', { json: {} }), 403, 'Forbidden');
    expectError(await h.api('GET', `/accounts/${crypto.randomUUID()}`), 403, 'Forbidden');
  });

  it('403 InvalidResourceState: retry when not in retry', async () => {
    const id = await h.createCustomer();
    const res = await h.api('POST', `/customers/${id}`, { json: retryBody() });
    expectError(res, 403, 'InvalidResourceState', 'Resource cannot be modified.');
  });

  it('403 InvalidResourceState: a second retry', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName: 'document' }) });
    expectError(await h.api('POST', `/customers/${id}`, { json: retryBody() }), 403, 'InvalidResourceState');
  });

  it('403 InvalidResourceState: upload when not in document', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    expectError(await h.upload(id), 403, 'InvalidResourceState', 'Resource cannot be modified.');
  });

  it('404 NotFound: "Customer not found."', async () => {
    expectError(await h.customer(crypto.randomUUID()), 404, 'NotFound', 'Customer not found.');
    expectError(await h.customer('not-a-uuid'), 404, 'NotFound', 'Customer not found.');
  });

  it('404 NotFound: "Webhook subscription not found."', async () => {
    const res = await h.api('GET', `/webhook-subscriptions/${crypto.randomUUID()}`);
    expectError(res, 404, 'NotFound', 'Webhook subscription not found.');
  });

  it('404 NotFound: unknown path', async () => {
    expectError(await h.api('GET', '/no/such/thing'), 404, 'NotFound');
  });

  it('405 MethodNotAllowed, with Allow', async () => {
    const res = await h.api('DELETE', '/customers');
    expectError(res, 405, 'MethodNotAllowed');
    expect(res.headers.allow).toBe('POST, GET');
    expectError(
      await h.api('PUT', `/customers/${crypto.randomUUID()}`, { json: {} }),
      405,
      'MethodNotAllowed',
    );
  });

  it('406 InvalidVersion: wrong/missing Accept', async () => {
    expectError(await h.api('GET', '/events', { headers: { accept: 'text/plain' } }), 406, 'InvalidVersion');
  });

  it('409 Conflict: an Idempotency-Key whose first request is still being processed', async () => {
    // The first request is held until the faults are set again: the second meets it still running.
    await h.api('POST', '/sandbox/faults', {
      json: { rate: 1, kinds: ['delay'], paths: ['/customers'], delayMs: 60_000 },
    });
    const key = crypto.randomUUID();
    const body = person();
    const first = h.api('POST', '/customers', { json: body, headers: { 'idempotency-key': key } });
    try {
      await until(
        async () => (await h.api('GET', '/sandbox/stats')).json.heldRequests === 1,
        'a held request',
      );
      const second = await h.api('POST', '/customers', { json: body, headers: { 'idempotency-key': key } });
      expectError(second, 409, 'Conflict');
    } finally {
      await h.api('POST', '/sandbox/faults', { json: { rate: 0 } });
    }
    expect((await first).status).toBe(201);
  });

  it('413 FileTooLarge: a document over 10 MiB', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const big = Buffer.alloc(10 * MiB + 1);
    big.set([0xff, 0xd8, 0xff]);
    expectError(
      await h.upload(id, 'big.jpg', 'passport', big),
      413,
      'FileTooLarge',
      'Document requests are limited to 10 MiB.',
    );
  });

  it('415 UnsupportedRequestContentType: upload not sent as multipart/form-data', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const res = await h.api('POST', `/customers/${id}/documents`, { json: { documentType: 'passport' } });
    expectError(res, 415, 'UnsupportedRequestContentType');
  });

  it('429 TooManyRequests (injected), with a Retry-After the sandbox may send', async () => {
    await h.api('POST', '/sandbox/faults', { json: { rate: 1, kinds: ['429'], paths: ['/events'] } });
    try {
      const res = await h.api('GET', '/events');
      expectError(res, 429, 'TooManyRequests');
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      await h.api('POST', '/sandbox/faults', { json: { rate: 0 } });
    }
  });

  it('500 ServerError: "A server error occurred. Error ID: {id}"', async () => {
    await h.api('POST', '/sandbox/faults', { json: { rate: 1, kinds: ['500'], paths: ['/events'] } });
    try {
      const res = await h.api('GET', '/events');
      expectError(
        res,
        500,
        'ServerError',
        `A server error occurred. Error ID: ${res.headers['x-request-id']}`,
      );
    } finally {
      await h.api('POST', '/sandbox/faults', { json: { rate: 0 } });
    }
  });

  it('embedded field codes: Required, Invalid, InvalidFormat, Duplicate, NotAllowed, ReadOnly', async () => {
    const codes = new Set<string>();
    const collect = (res: Res) => {
      for (const error of res.json._embedded.errors) codes.add(error.code);
    };
    const taken = person();
    await h.api('POST', '/customers', { json: taken });
    collect(
      await h.api('POST', '/customers', {
        json: { type: 'business', email: taken.email, dateOfBirth: '2020-01-01', state: 'XX' },
      }),
    );
    const sub = await h.api('POST', '/webhook-subscriptions', {
      json: { url: 'https://x.example/h', secret: 's' },
    });
    collect(
      await h.api('POST', String(sub.headers.location), {
        json: { paused: true, url: 'https://y.example/h' },
      }),
    );
    await h.api('DELETE', String(sub.headers.location));
    expect([...codes].sort()).toEqual([
      'Duplicate',
      'Invalid',
      'InvalidFormat',
      'NotAllowed',
      'ReadOnly',
      'Required',
    ]);
  });

  it('error codes are answered in the documented case (clients compare case-insensitively)', async () => {
    expect((await h.customer(crypto.randomUUID())).json.code).toBe('NotFound');
  });
});

describe('§9 limits', () => {
  it('token lifetime 3600 s', async () => {
    const short = await harness();
    try {
      await short.sandbox.advanceClock(3599);
      expect((await short.api('GET', '/customers')).status).toBe(200);
      await short.sandbox.advanceClock(1);
      expect((await short.api('GET', '/customers')).json.code).toBe('ExpiredAccessToken');
    } finally {
      await short.close();
    }
  });

  it('documents pending review: 4; document size: 10 MiB (exactly 10 MiB is accepted)', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const exact = Buffer.alloc(10 * MiB);
    exact.set([0xff, 0xd8, 0xff]);
    expect((await h.upload(id, 'exact.jpg', 'passport', exact)).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await h.upload(id)).status).toBe(201);
    expect((await h.upload(id)).json.code).toBe('MaxNumberOfResources');
  });

  it('subscriptions: 10 per application', async () => {
    const own = await harness();
    try {
      for (let i = 0; i < 10; i++) {
        const res = await own.api('POST', '/webhook-subscriptions', {
          json: { url: `https://s${i}.example/h`, secret: 's' },
        });
        expect(res.status).toBe(201);
      }
      const res = await own.api('POST', '/webhook-subscriptions', {
        json: { url: 'https://s11.example/h', secret: 's' },
      });
      expectError(res, 400, 'MaxNumberOfResources');
    } finally {
      await own.close();
    }
  });

  it('uploads count as multipart even with the boundary quoted', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const form = multipart(
      [
        { name: 'documentType', data: Buffer.from('license') },
        {
          name: 'file',
          filename: 'x.png',
          data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
        },
      ],
      'quoted-boundary',
    );
    const res = await h.api('POST', `/customers/${id}/documents`, {
      body: form.body,
      headers: { 'content-type': 'multipart/form-data; boundary="quoted-boundary"' },
    });
    expect(res.status).toBe(201);
  });
});
