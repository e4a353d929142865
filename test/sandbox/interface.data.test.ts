import { describe, expect, it } from 'vitest';
import { HAL, person, subscribe, UUID } from './helpers.ts';
import { h, requestToken } from './interface.setup.ts';

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
    const res = await requestToken();
    expect(res.json).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'AccountInfoFull|ManageAccount|Contacts|Transactions|Balance|Send|Request|Funding',
    });
  });
});
