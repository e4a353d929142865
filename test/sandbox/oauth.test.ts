import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, type Harness, harness, type Res } from './helpers.ts';

/** service-facts.md §3: the token endpoint. */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const tokenUrl = () => `${h.base}/oauth/v2/token`;

function postToken(body: string, contentType?: string, headers: Record<string, string> = {}): Promise<Res> {
  return call(tokenUrl(), {
    method: 'POST',
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
    body,
  });
}

const json = (fields: Record<string, unknown>) => postToken(JSON.stringify(fields), 'application/json');
const form = (fields: Record<string, string>) =>
  postToken(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function expectToken(res: Res): void {
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.json).toEqual({
    access_token: expect.stringMatching(/^\S{20,}$/),
    token_type: 'bearer',
    expires_in: 3600,
    scope: 'AccountInfoFull|ManageAccount|Contacts|Transactions|Balance|Send|Request|Funding',
  });
}

function expectOAuthError(res: Res, status: number, error: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json).toEqual({ error });
}

describe('accepted forms of the request', () => {
  it('the JSON body of the interface document', async () => {
    expectToken(
      await json({
        client_id: h.sandbox.clientId,
        client_secret: h.sandbox.clientSecret,
        grant_type: 'client_credentials',
      }),
    );
  });

  it('the JSON body sent as the versioned media type', async () => {
    const body = {
      client_id: h.sandbox.clientId,
      client_secret: h.sandbox.clientSecret,
      grant_type: 'client_credentials',
    };
    expectToken(await postToken(JSON.stringify(body), 'application/vnd.service.v1.hal+json'));
  });

  it('an application/x-www-form-urlencoded body with the credentials in it', async () => {
    expectToken(
      await form({
        client_id: h.sandbox.clientId,
        client_secret: h.sandbox.clientSecret,
        grant_type: 'client_credentials',
      }),
    );
  });

  it('credentials in Authorization: Basic base64(id:secret)', async () => {
    const res = await postToken('grant_type=client_credentials', 'application/x-www-form-urlencoded', {
      authorization: basic(h.sandbox.clientId, h.sandbox.clientSecret),
    });
    expectToken(res);
  });
});

describe('tokens', () => {
  it('the token authorises API calls', async () => {
    const res = await form({
      client_id: h.sandbox.clientId,
      client_secret: h.sandbox.clientSecret,
      grant_type: 'client_credentials',
    });
    expect((await h.api('GET', '/customers', { token: res.json.access_token })).status).toBe(200);
  });

  it('no refresh token is issued', async () => {
    const res = await form({
      client_id: h.sandbox.clientId,
      client_secret: h.sandbox.clientSecret,
      grant_type: 'client_credentials',
    });
    expect(res.json).not.toHaveProperty('refresh_token');
  });

  it('a new token does not revoke older ones', async () => {
    const older = await getToken(h.sandbox);
    const newer = await getToken(h.sandbox);
    expect(newer).not.toBe(older);
    expect((await h.api('GET', '/customers', { token: older })).status).toBe(200);
    expect((await h.api('GET', '/customers', { token: newer })).status).toBe(200);
  });

  it('expires_in follows --token-ttl, and the token expires on the sandbox clock', async () => {
    const short = await harness({ tokenTtlSeconds: 5 });
    try {
      const res = await call(`${short.base}/oauth/v2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: short.sandbox.clientId,
          client_secret: short.sandbox.clientSecret,
          grant_type: 'client_credentials',
        }),
      });
      expect(res.json.expires_in).toBe(5);
      await short.sandbox.advanceClock(4);
      expect((await short.api('GET', '/customers', { token: res.json.access_token })).status).toBe(200);
      await short.sandbox.advanceClock(1);
      const expired = await short.api('GET', '/customers', { token: res.json.access_token });
      expect(expired.json.code).toBe('ExpiredAccessToken');
    } finally {
      await short.close();
    }
  });
});

describe('errors', () => {
  it('bad credentials: 401 {"error":"invalid_client"}', async () => {
    expectOAuthError(
      await json({ client_id: h.sandbox.clientId, client_secret: 'wrong', grant_type: 'client_credentials' }),
      401,
      'invalid_client',
    );
    expectOAuthError(
      await json({
        client_id: 'someone-else',
        client_secret: h.sandbox.clientSecret,
        grant_type: 'client_credentials',
      }),
      401,
      'invalid_client',
    );
    const viaBasic = await postToken('grant_type=client_credentials', 'application/x-www-form-urlencoded', {
      authorization: basic(h.sandbox.clientId, `${h.sandbox.clientSecret}x`),
    });
    expectOAuthError(viaBasic, 401, 'invalid_client');
  });

  it('wrong grant: 400 {"error":"unsupported_grant_type"}', async () => {
    for (const grant_type of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      expectOAuthError(
        await json({ client_id: h.sandbox.clientId, client_secret: h.sandbox.clientSecret, grant_type }),
        400,
        'unsupported_grant_type',
      );
    }
  });

  it.each([
    ['broken JSON', '{"grant_type": ', 'application/json'],
    ['a JSON array', '[]', 'application/json'],
    ['no grant_type', JSON.stringify({ client_id: 'a', client_secret: 'b' }), 'application/json'],
    ['grant_type not a string', JSON.stringify({ grant_type: 1 }), 'application/json'],
    ['no client_secret', 'grant_type=client_credentials&client_id=a', 'application/x-www-form-urlencoded'],
    ['an empty body', '', 'application/json'],
    ['text/plain', 'grant_type=client_credentials', 'text/plain'],
    ['no Content-Type', 'grant_type=client_credentials', undefined],
  ])('malformed (%s): 400 {"error":"invalid_request"}', async (_name, body, contentType) => {
    expectOAuthError(await postToken(body, contentType), 400, 'invalid_request');
  });

  it('malformed Basic credentials: 400 invalid_request', async () => {
    const res = await postToken('grant_type=client_credentials', 'application/x-www-form-urlencoded', {
      authorization: `Basic ${Buffer.from('no-colon').toString('base64')}`,
    });
    expectOAuthError(res, 400, 'invalid_request');
  });

  it('a body over 64 KiB: 400 invalid_request', async () => {
    const res = await form({
      grant_type: 'client_credentials',
      client_id: 'x'.repeat(70_000),
      client_secret: 'y',
    });
    expectOAuthError(res, 400, 'invalid_request');
  });

  it('GET on the token endpoint: 405', async () => {
    const res = await call(tokenUrl());
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});
