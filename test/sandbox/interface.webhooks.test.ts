import { describe, expect, it } from 'vitest';
import { hmacHex } from './helpers.ts';
import { h, hooks, reviewed } from './interface.setup.ts';

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
