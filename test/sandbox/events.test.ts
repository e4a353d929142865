import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, person, retryBody, UUID } from './helpers.ts';

/** service-facts.md §6: events. */
let h: Harness;
beforeAll(async () => {
  h = await harness({ reviewDelayMs: 1_000 });
});
afterAll(() => h.close());

describe('every state change emits an event', () => {
  it.each([
    ['Jane', ['customer_created', 'customer_verified']],
    ['retry', ['customer_created', 'customer_reverification_needed']],
    ['document', ['customer_created', 'customer_verification_document_needed']],
    ['suspended', ['customer_created', 'customer_suspended']],
  ])('creating %s: %j', async (firstName, topics) => {
    expect(await h.topicsOf(await h.createCustomer({ firstName }))).toEqual(topics);
  });

  it.each([
    ['Jane', 'customer_verified'],
    ['document', 'customer_verification_document_needed'],
    ['suspended', 'customer_suspended'],
  ])('the retry ending in %s: %s', async (firstName, topic) => {
    const id = await h.createCustomer({ firstName: 'retry' });
    await h.api('POST', `/customers/${id}`, { json: retryBody({ firstName }) });
    expect((await h.topicsOf(id)).slice(2)).toEqual([topic]);
  });

  it('the document flow emits uploaded, then failed and needed, then approved and verified', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    await h.upload(id, 'fail.jpg');
    await h.sandbox.advanceClock(1);
    await h.upload(id, 'ok.jpg');
    await h.sandbox.advanceClock(1);
    expect(await h.topicsOf(id)).toEqual([
      'customer_created',
      'customer_verification_document_needed',
      'customer_verification_document_uploaded',
      'customer_verification_document_failed',
      'customer_verification_document_needed',
      'customer_verification_document_uploaded',
      'customer_verification_document_approved',
      'customer_verified',
    ]);
  });

  it('requests that change nothing emit nothing', async () => {
    const before = (await h.api('GET', '/events')).json.total;
    const id = await h.createCustomer();
    const after = (await h.api('GET', '/events')).json.total;
    await h.customer(id);
    await h.api('POST', '/customers', { json: person({ email: 'bad' }) });
    await h.api('POST', `/customers/${id}`, { json: retryBody() });
    expect(after - before).toBe(2);
    expect((await h.api('GET', '/events')).json.total).toBe(after);
  });
});

describe('the event resource', () => {
  it('{_links: self, account, resource, customer; id, created, timestamp, topic, resourceId}', async () => {
    const id = await h.createCustomer();
    const [event] = (await h.api('GET', '/events?limit=1')).json._embedded.events;
    expect(event).toEqual({
      _links: {
        self: expect.objectContaining({ href: `${h.base}/events/${event.id}` }),
        account: expect.objectContaining({
          href: expect.stringMatching(new RegExp(`^${h.base}/accounts/[0-9a-f-]{36}$`)),
        }),
        resource: expect.objectContaining({ href: `${h.base}/customers/${id}` }),
        customer: expect.objectContaining({ href: `${h.base}/customers/${id}` }),
      },
      id: expect.stringMatching(UUID),
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      timestamp: event.created,
      topic: 'customer_verified',
      resourceId: id,
    });
  });

  it('document events point their resource at the document', async () => {
    const id = await h.createCustomer({ firstName: 'document' });
    const location = String((await h.upload(id)).headers.location);
    const [event] = (await h.api('GET', '/events?limit=1')).json._embedded.events;
    expect(event._links.resource.href).toBe(location);
    expect(event.resourceId).toBe(location.split('/').at(-1));
    expect(event._links.customer.href).toBe(`${h.base}/customers/${id}`);
  });

  it('events carry no personal data', async () => {
    const input = person({ firstName: 'Personal', lastName: 'Secretive' });
    await h.createCustomer(input);
    const text = (await h.api('GET', '/events?limit=2')).text;
    for (const value of [input.firstName, input.lastName, input.email, input.address1, input.dateOfBirth]) {
      expect(text).not.toContain(String(value));
    }
  });
});

describe('GET /events and GET /events/{id}', () => {
  it('newest first, paginated with limit/offset', async () => {
    const all = (await h.api('GET', '/events?limit=200')).json;
    const created = all._embedded.events.map((e: { created: string }) => e.created);
    expect([...created].sort().reverse()).toEqual(created);
    const second = (await h.api('GET', '/events?limit=2&offset=2')).json;
    expect(second._embedded.events.map((e: { id: string }) => e.id)).toEqual(
      all._embedded.events.slice(2, 4).map((e: { id: string }) => e.id),
    );
    expect(second.total).toBe(all.total);
    expect(second._links.next.href).toBe(`${h.base}/events?limit=2&offset=4`);
    expect((await h.api('GET', '/events?limit=500')).status).toBe(400);
  });

  it('GET /events/{id} returns one; an unknown id is 404', async () => {
    const [event] = (await h.api('GET', '/events?limit=1')).json._embedded.events;
    expect((await h.api('GET', `/events/${event.id}`)).json).toEqual(event);
    const missing = await h.api('GET', `/events/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('NotFound');
  });

  it('events are kept 30 days', async () => {
    const own = await harness({ tokenTtlSeconds: 100 * 86_400 });
    try {
      await own.createCustomer();
      const [old] = (await own.api('GET', '/events?limit=1')).json._embedded.events;
      await own.sandbox.advanceClock(29 * 86_400);
      expect((await own.api('GET', `/events/${old.id}`)).status).toBe(200);
      await own.sandbox.advanceClock(86_400);
      expect((await own.api('GET', '/events')).json.total).toBe(0);
      expect((await own.api('GET', `/events/${old.id}`)).status).toBe(404);
    } finally {
      await own.close();
    }
  });
});
