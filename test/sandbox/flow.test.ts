import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Harness,
  harness,
  hmacHex,
  idOf,
  person,
  type Receiver,
  receiver,
  retryBody,
  subscribe,
} from './helpers.ts';

/**
 * The typical flow of service-interface.md §1, end to end over HTTP: subscribe, create, read,
 * retry, upload, review — to approved, to failed and approved, and to fraud.
 */
const SECRET = 'flow-secret-0123456789';
let h: Harness;
let hooks: Receiver;
beforeAll(async () => {
  h = await harness({ reviewDelayMs: 120_000 });
  hooks = await receiver(200);
  await subscribe(h, hooks.url, SECRET);
});
afterAll(async () => {
  await h.close();
  await hooks.close();
});

/** Topics delivered so far about one customer, each checked against its signature; in event order. */
async function deliveredTopics(customerId: string): Promise<string[]> {
  await h.sandbox.advanceClock(0);
  const mine = hooks.received.filter(
    (w) => w.event._links.customer.href === `${h.base}/customers/${customerId}`,
  );
  for (const webhook of mine) {
    expect(webhook.headers['x-request-signature-sha-256']).toBe(hmacHex(SECRET, webhook.raw));
  }
  // Webhooks may arrive in any order; the event list has the order in which things happened.
  const delivered = new Set(mine.map((w) => w.event.id as string));
  const events = (await h.api('GET', '/events?limit=200')).json._embedded.events as {
    id: string;
    topic: string;
  }[];
  return events
    .filter((event) => delivered.has(event.id))
    .map((event) => event.topic)
    .reverse();
}

async function statusOf(id: string): Promise<string> {
  const res = await h.customer(id);
  expect(res.status).toBe(200);
  return res.json.status;
}

async function toDocument(): Promise<string> {
  const input = person({ firstName: 'retry' });
  const created = await h.api('POST', '/customers', { json: input });
  expect(created.status).toBe(201);
  const id = idOf(created.headers.location);
  expect(await statusOf(id)).toBe('retry');
  const retried = await h.api('POST', `/customers/${id}`, {
    json: { ...input, firstName: 'document', tin: '123-45-6789' },
  });
  expect(retried.status).toBe(200);
  expect(retried.json.status).toBe('document');
  return id;
}

async function uploadAndReview(id: string, fileName: string): Promise<{ location: string }> {
  const res = await h.upload(id, fileName);
  expect(res.status).toBe(201);
  const location = String(res.headers.location);
  expect((await h.api('GET', location)).json.documentVerificationStatus).toBe('pending');
  await h.sandbox.advanceClock(120);
  return { location };
}

describe('create → retry → document → …', () => {
  it('… approved: the customer is verified', async () => {
    const id = await toDocument();
    const { location } = await uploadAndReview(id, 'passport.jpg');
    expect((await h.api('GET', location)).json).toMatchObject({
      status: 'reviewed',
      documentVerificationStatus: 'accepted',
    });
    expect(await statusOf(id)).toBe('verified');
    expect(await deliveredTopics(id)).toEqual([
      'customer_created',
      'customer_reverification_needed',
      'customer_verification_document_needed',
      'customer_verification_document_uploaded',
      'customer_verification_document_approved',
      'customer_verified',
    ]);
  });

  it('… failed, then another upload approved', async () => {
    const id = await toDocument();
    const rejected = await uploadAndReview(id, 'scan-fail.jpg');
    expect((await h.api('GET', rejected.location)).json).toMatchObject({
      documentVerificationStatus: 'rejected',
      failureReason: 'ScanNotReadable',
    });
    expect(await statusOf(id)).toBe('document');
    await uploadAndReview(id, 'scan-retake.jpg');
    expect(await statusOf(id)).toBe('verified');
    expect(await deliveredTopics(id)).toEqual([
      'customer_created',
      'customer_reverification_needed',
      'customer_verification_document_needed',
      'customer_verification_document_uploaded',
      'customer_verification_document_failed',
      'customer_verification_document_needed',
      'customer_verification_document_uploaded',
      'customer_verification_document_approved',
      'customer_verified',
    ]);
    const documents = (await h.api('GET', `/customers/${id}/documents`)).json;
    expect(documents.total).toBe(2);
  });

  it('… fraud: the customer is suspended for good', async () => {
    const id = await toDocument();
    await uploadAndReview(id, 'fraud.jpg');
    expect(await statusOf(id)).toBe('suspended');
    expect((await h.upload(id)).status).toBe(403);
    expect((await h.api('POST', `/customers/${id}`, { json: retryBody() })).status).toBe(403);
    expect((await deliveredTopics(id)).at(-1)).toBe('customer_suspended');
  });

  it('the retry straight to verified and to suspended', async () => {
    const verified = await h.createCustomer({ firstName: 'retry' });
    await h.api('POST', `/customers/${verified}`, { json: retryBody() });
    expect(await deliveredTopics(verified)).toEqual([
      'customer_created',
      'customer_reverification_needed',
      'customer_verified',
    ]);
    const suspended = await h.createCustomer({ firstName: 'retry' });
    await h.api('POST', `/customers/${suspended}`, { json: retryBody({ firstName: 'suspended' }) });
    expect((await deliveredTopics(suspended)).at(-1)).toBe('customer_suspended');
  });
});
