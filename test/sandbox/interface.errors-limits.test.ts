import { describe, expect, it } from 'vitest';
import { call, HAL, person, retryBody, subscribe } from './helpers.ts';
import { h, reviewed } from './interface.setup.ts';

describe('§7 errors', () => {
  it('1: formatting problems reject the create; no customer is created', async () => {
    const input = person({ email: 'broken@' });
    expect((await h.api('POST', '/customers', { json: input })).status).toBe(400);
    const found = await h.api('GET', `/customers?email=${encodeURIComponent(String(input.email))}`);
    expect(found.json.total).toBe(0);
  });

  it('2: a suspended customer cannot be corrected through the API', async () => {
    const id = await h.createCustomer({ firstName: 'suspended' });
    expect((await h.api('POST', `/customers/${id}`, { json: retryBody() })).json.code).toBe(
      'InvalidResourceState',
    );
  });

  it('3: a rejected document requires another upload, which is accepted', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await reviewed(id, 'fail.jpg');
    await reviewed(id, 'passport.jpg');
    expect((await h.customer(id)).json.status).toBe('verified');
  });
});

describe('§8 limits', () => {
  it('retry submissions: one more opportunity', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await h.api('POST', `/customers/${id}`, { json: retryBody() })).status);
    expect(statuses).toEqual([200, 403, 403]);
  });

  it('access token lifetime 3600', async () => {
    const token = (
      await call(`${h.base}/oauth/v2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${h.sandbox.clientId}&client_secret=${h.sandbox.clientSecret}`,
      })
    ).json;
    expect(token.expires_in).toBe(3600);
  });

  it('several webhook subscriptions may exist (up to 10 in the sandbox)', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await subscribe(h, `https://g${i}.example/h`));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) await h.api('DELETE', `/webhook-subscriptions/${id}`);
  });
});

describe('§9 versioning', () => {
  it('1: version 1 is the media type application/vnd.service.v1.hal+json', async () => {
    const ok = await h.api('GET', '/customers');
    expect(ok.headers['content-type']).toBe(HAL);
    const v2 = await h.api('GET', '/customers', {
      headers: { accept: 'application/vnd.service.v2.hal+json' },
    });
    expect(v2.status).toBe(406);
  });
});
