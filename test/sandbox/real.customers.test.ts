import { describe, expect, it } from 'vitest';
import { person, retryBody } from './helpers.ts';
import { expected, PROFILES, sandboxes } from './profiles.setup.ts';

/**
 * real-service.md rows "taxpayer number field", "GET customer fields", "statuses" and "customer
 * _links", on both profiles.
 */
const ADDRESS = {
  address1: '1 Main St',
  address2: 'Apt 2',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
};
const NEVER = ['dateOfBirth', 'tin', 'ssn', 'ipAddress'];

/** A create or retry body with the taxpayer number under `tin` only, or `ssn` only. */
const named = (field: 'tin' | 'ssn', body: Record<string, unknown>) => {
  const { tin, ...rest } = body;
  return { ...rest, [field]: tin };
};
const fieldErrorsOf = (res: { json: { code: string; _embedded: { errors: unknown[] } } }) => {
  expect(res.json.code).toBe('ValidationError');
  return res.json._embedded.errors;
};

describe.each(PROFILES)('taxpayer number field (%s profile)', (profile) => {
  const field = expected(profile, { interface: 'tin', real: 'ssn' } as const);
  const other = field === 'tin' ? 'ssn' : 'tin';

  it(`creates with the last four under ${field}; a body with ${other} alone is refused at /${field}`, async () => {
    const h = sandboxes[profile];
    expect((await h.api('POST', '/customers', { json: named(field, person()) })).status).toBe(201);
    const refused = await h.api('POST', '/customers', { json: named(other, person()) });
    expect(refused.status).toBe(400);
    expect(fieldErrorsOf(refused)).toEqual([
      { path: `/${field}`, code: 'Required', message: 'Ssn required.', _links: {} },
    ]);
    const short = await h.api('POST', '/customers', { json: named(field, person({ tin: '123-45-6789' })) });
    expect(fieldErrorsOf(short)).toEqual([
      expect.objectContaining({ path: `/${field}`, code: 'InvalidFormat' }),
    ]);
  });

  it(`retries with all nine digits under ${field}; four digits are refused at /${field}`, async () => {
    const h = sandboxes[profile];
    const id = await h.createCustomer({ firstName: 'retry' });
    const four = await h.api('POST', `/customers/${id}`, { json: named(field, retryBody({ tin: '6789' })) });
    expect(fieldErrorsOf(four)).toEqual([
      expect.objectContaining({ path: `/${field}`, code: 'InvalidFormat' }),
    ]);
    const withOther = await h.api('POST', `/customers/${id}`, { json: named(other, retryBody()) });
    expect(fieldErrorsOf(withOther)).toEqual([
      expect.objectContaining({ path: `/${field}`, code: 'Required' }),
    ]);
    expect((await h.api('POST', `/customers/${id}`, { json: named(field, retryBody()) })).status).toBe(200);
  });

  it(
    expected(profile, {
      interface: 'an ssn beside the tin is an unknown field, ignored',
      real: 'a tin beside the ssn is an unknown field, ignored (the official schemas allow unknown fields)',
    }),
    async () => {
      const h = sandboxes[profile];
      const body = { ...named(field, person()), [other]: 'not a number' };
      expect((await h.api('POST', '/customers', { json: body })).status).toBe(201);
    },
  );
});

describe.each(PROFILES)('GET customer fields (%s profile)', (profile) => {
  it(
    expected(profile, {
      interface: 'no address, phone or correlationId; never dob, tin or IP',
      real: 'address1, address2, city, state, postalCode, phone and correlationId; never dob, tin or IP',
    }),
    async () => {
      const h = sandboxes[profile];
      const id = await h.createCustomer({ phone: '5555550100', correlationId: 'crm-42' });
      const customer = (await h.customer(id)).json;
      for (const field of NEVER) expect(customer).not.toHaveProperty(field);
      if (profile === 'real') {
        expect(customer).toMatchObject({ ...ADDRESS, phone: '5555550100', correlationId: 'crm-42' });
      } else {
        for (const field of [...Object.keys(ADDRESS), 'phone', 'correlationId'])
          expect(customer).not.toHaveProperty(field);
      }
    },
  );

  it('address2 only when set; phone and correlationId only when given', async () => {
    const h = sandboxes[profile];
    const id = await h.createCustomer({ address2: '' });
    const customer = (await h.customer(id)).json;
    expect(customer).not.toHaveProperty('address2');
    expect(customer).not.toHaveProperty('phone');
    expect(customer).not.toHaveProperty('correlationId');
    expect('city' in customer).toBe(profile === 'real');
    const listed = (await h.api('GET', `/customers?email=${encodeURIComponent(customer.email)}`)).json;
    expect(listed._embedded.customers[0]).toEqual(customer);
  });

  it(
    expected(profile, {
      interface: 'a malformed phone is ignored, as any unknown field',
      real: 'a malformed phone is a ValidationError at /phone',
    }),
    async () => {
      const h = sandboxes[profile];
      const res = await h.api('POST', '/customers', { json: h.person({ phone: '555-0100' }) });
      expect(res.status).toBe(expected(profile, { interface: 201, real: 400 }));
      if (profile === 'real') expect(res.json._embedded.errors[0]).toMatchObject({ path: '/phone' });
    },
  );
});

describe('statuses', () => {
  it('real: first name kba → kba (event customer_kba_verification_needed); unverified → unverified', async () => {
    const h = sandboxes.real;
    const kba = await h.createCustomer({ firstName: 'KBA' });
    expect((await h.customer(kba)).json.status).toBe('kba');
    expect(await h.topicsOf(kba)).toEqual(['customer_created', 'customer_kba_verification_needed']);
    const unverified = await h.createCustomer({ firstName: 'unverified' });
    expect((await h.customer(unverified)).json.status).toBe('unverified');
    expect(await h.topicsOf(unverified)).toEqual(['customer_created']);
  });

  it('real: a retry with first name kba leads to kba; a kba customer cannot retry or upload', async () => {
    const h = sandboxes.real;
    const id = await h.createCustomer({ firstName: 'retry' });
    const retried = await h.api('POST', `/customers/${id}`, { json: h.retryBody({ firstName: 'kba' }) });
    expect(retried.status).toBe(200);
    expect(retried.json.status).toBe('kba');
    const again = await h.api('POST', `/customers/${id}`, { json: h.retryBody() });
    expect(again.status).toBe(403);
    expect(again.json.code).toBe('invalidResourceState');
    expect((await h.upload(id)).status).toBe(403);
  });

  it('real: POST /sandbox/customers/{id}/deactivate → deactivated, event customer_deactivated; once only', async () => {
    const h = sandboxes.real;
    const id = await h.createCustomer();
    const res = await h.api('POST', `/sandbox/customers/${id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('deactivated');
    expect((await h.customer(id)).json.status).toBe('deactivated');
    expect((await h.topicsOf(id)).at(-1)).toBe('customer_deactivated');
    expect((await h.api('POST', `/sandbox/customers/${id}/deactivate`)).status).toBe(403);
    const stats = (await h.api('GET', '/sandbox/stats')).json;
    expect(stats.customers.deactivated).toBeGreaterThanOrEqual(1);
  });

  it('interface (unchanged): kba and unverified are ordinary first names; no deactivate control', async () => {
    const h = sandboxes.interface;
    for (const firstName of ['kba', 'unverified']) {
      expect((await h.customer(await h.createCustomer({ firstName }))).json.status).toBe('verified');
    }
    const id = await h.createCustomer({ firstName: 'retry' });
    const retried = await h.api('POST', `/customers/${id}`, { json: h.retryBody({ firstName: 'kba' }) });
    expect(retried.json.status).toBe('verified');
    expect((await h.api('POST', `/sandbox/customers/${id}/deactivate`)).status).toBe(404);
  });
});

/** The links besides `self`, by status, exactly as real-service.md's table. */
const REAL_LINKS: Record<string, string[]> = {
  verified: ['funding-sources', 'receive', 'send', 'transfers'],
  unverified: ['funding-sources', 'receive', 'send', 'transfers'],
  retry: ['funding-sources', 'receive', 'retry-verification', 'transfers'],
  document: ['document-form', 'funding-sources', 'receive', 'transfers', 'verify-with-document'],
  kba: ['funding-sources', 'receive', 'transfers', 'verify-with-kba'],
  suspended: ['funding-sources', 'transfers'],
  deactivated: ['funding-sources', 'transfers'],
};
const EVERY = ['funding-sources', 'receive', 'send', 'transfers'];
const INTERFACE_LINKS: Record<string, string[]> = {
  verified: EVERY,
  retry: [...EVERY, 'retry-verification'].sort(),
  document: [...EVERY, 'verify-with-document'].sort(),
  suspended: EVERY,
};

describe.each(PROFILES)('customer _links (%s profile)', (profile) => {
  const table = expected(profile, { interface: INTERFACE_LINKS, real: REAL_LINKS });
  it.each(Object.keys(table))('%s', async (status) => {
    const h = sandboxes[profile];
    const firstName = status === 'deactivated' ? 'Jane' : status;
    const id = await h.createCustomer({ firstName });
    if (status === 'deactivated') await h.api('POST', `/sandbox/customers/${id}/deactivate`);
    const customer = (await h.customer(id)).json;
    expect(customer.status).toBe(status);
    const names = Object.keys(customer._links).filter((name) => name !== 'self');
    expect(names.sort()).toEqual(table[status]);
    expect(customer._links.self.href).toBe(`${h.base}/customers/${id}`);
  });

  it('the retry and document links lead where they say', async () => {
    const h = sandboxes[profile];
    const retry = (await h.customer(await h.createCustomer({ firstName: 'retry' }))).json;
    const retried = await h.api('POST', retry._links['retry-verification'].href, { json: h.retryBody() });
    expect(retried.status).toBe(200);
    const document = (await h.customer(await h.createCustomer({ firstName: 'document' }))).json;
    expect(document._links['verify-with-document'].href).toBe(`${h.base}/customers/${document.id}/documents`);
    expect((await h.upload(document.id)).status).toBe(201);
  });
});

it('real: the verify-with-kba link exists but the application may not run KBA sessions (403 Forbidden)', async () => {
  const h = sandboxes.real;
  const kba = (await h.customer(await h.createCustomer({ firstName: 'kba' }))).json;
  const res = await h.api('POST', kba._links['verify-with-kba'].href);
  expect(res.status).toBe(403);
  expect(res.json.code).toBe('Forbidden');
});
