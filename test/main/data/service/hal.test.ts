import { describe, expect, it } from 'vitest';
import {
  customerPageSchema,
  customerSchema,
  deliverySchema,
  documentSchema,
  eventSchema,
  halLinks,
  idFromUrl,
  subscriptionSchema,
} from '#main/data/service/hal.ts';
import { multipartBody } from '#main/data/service/multipart.ts';

const base = 'https://api.example.com';
const customer = {
  _links: {
    self: {
      href: `${base}/customers/c1`,
      type: 'application/vnd.service.v1.hal+json',
      'resource-type': 'customer',
    },
    'funding-sources': { href: `${base}/customers/c1/funding-sources` },
  },
  id: 'c1',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@example.com',
  type: 'personal',
  status: 'verified',
  created: '2026-11-22T10:00:00.000Z',
};

describe('resource schemas', () => {
  it('carry unknown statuses, topics and fields through', () => {
    const parsed = customerSchema.parse({ ...customer, status: 'kba', businessName: 'new field' });
    expect(parsed.status).toBe('kba');
    expect(parsed.businessName).toBe('new field');
    expect(parsed._links['funding-sources']?.href).toBe(`${base}/customers/c1/funding-sources`);
    const event = eventSchema.parse({
      _links: {},
      id: 'e1',
      created: customer.created,
      timestamp: customer.created,
      topic: 'customer_beneficial_owner_created',
      resourceId: 'c1',
    });
    expect(event.topic).toBe('customer_beneficial_owner_created');
  });

  it('read links leniently: arrays, extra attributes, junk', () => {
    const links = halLinks.parse({
      self: { href: 'a', type: 't', 'resource-type': 'customer', title: 'x' },
      many: [{ href: 'b' }, { href: 'c' }],
      broken: { rel: 'no href' },
      odd: 42,
    });
    expect(links).toEqual({
      self: { href: 'a', type: 't', 'resource-type': 'customer', title: 'x' },
      many: { href: 'b' },
    });
    expect(halLinks.parse({ self: { href: 'a', type: 42 } })).toEqual({ self: { href: 'a' } });
    expect(halLinks.parse(undefined)).toEqual({});
    expect(halLinks.parse('junk')).toEqual({});
  });

  it('read a reviewed document with its failure reasons', () => {
    const doc = documentSchema.parse({
      _links: { self: { href: `${base}/documents/d1` } },
      id: 'd1',
      type: 'passport',
      status: 'reviewed',
      documentVerificationStatus: 'rejected',
      created: customer.created,
      failureReason: 'ScanNotReadable',
      allFailureReasons: [
        { reason: 'ScanNotReadable', description: 'Blurry' },
        { reason: 'ScanSomethingNew' },
      ],
    });
    expect(doc.allFailureReasons?.map((r) => r.reason)).toEqual(['ScanNotReadable', 'ScanSomethingNew']);
    expect(
      documentSchema.parse({ id: 'd2', type: 'license', status: 'pending', created: 'x' }).failureReason,
    ).toBeUndefined();
  });

  it('take a subscription that does not say as active', () => {
    const sub = subscriptionSchema.parse({
      id: 's1',
      url: 'https://hook.example/x',
      created: '2026-01-01T00:00:00+00:00',
    });
    expect(sub.paused).toBe(false);
  });

  it('read deliveries with and without attempts and responses', () => {
    const delivery = deliverySchema.parse({
      id: 'w1',
      topic: 'customer_created',
      eventId: 'e1',
      subscriptionId: 's1',
      attempts: [
        { id: 'a1', request: { timestamp: 't', url: 'u', headers: [{ name: 'X', value: 'y' }], body: '{}' } },
        {
          id: 'a2',
          request: { headers: {} },
          response: { timestamp: 't', headers: {}, statusCode: 200, body: '' },
        },
      ],
    });
    expect(delivery.attempts[1]?.response?.statusCode).toBe(200);
    expect(deliverySchema.parse({ id: 'w2', topic: 'x' }).attempts).toEqual([]);
  });

  it('read pages, empty ones included', () => {
    const page = customerPageSchema.parse({ _links: {}, _embedded: { customers: [customer] }, total: 1 });
    expect(page._embedded.customers[0]?.id).toBe('c1');
    expect(customerPageSchema.parse({ total: 0 })._embedded.customers).toEqual([]);
    expect(customerPageSchema.parse({ _embedded: {} })._embedded.customers).toEqual([]);
  });

  it('reject a resource without its identity', () => {
    expect(customerSchema.safeParse({ ...customer, id: undefined }).success).toBe(false);
  });

  it('take the id from a resource URL', () => {
    expect(idFromUrl(`${base}/customers/4f1c`)).toBe('4f1c');
    expect(idFromUrl(`${base}/documents/9a/`)).toBe('9a');
  });
});

describe('multipartBody', () => {
  const bytes = new Uint8Array(200_000).map((_, i) => i % 251);

  async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  it('is a form that a standard parser reads back', async () => {
    const form = multipartBody(
      { documentType: 'passport' },
      { name: 'file', fileName: 'pass"port\r\n.jpg', contentType: 'image/jpeg', bytes },
    );
    const body = await collect(form.stream());
    expect(body.byteLength).toBe(form.length);
    const parsed = await new Response(body, { headers: { 'Content-Type': form.contentType } }).formData();
    expect(parsed.get('documentType')).toBe('passport');
    const file = parsed.get('file') as File;
    // Escaped on the wire as browsers do, and read back intact by a standard parser.
    expect(file.name).toBe('pass"port\r\n.jpg');
    expect(file.type).toBe('image/jpeg');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it('reports progress up to the total, from zero on every fresh stream', async () => {
    const form = multipartBody(
      { documentType: 'license' },
      { name: 'file', fileName: 'a.png', contentType: 'image/png', bytes },
    );
    for (let round = 0; round < 2; round++) {
      const progress: [number, number][] = [];
      await collect(form.stream((sent, total) => progress.push([sent, total])));
      expect(progress.length).toBeGreaterThan(2);
      expect(progress.every(([, total]) => total === form.length)).toBe(true);
      expect(progress.map(([sent]) => sent)).toEqual(
        [...progress.map(([sent]) => sent)].sort((a, b) => a - b),
      );
      expect(progress.at(-1)).toEqual([form.length, form.length]);
    }
  });
});
