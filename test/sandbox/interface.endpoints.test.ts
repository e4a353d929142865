import { describe, expect, it } from 'vitest';
import { idOf, person, retryBody, subscribe } from './helpers.ts';
import { h, requestToken } from './interface.setup.ts';

describe('§4 endpoints', () => {
  it('POST /customers: 201 Created, Location is the new customer URL', async () => {
    const res = await h.api('POST', '/customers', { json: person() });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${h.base}/customers/[0-9a-f-]{36}$`));
    expect(res.text).toBe('');
  });

  it('GET /customers/<id>: the customer as in 2.2', async () => {
    const id = await h.createCustomer();
    expect((await h.customer(id)).json.id).toBe(id);
  });

  it('POST /customers/<id>: the retry, answered with the customer', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const res = await h.api('POST', `/customers/${id}`, { json: retryBody() });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, status: 'verified' });
  });

  it('POST /customers/<id>/documents: 201 Created with the document URL', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const res = await h.upload(id);
    expect(res.status).toBe(201);
    const doc = await h.api('GET', String(res.headers.location));
    expect(doc.json.id).toBe(idOf(res.headers.location));
  });

  it('POST /webhook-subscriptions: the new subscription URL is its resource location', async () => {
    const res = await h.api('POST', '/webhook-subscriptions', {
      json: { url: 'https://c.example/h', secret: 's' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${h.base}/webhook-subscriptions/[0-9a-f-]{36}$`));
    await h.api('DELETE', String(res.headers.location));
  });

  it('GET /webhook-subscriptions/<id>: the subscription as in 2.4', async () => {
    const id = await subscribe(h, 'https://d.example/h');
    expect((await h.api('GET', `/webhook-subscriptions/${id}`)).json.id).toBe(id);
    await h.api('DELETE', `/webhook-subscriptions/${id}`);
  });

  it('POST /oauth/v2/token: JSON {client_id, client_secret, grant_type} gives a token', async () => {
    const res = await requestToken();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('rule 1: formatting is validated first; an invalid e-mail or date of birth creates nothing', async () => {
    const before = (await h.api('GET', '/customers')).json.total;
    const res = await h.api('POST', '/customers', {
      json: person({ email: 'nope', dateOfBirth: '1990-02-31' }),
    });
    expect(res.status).toBe(400);
    expect(res.json._embedded.errors.map((e: { path: string }) => e.path)).toEqual([
      '/email',
      '/dateOfBirth',
    ]);
    expect((await h.api('GET', '/customers')).json.total).toBe(before);
  });

  it('rule 2: an upload is followed by customer_verification_document_uploaded', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await h.upload(id);
    expect((await h.topicsOf(id)).at(-1)).toBe('customer_verification_document_uploaded');
  });

  it('rule 3: the linked paths exist (funding-sources, transfers, a subscription’s webhooks)', async () => {
    const id = await h.createCustomer();
    const { json } = await h.customer(id);
    for (const rel of ['funding-sources', 'transfers', 'send', 'receive']) {
      expect((await h.api('GET', json._links[rel].href)).status).toBe(403);
    }
    const sub = await subscribe(h, 'https://e.example/h');
    expect((await h.api('GET', `/webhook-subscriptions/${sub}/webhooks`)).status).toBe(200);
    await h.api('DELETE', `/webhook-subscriptions/${sub}`);
  });
});

describe('§5 authentication', () => {
  it('1: API requests carry a bearer token', async () => {
    expect((await h.api('GET', '/customers', { token: null })).status).toBe(401);
    expect((await h.api('GET', '/customers')).status).toBe(200);
  });

  it('2-3: the client credentials grant supplies access_token, token_type, expires_in and scope', async () => {
    const res = await requestToken();
    expect(Object.keys(res.json).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
  });

  it('4: a token is needed to create a webhook subscription', async () => {
    const res = await h.api('POST', '/webhook-subscriptions', {
      json: { url: 'https://f.example/h', secret: 's' },
      token: null,
    });
    expect(res.status).toBe(401);
  });
});
