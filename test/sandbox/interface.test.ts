import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  HAL,
  type Harness,
  harness,
  hmacHex,
  idOf,
  person,
  type Receiver,
  receiver,
  retryBody,
  subscribe,
  UUID,
} from './helpers.ts';

/** One test per row of service-interface.md. */
let h: Harness;
let hooks: Receiver;
beforeAll(async () => {
  h = await harness({ reviewDelayMs: 60_000 });
  hooks = await receiver(200);
  await subscribe(h, hooks.url, 'interface-secret');
});
afterAll(async () => {
  await h.close();
  await hooks.close();
});

/** Uploads a document named `fileName` and lets the review run. */
async function reviewed(customerId: string, fileName: string): Promise<void> {
  expect((await h.upload(customerId, fileName)).status).toBe(201);
  await h.sandbox.advanceClock(60);
}

describe('§2.1 customer input and §2.2 customer returned by GET', () => {
  it('2.1: every input field is accepted on create', async () => {
    const res = await h.api('POST', '/customers', { json: person() });
    expect(res.status).toBe(201);
  });

  it('2.2: GET returns _links, id, firstName, lastName, email, type, status, created', async () => {
    const input = person();
    const id = await h.createCustomer(input);
    const { status, json, headers } = await h.customer(id);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe(HAL);
    expect(json).toMatchObject({
      id,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      type: 'personal',
      status: 'verified',
    });
    expect(json.id).toMatch(UUID);
    expect(json.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const self = `${h.base}/customers/${id}`;
    expect(json._links.self.href).toBe(self);
    expect(json._links.receive.href).toBe(`${h.base}/transfers`);
    expect(json._links.send.href).toBe(`${h.base}/transfers`);
    expect(json._links['funding-sources'].href).toBe(`${self}/funding-sources`);
    expect(json._links.transfers.href).toBe(`${self}/transfers`);
  });

  it('2.2: the customer omits address, date of birth, tin and ipAddress', async () => {
    const { json } = await h.customer(await h.createCustomer());
    for (const field of [
      'address1',
      'address2',
      'city',
      'state',
      'postalCode',
      'dateOfBirth',
      'tin',
      'ipAddress',
    ]) {
      expect(json).not.toHaveProperty(field);
    }
  });
});

describe('§2.3 document upload input', () => {
  it('multipart documentType + file creates {base}/documents/<uuid>', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const res = await h.upload(id);
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${h.base}/documents/[0-9a-f-]{36}$`));
  });
});

describe('§2.4 webhook subscription', () => {
  it('created from {url, secret}; returned with _links self and webhooks, id, url, created, never the secret', async () => {
    const id = await subscribe(h, 'https://example.com/hooks', 'never-returned');
    const res = await h.api('GET', `/webhook-subscriptions/${id}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, url: 'https://example.com/hooks' });
    expect(res.json._links.self.href).toBe(`${h.base}/webhook-subscriptions/${id}`);
    expect(res.json._links.webhooks.href).toBe(`${h.base}/webhook-subscriptions/${id}/webhooks`);
    expect(Number.isNaN(Date.parse(res.json.created))).toBe(false);
    expect(res.text).not.toContain('never-returned');
    await h.api('DELETE', `/webhook-subscriptions/${id}`);
  });

  it('several subscriptions may exist', async () => {
    const ids = [await subscribe(h, 'https://a.example/h'), await subscribe(h, 'https://b.example/h')];
    const list = await h.api('GET', '/webhook-subscriptions');
    const listed = list.json._embedded['webhook-subscriptions'].map((s: { id: string }) => s.id);
    expect(listed).toEqual(expect.arrayContaining(ids));
    for (const id of ids) await h.api('DELETE', `/webhook-subscriptions/${id}`);
  });
});

describe('§2.5 access token response', () => {
  it('access_token, token_type bearer, expires_in 3600, scope joined by |', async () => {
    const res = await call(`${h.base}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: h.sandbox.clientId,
        client_secret: h.sandbox.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
    expect(res.json).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'AccountInfoFull|ManageAccount|Contacts|Transactions|Balance|Send|Request|Funding',
    });
  });
});

describe('§3 states and transitions', () => {
  it('(new customer) → verified: POST /customers, validation and verification pass', async () => {
    const id = await h.createCustomer();
    expect((await h.customer(id)).json.status).toBe('verified');
  });

  it('retry → verified: POST /customers/<id> with full data and full tin', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const res = await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName: 'Jane' }) });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('verified');
  });

  it('retry → document: further evidence needed', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const res = await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName: 'document' }) });
    expect(res.json.status).toBe('document');
  });

  it('retry → suspended: verification fails', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const res = await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName: 'suspended' }) });
    expect(res.json.status).toBe('suspended');
  });

  it('document → verified: a sufficient document, event customer_verification_document_approved', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await reviewed(id, 'passport.jpg');
    expect((await h.customer(id)).json.status).toBe('verified');
    expect(await h.topicsOf(id)).toContain('customer_verification_document_approved');
  });

  it('document stays document: insufficient document, events failed (then needed); another upload is required', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await reviewed(id, 'fail.jpg');
    expect((await h.customer(id)).json.status).toBe('document');
    const topics = await h.topicsOf(id);
    expect(topics.slice(-2)).toEqual([
      'customer_verification_document_failed',
      'customer_verification_document_needed',
    ]);
    expect((await h.upload(id, 'second.jpg')).status).toBe(201);
  });

  it('document → suspended: a fraudulent document', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await reviewed(id, 'fraud.jpg');
    expect((await h.customer(id)).json.status).toBe('suspended');
  });

  it('suspended → suspended: no API action corrects it', async () => {
    const id = await h.createCustomer({ firstName: 'suspended' });
    const retry = await h.api('POST', `/customers/${id}`, { json: retryBody() });
    expect(retry.status).toBe(403);
    expect((await h.upload(id)).status).toBe(403);
    expect((await h.customer(id)).json.status).toBe('suspended');
  });

  it('rule 1: only one retry opportunity', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    expect(
      (await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName: 'retry' }) })).status,
    ).toBe(200);
    const second = await h.api('POST', `/customers/${id}`, { json: retryBody() });
    expect(second.status).toBe(403);
    expect(second.json.code).toBe('InvalidResourceState');
  });

  it('rule 2: after the retry the customer is verified, document or suspended', async () => {
    for (const [firstName, expected] of [
      ['retry', 'verified'],
      ['Document', 'document'],
      ['SUSPENDED', 'suspended'],
      ['Jane', 'verified'],
    ]) {
      const id = await h.createCustomer({ firstName: 'retry' });
      const res = await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName }) });
      expect(res.json.status).toBe(expected);
    }
  });
});

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
    const res = await call(`${h.base}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: h.sandbox.clientId,
        client_secret: h.sandbox.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
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
    const res = await call(`${h.base}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: h.sandbox.clientId,
        client_secret: h.sandbox.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
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

describe('§6 events delivered as webhooks', () => {
  const delivered = async (customerId: string) => {
    await h.sandbox.advanceClock(0);
    return hooks.received
      .filter((w) => w.event._links.customer.href.endsWith(customerId))
      .map((w) => w.event.topic as string);
  };

  it('customer_verification_document_uploaded: an upload succeeded', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await h.upload(id);
    expect(await delivered(id)).toContain('customer_verification_document_uploaded');
  });

  it('customer_verification_document_approved: review found the document sufficient', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await reviewed(id, 'license.png');
    expect(await delivered(id)).toContain('customer_verification_document_approved');
  });

  it('customer_verification_document_failed: review rejected it', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await reviewed(id, 'failing.jpg');
    expect(await delivered(id)).toContain('customer_verification_document_failed');
  });

  it('customer_verification_document_needed: more documentation is needed, after a failed event', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await reviewed(id, 'fail.jpg');
    const topics = await delivered(id);
    // Once on creation (status document), once more after the failed review.
    expect(topics.filter((topic) => topic === 'customer_verification_document_needed')).toHaveLength(2);
    expect((await h.topicsOf(id)).slice(-2)).toEqual([
      'customer_verification_document_failed',
      'customer_verification_document_needed',
    ]);
  });

  it('security 2: the subscription secret authenticates each webhook request', async () => {
    const id = await h.createCustomer();
    await delivered(id);
    const mine = hooks.received.filter((w) => w.event._links.customer.href.endsWith(id));
    expect(mine.length).toBeGreaterThan(0);
    for (const webhook of mine) {
      expect(webhook.headers['x-request-signature-sha-256']).toBe(hmacHex('interface-secret', webhook.raw));
    }
  });

  it('security 1: the destination must be https (http only to loopback, in the sandbox)', async () => {
    const res = await h.api('POST', '/webhook-subscriptions', {
      json: { url: 'http://example.com/h', secret: 's' },
    });
    expect(res.status).toBe(400);
  });
});

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
