import { describe, expect, it } from 'vitest';
import { call, requestJsonToken as jsonToken, requestFormToken } from './helpers.ts';
import { expected, PROFILES, sandboxes } from './profiles.setup.ts';

/** real-service.md rows "token endpoint" and "token response", on both profiles. */
describe('token endpoint', () => {
  it('real: POST /token with a form body and Basic credentials; /oauth/v2/token is 404', async () => {
    const { sandbox, base } = sandboxes.real;
    expect(sandbox.tokenUrl).toBe(`${base}/token`);
    const issued = await requestFormToken(base, sandbox.clientId, sandbox.clientSecret);
    expect(issued.status).toBe(200);
    const old = await jsonToken(base, sandbox.clientId, sandbox.clientSecret);
    expect(old.status).toBe(404);
    expect(old.json.code).toBe('notFound');
    const oldForm = await requestFormToken(base, sandbox.clientId, sandbox.clientSecret, '/oauth/v2/token');
    expect(oldForm.status).toBe(404);
  });

  it('real: the JSON body, or credentials in the form body instead of Basic, are refused', async () => {
    const { sandbox, base } = sandboxes.real;
    const json = await call(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
    expect(json.status).toBe(400);
    expect(json.json).toEqual({ error: 'invalid_request' });
    const inBody = await call(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
      }).toString(),
    });
    expect(inBody.status).toBe(401);
    expect(inBody.json).toEqual({ error: 'invalid_client' });
    const wrong = await requestFormToken(base, sandbox.clientId, 'not-the-secret');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'invalid_client' });
  });

  it('interface (unchanged): JSON to /oauth/v2/token; /token is 404 whatever the headers', async () => {
    const { sandbox, base } = sandboxes.interface;
    expect(sandbox.tokenUrl).toBe(`${base}/oauth/v2/token`);
    expect((await jsonToken(base, sandbox.clientId, sandbox.clientSecret)).status).toBe(200);
    const real = await requestFormToken(base, sandbox.clientId, sandbox.clientSecret);
    expect(real.status).toBe(404);
    expect(real.json.code).toBe('NotFound');
  });
});

describe.each(PROFILES)('token response (%s profile)', (profile) => {
  it(
    expected(profile, {
      interface: 'token_type "bearer", scope present, expires_in 3600',
      real: 'token_type "Bearer", no scope, expires_in 3600',
    }),
    async () => {
      const { sandbox, base } = sandboxes[profile];
      const res =
        profile === 'real'
          ? await requestFormToken(base, sandbox.clientId, sandbox.clientSecret)
          : await jsonToken(base, sandbox.clientId, sandbox.clientSecret);
      expect(res.status).toBe(200);
      expect(res.json.token_type).toBe(expected(profile, { interface: 'bearer', real: 'Bearer' }));
      expect(res.json.expires_in).toBe(3600);
      expect('scope' in res.json).toBe(profile === 'interface');
      const use = await sandboxes[profile].api('GET', '/events', { token: res.json.access_token });
      expect(use.status).toBe(200);
    },
  );
});
