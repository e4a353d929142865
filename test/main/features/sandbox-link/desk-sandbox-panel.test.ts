import { describe, expect, it } from 'vitest';
import { FINISH_REVIEWS_SECONDS } from '#main/features/sandbox-link/panel.ts';
import { createOnService, deskForSuite } from '#test/support/desk/desk-harness.ts';

/** A PNG as far as the sandbox looks (its first bytes); "fail" in the name has its review reject it. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('desk: event detail and the Sandbox panel', () => {
  const desk = deskForSuite();

  it('opens an event with its delivery, its payload as the service sent it, and a rejection’s reason', async () => {
    const h = desk();
    const id = await createOnService(h, 'document', 'rejected@example.com');
    const client = h.desk.connection().client();
    await client.documents.upload(id, {
      documentType: 'passport',
      fileName: 'passport-blurry-fail.png',
      contentType: 'image/png',
      bytes: PNG,
    });
    const before = await h.call('sandbox.panel');
    const after = await h.call('sandbox.finishReviews');
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(
      FINISH_REVIEWS_SECONDS * 1000,
    );
    // The webhook may still be on its way: catching up records the event either way.
    await h.call('webhooks.catchUp');
    const { rows } = await h.call('events.window', {
      topic: 'customer_verification_document_failed',
      offset: 0,
      limit: 10,
    });
    expect(rows).toHaveLength(1);
    const detail = await h.call('events.detail', { id: rows[0]!.id });
    expect(detail).toMatchObject({
      deliveryId: rows[0]!.id,
      reason: 'The photo could not be read',
      payloadProblem: null,
    });
    // Delivered signed or fetched by the catch-up, whichever came first: either way the journal's row.
    expect(detail.event).toMatchObject({ id: rows[0]!.id, customerId: id });
    expect(JSON.parse(detail.payload!)).toMatchObject({
      id: rows[0]!.id,
      topic: 'customer_verification_document_failed',
    });
    // Indented for reading, not one long line.
    expect(detail.payload).toContain('\n  "');
  });

  it('refuses an event it never received', async () => {
    const h = desk();
    await expect(h.call('events.detail', { id: 'no-such-event' })).rejects.toMatchObject({
      code: 'NotFound',
    });
  });

  it('shows the sandbox’s address and a ready curl command, and injects and clears a fault', async () => {
    const h = desk();
    const sandbox = h.desk.connection().sandbox!;
    const panel = await h.call('sandbox.panel');
    expect(panel).toMatchObject({ baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, fault: null });
    expect(panel.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(panel.curl).toContain(`${sandbox.baseUrl}/oauth/v2/token`);

    const faulty = await h.call('sandbox.setFault', { kind: '503', rate: 1 });
    expect(faulty.fault).toEqual({ kind: '503', rate: 1 });
    await expect(h.desk.connection().client().customers.get(sandbox.clientId)).rejects.toMatchObject({
      status: 503,
    });
    expect((await h.call('sandbox.setFault', { kind: null })).fault).toBeNull();
  });

  it('refuses every sandbox control, in words, once Vetted is on another service', async () => {
    const h = desk();
    await h.call('settings.update', { serviceMode: 'custom' });
    for (const call of [
      () => h.call('sandbox.panel'),
      () => h.call('sandbox.finishReviews'),
      () => h.call('sandbox.setFault', { kind: '500' }),
    ]) {
      await expect(call()).rejects.toMatchObject({
        code: 'NotSandbox',
        message: expect.stringMatching(/built-in sandbox/),
      });
    }
    await h.call('settings.update', { serviceMode: 'sandbox' });
  });

  it('refuses a fault the sandbox does not know, before main acts', async () => {
    const h = desk();
    // @ts-expect-error: not a fault kind of the contract
    await expect(h.call('sandbox.setFault', { kind: 'meteor' })).rejects.toMatchObject({ code: 'BadInput' });
  });
});
