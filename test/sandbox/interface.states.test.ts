import { describe, expect, it } from 'vitest';
import { retryBody } from './helpers.ts';
import { h, reviewed } from './interface.setup.ts';

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
