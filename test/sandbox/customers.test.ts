import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, person, type Res, retryBody } from './helpers.ts';

/** service-facts.md §4: customers. One test per row of the validation table, the statuses and the list. */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const create = (overrides: Record<string, unknown>) =>
  h.api('POST', '/customers', { json: person(overrides) });

function fieldErrors(res: Res): { path: string; code: string; message: string }[] {
  expect(res.status, res.text).toBe(400);
  expect(res.json.code).toBe('ValidationError');
  return res.json._embedded.errors.map(({ path, code, message }: Record<string, string>) => ({
    path,
    code,
    message,
  }));
}

describe('validation on POST /customers', () => {
  it('firstName, lastName: Required', async () => {
    expect(fieldErrors(await create({ firstName: undefined, lastName: '' }))).toEqual([
      { path: '/firstName', code: 'Required', message: 'FirstName required.' },
      { path: '/lastName', code: 'Required', message: 'LastName required.' },
    ]);
  });

  it('firstName, lastName: InvalidFormat over 50 chars or with one of the forbidden characters', async () => {
    expect(fieldErrors(await create({ firstName: 'J'.repeat(51), lastName: 'D{x}e' }))).toEqual([
      { path: '/firstName', code: 'InvalidFormat', message: 'FirstName invalid.' },
      { path: '/lastName', code: 'InvalidFormat', message: 'LastName invalid.' },
    ]);
  });

  it('email: Required / InvalidFormat "Email invalid."', async () => {
    expect(fieldErrors(await create({ email: undefined }))).toEqual([
      { path: '/email', code: 'Required', message: 'Email required.' },
    ]);
    expect(fieldErrors(await create({ email: 'jane@' }))).toEqual([
      { path: '/email', code: 'InvalidFormat', message: 'Email invalid.' },
    ]);
  });

  it('email: Duplicate with _links.about = the existing customer (case-insensitive)', async () => {
    const first = person();
    const firstId = await h.createCustomer(first);
    const res = await create({ email: String(first.email).toUpperCase() });
    expect(res.status).toBe(400);
    expect(res.json._embedded.errors).toEqual([
      {
        code: 'Duplicate',
        message: 'A customer with the specified email already exists.',
        path: '/email',
        _links: { about: expect.objectContaining({ href: `${h.base}/customers/${firstId}` }) },
      },
    ]);
  });

  it('type: personal, else Invalid', async () => {
    expect(fieldErrors(await create({ type: 'business' }))).toEqual([
      { path: '/type', code: 'Invalid', message: 'Type invalid.' },
    ]);
  });

  it('address1, city: Required', async () => {
    expect(fieldErrors(await create({ address1: ' ', city: undefined }))).toEqual([
      { path: '/address1', code: 'Required', message: 'Address1 required.' },
      { path: '/city', code: 'Required', message: 'City required.' },
    ]);
  });

  it('address1, city: at most 50 chars', async () => {
    expect(fieldErrors(await create({ address1: 'a'.repeat(51) })).map((e) => e.path)).toEqual(['/address1']);
  });

  it('address2: optional', async () => {
    expect((await create({ address2: undefined })).status).toBe(201);
  });

  it('state: a two-letter US state/territory code, else InvalidFormat', async () => {
    expect(fieldErrors(await create({ state: 'ZZ' }))).toEqual([
      { path: '/state', code: 'InvalidFormat', message: 'State invalid.' },
    ]);
    expect((await create({ state: 'PR' })).status).toBe(201);
  });

  it('postalCode: NNNNN or NNNNN-NNNN, else InvalidFormat', async () => {
    expect((await create({ postalCode: '62701-1234' })).status).toBe(201);
    expect(fieldErrors(await create({ postalCode: '6270' }))).toEqual([
      { path: '/postalCode', code: 'InvalidFormat', message: 'PostalCode invalid.' },
    ]);
  });

  it('dateOfBirth: a real YYYY-MM-DD date, else InvalidFormat', async () => {
    expect(fieldErrors(await create({ dateOfBirth: '1990-02-30' }))).toEqual([
      { path: '/dateOfBirth', code: 'InvalidFormat', message: 'DateOfBirth invalid.' },
    ]);
  });

  it('dateOfBirth: age 18-125, else NotAllowed "DateOfBirth value not allowed."', async () => {
    const year = new Date().getUTCFullYear();
    for (const dateOfBirth of [`${year - 10}-01-01`, `${year - 130}-01-01`]) {
      expect(fieldErrors(await create({ dateOfBirth }))).toEqual([
        { path: '/dateOfBirth', code: 'NotAllowed', message: 'DateOfBirth value not allowed.' },
      ]);
    }
  });

  it('tin on create: exactly 4 digits, else InvalidFormat "Ssn invalid."', async () => {
    expect(fieldErrors(await create({ tin: '123-45-6789' }))).toEqual([
      { path: '/tin', code: 'InvalidFormat', message: 'Ssn invalid.' },
    ]);
  });

  it('ipAddress: optional; a valid IPv4/IPv6 address, else InvalidFormat', async () => {
    expect((await create({ ipAddress: undefined })).status).toBe(201);
    expect((await create({ ipAddress: '2001:db8::7' })).status).toBe(201);
    expect(fieldErrors(await create({ ipAddress: '300.1.1.1' }))).toEqual([
      { path: '/ipAddress', code: 'InvalidFormat', message: 'IpAddress invalid.' },
    ]);
  });

  it('all errors at once, and a rejected request creates nothing', async () => {
    const before = (await h.api('GET', '/customers')).json.total;
    const events = (await h.api('GET', '/events')).json.total;
    const res = await h.api('POST', '/customers', { json: {} });
    expect(fieldErrors(res)).toHaveLength(10);
    expect((await h.api('GET', '/customers')).json.total).toBe(before);
    expect((await h.api('GET', '/events')).json.total).toBe(events);
  });

  it('success: 201, Location {base}/customers/{uuid}, empty body', async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${h.base}/customers/[0-9a-f-]{36}$`));
    expect(res.text).toBe('');
    expect(res.headers['content-length']).toBe('0');
  });
});

describe('status on creation (the firstName decides)', () => {
  it.each([
    ['retry', 'retry'],
    ['document', 'document'],
    ['suspended', 'suspended'],
    ['ReTrY', 'retry'],
    ['DOCUMENT', 'document'],
    ['Suspended', 'suspended'],
    ['Jane', 'verified'],
    ['retrying', 'verified'],
  ])('firstName %s → %s', async (firstName, status) => {
    const id = await h.createCustomer({ firstName });
    expect((await h.customer(id)).json.status).toBe(status);
  });
});

describe('retry — POST /customers/{id}', () => {
  it('only when status is retry: otherwise 403 InvalidResourceState', async () => {
    for (const firstName of ['Jane', 'document', 'suspended']) {
      const id = await h.createCustomer({ firstName });
      const res = await h.api('POST', `/customers/${id}`, { json: retryBody() });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('InvalidResourceState');
    }
  });

  it('only once: the second retry is 403 InvalidResourceState', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    expect(
      (await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName: 'document' }) })).status,
    ).toBe(200);
    expect((await h.api('POST', `/customers/${id}`, { json: retryBody() })).json.code).toBe(
      'InvalidResourceState',
    );
  });

  it('body: all creation fields, with the full tin NNN-NN-NNNN', async () => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const lastFour = await h.api('POST', `/customers/${id}`, { json: person({ firstName: 'retry' }) });
    expect(fieldErrors(lastFour)).toEqual([{ path: '/tin', code: 'InvalidFormat', message: 'Ssn invalid.' }]);
    const partial = await h.api('POST', `/customers/${id}`, { json: { tin: '123-45-6789' } });
    expect(fieldErrors(partial).map((e) => e.path)).toContain('/firstName');
    expect((await h.customer(id)).json.status).toBe('retry'); // rejected retries do not use up the one chance
  });

  it('corrected fields are stored; the e-mail must still be unique', async () => {
    const other = person();
    await h.createCustomer(other);
    const id = await h.createCustomer({ firstName: 'retry' });
    const clash = await h.api('POST', `/customers/${id}`, { json: retryBody({ email: other.email }) });
    expect(fieldErrors(clash)[0]).toMatchObject({ path: '/email', code: 'Duplicate' });
    const res = await h.api('POST', `/customers/${id}`, { json: retryBody({ lastName: 'Corrected' }) });
    expect(res.json.lastName).toBe('Corrected');
  });

  it.each([
    ['document', 'document'],
    ['suspended', 'suspended'],
    ['retry', 'verified'],
    ['Jane', 'verified'],
  ])('outcome: firstName %s → %s, answered 200 with the customer', async (firstName, status) => {
    const id = await h.createCustomer({ firstName: 'retry' });
    const res = await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName }) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, status, firstName });
  });

  it('unknown customer: 404', async () => {
    const res = await h.api('POST', `/customers/${crypto.randomUUID()}`, { json: retryBody() });
    expect(res.status).toBe(404);
  });
});

describe('customer list — GET /customers', () => {
  let list: Harness;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    list = await harness();
    ids.ann = await list.createCustomer({ firstName: 'Ann', lastName: 'Archer', email: 'ann@example.com' });
    ids.bob = await list.createCustomer({ firstName: 'retry', lastName: 'Baker', email: 'bob@example.org' });
    ids.cy = await list.createCustomer({ firstName: 'document', lastName: 'Cole', email: 'cy@example.com' });
    ids.di = await list.createCustomer({ firstName: 'suspended', lastName: 'Dunn', email: 'di@example.net' });
    for (let i = 0; i < 6; i++) await list.createCustomer({ lastName: `Extra${i}` });
  });
  afterAll(() => list.close());

  const page = (query: string) => list.api('GET', `/customers${query}`);
  const idsOf = (res: Res) => res.json._embedded.customers.map((c: { id: string }) => c.id);

  it('{_links, _embedded.customers, total}, newest first, 25 by default', async () => {
    const res = await page('');
    expect(res.status).toBe(200);
    expect(res.json.total).toBe(10);
    expect(idsOf(res)).toHaveLength(10);
    expect(idsOf(res).at(-1)).toBe(ids.ann);
    expect(res.json._links.self.href).toBe(`${list.base}/customers?limit=25&offset=0`);
  });

  it('limit and offset, with first, last, next and prev links', async () => {
    const res = await page('?limit=3&offset=3');
    expect(idsOf(res)).toHaveLength(3);
    const links = res.json._links;
    expect(links.first.href).toBe(`${list.base}/customers?limit=3&offset=0`);
    expect(links.last.href).toBe(`${list.base}/customers?limit=3&offset=9`);
    expect(links.next.href).toBe(`${list.base}/customers?limit=3&offset=6`);
    expect(links.prev.href).toBe(`${list.base}/customers?limit=3&offset=0`);
    const first = await page('?limit=3');
    expect(first.json._links).not.toHaveProperty('prev');
    const last = await list.api('GET', links.last.href);
    expect(last.json._links).not.toHaveProperty('next');
    expect(idsOf(last)).toEqual([ids.ann]);
  });

  it('limit at most 200: 200 is accepted, 201 and 0 are ValidationErrors', async () => {
    expect((await page('?limit=200')).status).toBe(200);
    expect(fieldErrors(await page('?limit=201'))[0]).toMatchObject({ path: '/limit', code: 'Invalid' });
    expect(fieldErrors(await page('?limit=0'))[0]).toMatchObject({ path: '/limit' });
    expect(fieldErrors(await page('?offset=-1'))[0]).toMatchObject({ path: '/offset' });
    expect(fieldErrors(await page('?limit=ten'))[0]).toMatchObject({ path: '/limit' });
  });

  it('search: fuzzy over names and e-mail, case-insensitive', async () => {
    expect(idsOf(await page('?search=ARCH'))).toEqual([ids.ann]);
    expect(idsOf(await page('?search=example.org'))).toEqual([ids.bob]);
    expect(idsOf(await page('?search=Ann%20Archer'))).toEqual([ids.ann]);
    expect(idsOf(await page('?search=%25'))).toEqual([]); // LIKE wildcards are literal
  });

  it('email: exact match', async () => {
    expect(idsOf(await page('?email=CY@example.com'))).toEqual([ids.cy]);
    expect(idsOf(await page('?email=cy@example'))).toEqual([]);
  });

  it('status: repeatable', async () => {
    expect(idsOf(await page('?status=retry'))).toEqual([ids.bob]);
    expect(new Set(idsOf(await page('?status=document&status=suspended')))).toEqual(
      new Set([ids.cy, ids.di]),
    );
    expect((await page('?status=kba')).json.total).toBe(0);
  });

  it('filters combine, and total counts the filtered list', async () => {
    const res = await page('?search=example.com&status=verified&limit=1');
    expect(res.json.total).toBe(7); // Ann and the six extras; not Cy (document)
    expect(idsOf(res)).toHaveLength(1);
    expect(res.json._links.self.href).toContain('search=example.com');
    expect(res.json._links.next.href).toContain('status=verified');
  });
});

describe('statuses', () => {
  it('the sandbox emits only verified, retry, document and suspended', async () => {
    const statuses = new Set(
      (await h.api('GET', '/customers?limit=200')).json._embedded.customers.map(
        (c: { status: string }) => c.status,
      ),
    );
    for (const status of statuses) expect(['verified', 'retry', 'document', 'suspended']).toContain(status);
  });

  it('a customer in retry links retry-verification; in document, verify-with-document', async () => {
    const retry = await h.customer(await h.createCustomer({ firstName: 'retry' }));
    expect(retry.json._links['retry-verification'].href).toBe(retry.json._links.self.href);
    const doc = await h.customer(await h.createCustomer({ firstName: 'document' }));
    expect(doc.json._links['verify-with-document'].href).toBe(`${doc.json._links.self.href}/documents`);
  });
});
