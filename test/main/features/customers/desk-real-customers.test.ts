import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_REASONS } from '#contract/statuses.ts';
import {
  createOnService,
  type DeskHarness,
  everyFile,
  PERSON,
  removeDir,
  startDesk,
} from '#test/support/desk/desk-harness.ts';
import { type RealShape, realShape, realShapedSandbox } from '#test/support/desk/real-shaped-service.ts';

// Distinctive values only the stand-in service gives: finding one anywhere means it leaked.
const EXTRA = {
  address1: '4417 Quillfeather Crescent',
  address2: 'Flat Zeppelin-12',
  city: 'Brambleton Hollow',
  state: 'VT',
  postalCode: '05478-9921',
  phone: '8025550199',
  correlationId: 'corr-Marmoset-4410',
  favouriteColour: 'Vermilion-Gamboge',
};
const SECRET_VALUES = Object.entries(EXTRA)
  .filter(([field]) => field !== 'state')
  .map(([, value]) => value);

const leaksIn = (texts: string[]) =>
  SECRET_VALUES.filter((value) => texts.some((text) => text.includes(value)));

/** Customers as today's real service returns them, through the whole desk. */
describe('desk: customers shaped like the real service', () => {
  let h: DeskHarness;
  let shape: RealShape;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    shape = realShape(EXTRA);
    h = await startDesk(undefined, realShapedSandbox(shape));
    for (const name of ['retry', 'document', 'Kay', 'Dee', 'Una', 'Odd', 'Withheld', 'Docless']) {
      const status = name === 'Withheld' ? 'retry' : name === 'Docless' ? 'document' : name;
      ids[name] = await createOnService(h, status, `${name.toLowerCase()}@example.com`);
    }
    shape.status.set(ids.Kay!, 'kba');
    shape.status.set(ids.Dee!, 'deactivated');
    shape.status.set(ids.Una!, 'unverified');
    shape.status.set(ids.Odd!, 'zorbified');
    // In `retry`, but the service does not offer the retry.
    shape.withhold.set(ids.Withheld!, ['retry-verification']);
    shape.withhold.set(ids.Docless!, ['verify-with-document', 'document-form']);
    for (const id of Object.values(ids)) await h.call('customers.add', { ref: id });
    await h.call('customers.reconcile');
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it('puts kba, deactivated and unverified customers in their own sections, an unknown status in Other', async () => {
    const all = await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 50 });
    const sections = Object.fromEntries(all.rows.map((row) => [row.email.split('@')[0], row.section]));
    expect(sections).toMatchObject({
      kay: 'kba',
      dee: 'deactivated',
      una: 'unverified',
      odd: 'other',
      retry: 'retry',
      document: 'document',
    });
    expect(all.rows.find((row) => row.section === 'other')?.status).toBe('zorbified');
  });

  it('shows the fields the service reported by name only, masked, and reveals them with a reason', async () => {
    const detail = await h.call('customers.get', { id: ids.Kay! });
    expect(detail.reported?.map((field) => field.label)).toEqual([
      'Address line 1',
      'Address line 2',
      'City',
      'State',
      'Postal code',
      'Phone',
      'Correlation id',
      'favouriteColour',
    ]);
    expect(detail.personal).toBeNull();
    // Nothing the renderer has received so far, nor any event pushed to it, carries a value.
    expect(leaksIn([JSON.stringify(h.outputs), JSON.stringify(h.events)])).toEqual([]);

    const revealed = await h.call('customers.reveal', { id: ids.Kay!, reason: 'checking the address' });
    expect(revealed).toMatchObject({ ssnLastFour: null, dateOfBirth: null });
    expect(Object.fromEntries(revealed.reported.map(({ field, value }) => [field, value]))).toEqual(EXTRA);
  });

  it('keeps those values out of every file (journal and its WAL) and every log line', async () => {
    expect(leaksIn(everyFile(h.dataDir).map((bytes) => bytes.toString('latin1')))).toEqual([]);
    expect(leaksIn(h.logLines)).toEqual([]);
    expect(h.logLines.length).toBeGreaterThan(0);
  });

  it('offers only what the service offers, saying why before any request', async () => {
    const kba = await h.call('customers.get', { id: ids.Kay! });
    expect(kba.actions.retry).toEqual({ allowed: false, reason: expect.stringMatching(/knowledge-based/) });
    expect(kba.actions.upload.allowed).toBe(false);
    expect((await h.call('customers.get', { id: ids.Dee! })).actions.upload.reason).toMatch(/read-only/);
    expect((await h.call('customers.get', { id: ids.retry! })).actions.retry.allowed).toBe(true);
    expect((await h.call('customers.get', { id: ids.document! })).actions.upload.allowed).toBe(true);

    const withheld = await h.call('customers.get', { id: ids.Withheld! });
    expect(withheld.status).toBe('retry');
    expect(withheld.actions.retry).toEqual({ allowed: false, reason: ACTION_REASONS.retryNotOffered });

    const upload = (customerId: string) =>
      h.call('documents.upload', {
        customerId,
        uploadId: randomUUID(),
        documentType: 'passport',
        fileName: 'passport.png',
        bytesBase64: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64)]).toString(
          'base64',
        ),
      });
    const before = shape.received.length;
    const form = { ...PERSON, firstName: 'Withheld', email: 'withheld@example.com', tin: '123-45-6789' };
    await expect(
      h.call('retry.submit', { customerId: ids.Withheld!, form, confirmed: true }),
    ).rejects.toMatchObject({ code: 'RetryNotAllowed', message: ACTION_REASONS.retryNotOffered });
    await expect(upload(ids.Kay!)).rejects.toMatchObject({ code: 'InvalidResourceState' });
    expect((await h.call('customers.get', { id: ids.Docless! })).actions.upload).toEqual({
      allowed: false,
      reason: ACTION_REASONS.uploadNotOffered,
    });
    await expect(upload(ids.Docless!)).rejects.toMatchObject({
      code: 'ActionNotOffered',
      message: ACTION_REASONS.uploadNotOffered,
    });
    // Nothing but reads reached the customers: no retry, no document.
    const sent = shape.received.slice(before).filter((request) => request.path.startsWith('/customers'));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});
