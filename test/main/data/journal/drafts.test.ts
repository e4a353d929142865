import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError, ServiceError, TokenError } from '#main/data/service/index.ts';
import { customerBody, personalData } from '#main/features/drafts/form.ts';
import {
  classifyFailure,
  DEFAULT_BACKOFF,
  isEditable,
  resendDelayMs,
} from '#main/features/drafts/outbox/index.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { MINUTE, manualClock, openTestJournal, serviceCustomer, WITHOUT_REPLICA } from './helpers.ts';

/** What the outbox keeps in the journal (migration 4 and its repository functions), and its pure parts. */

describe('journal: drafts for the outbox', () => {
  it('saves a form, moving "updated" and the name and e-mail the queue shows', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock });
    const { id } = await journal.drafts.insert({ form: {} });
    time.advance(MINUTE);
    const savedAt = await journal.drafts.saveForm(id, {
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'ada@x.example',
    });
    expect(savedAt).toBe(time.iso());
    expect(await journal.drafts.summary(id)).toMatchObject({
      name: 'Ada Byron',
      email: 'ada@x.example',
      updated: savedAt,
    });
    expect(await journal.drafts.saveForm('nope', {})).toBeUndefined();
  });

  it('moves "updated" on a state change only, not on a rescheduled retry', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock });
    const { id, updated } = await journal.drafts.insert({ form: {}, state: 'queued' });
    time.advance(MINUTE);
    await journal.drafts.update(id, { attempts: 2, nextAttemptAt: time.iso(), lastError: 'offline' });
    expect(await journal.drafts.summary(id)).toMatchObject({ updated, attempts: 2, lastError: 'offline' });
    await journal.drafts.update(id, { state: 'rejected', fieldErrors: { '/email': 'Fix it.' } });
    expect(await journal.drafts.summary(id)).toMatchObject({
      state: 'rejected',
      updated: time.iso(),
      fieldErrors: { '/email': 'Fix it.' },
    });
  });

  it('lists due drafts never tried first, then by waiting time, and the next retry', async () => {
    const time = manualClock();
    const journal = await openTestJournal({ clock: time.clock });
    const later = (await journal.drafts.insert({ form: {}, state: 'queued' })).id;
    time.advance(MINUTE);
    const fresh = (await journal.drafts.insert({ form: {}, state: 'queued' })).id;
    await journal.drafts.insert({ form: {}, state: 'draft' });
    const inAnHour = new Date(Date.parse(time.iso()) + 60 * MINUTE).toISOString();
    await journal.drafts.update(later, { nextAttemptAt: inAnHour });
    expect(await journal.drafts.due(time.iso(), 10)).toEqual([fresh]);
    expect(await journal.drafts.nextAttemptAfter(time.iso())).toBe(inAnHour);
    await journal.drafts.clearBackoff();
    expect(await journal.drafts.due(time.iso(), 10)).toEqual([later, fresh]);
    expect(await journal.drafts.countByState()).toEqual({
      draft: 1,
      queued: 2,
      sending: 0,
      created: 0,
      rejected: 0,
      attention: 0,
    });
  });

  it.skipIf(WITHOUT_REPLICA)(
    'requeues drafts left sending and finds created drafts whose customer is not recorded',
    async () => {
      const journal = await openTestJournal();
      const sending = (await journal.drafts.insert({ form: {}, state: 'sending' })).id;
      await journal.drafts.requeueSending();
      expect((await journal.drafts.summary(sending))?.state).toBe('queued');

      const created = (await journal.drafts.insert({ form: validForm(), state: 'created' })).id;
      await journal.drafts.update(created, { customerId: 'c-1' });
      expect(await journal.drafts.createdWithoutCustomer()).toEqual([{ id: created, customerId: 'c-1' }]);
      await journal.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'created' });
      expect(await journal.drafts.createdWithoutCustomer()).toEqual([]);
      expect((await journal.drafts.byCustomer('c-1'))?.id).toBe(created);
    },
  );

  it('removes a draft with its outbox entry', async () => {
    const journal = await openTestJournal();
    const { id } = await journal.drafts.insert({ form: validForm() });
    await journal.outbox.ensureKey(id);
    expect(await journal.drafts.remove(id)).toBe(true);
    expect(await journal.drafts.get(id)).toBeUndefined();
    expect(await journal.outbox.get(id)).toBeUndefined();
  });

  it('records attempts, rotates a key, and assumes queued drafts were sent after a restart', async () => {
    const journal = await openTestJournal();
    const { id } = await journal.drafts.insert({ form: {}, state: 'queued' });
    const first = await journal.outbox.ensureKey(id);
    expect(first).toMatchObject({ attempts: 0, maybeCreated: false, duplicateOf: null });
    await journal.outbox.recordAttempt(id, { maybeCreated: false, duplicateOf: 'c-9' });
    expect(await journal.outbox.get(id)).toMatchObject({ attempts: 1, duplicateOf: 'c-9' });
    await journal.outbox.assumeQueuedSent();
    expect((await journal.outbox.get(id))?.maybeCreated).toBe(true);
    const rotated = await journal.outbox.rotateKey(id);
    expect(rotated.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(rotated).toMatchObject({ attempts: 0, maybeCreated: false, duplicateOf: null });
  });

  it.skipIf(WITHOUT_REPLICA)('releases a retry the service refused without acting on it', async () => {
    const journal = await openTestJournal();
    await journal.customers.upsert(serviceCustomer({ id: 'c-2', status: 'retry' }), { source: 'poll' });
    await journal.retries.record('c-2', null);
    await journal.retries.release('c-2');
    expect(await journal.retries.get('c-2')).toBeUndefined();
  });
});

describe('outbox: pure parts', () => {
  it('sends the form as typed, blank fields left out, and keeps only the last four SSN digits', async () => {
    const form = validForm({ address2: '  ', ipAddress: '', tin: '123-45-6789' });
    const body = customerBody(form);
    expect(body).not.toHaveProperty('address2');
    expect(body).not.toHaveProperty('ipAddress');
    expect(body.firstName).toBe(form.firstName);
    expect(personalData(form)).toEqual({
      address: { address1: form.address1, city: form.city, state: form.state, postalCode: form.postalCode },
      dateOfBirth: form.dateOfBirth,
      ssnLastFour: '6789',
    });
  });

  it('backs off exponentially with jitter, within bounds, never at zero', async () => {
    expect(resendDelayMs(1, DEFAULT_BACKOFF, () => 0)).toBe(500);
    expect(resendDelayMs(1, DEFAULT_BACKOFF, () => 1)).toBe(1_000);
    expect(resendDelayMs(3, DEFAULT_BACKOFF, () => 0.5)).toBe(3_000);
    expect(resendDelayMs(40, DEFAULT_BACKOFF, () => 1)).toBe(60_000);
  });

  it('sorts failures: retry later, rejected on the form, or attention', async () => {
    expect(classifyFailure(new NetworkError('reset')).kind).toBe('retry');
    expect(
      classifyFailure(new ServiceError({ status: 503, code: 'ServiceUnavailable', message: '' })).kind,
    ).toBe('retry');
    expect(classifyFailure(new ServiceError({ status: 409, code: 'Conflict', message: '' })).kind).toBe(
      'retry',
    );
    expect(classifyFailure(new ServiceError({ status: 401, code: 'invalid_client', message: '' })).kind).toBe(
      'retry',
    );
    // No token (whatever the token endpoint said) and a rate limit: nothing was created, the draft waits.
    const noToken = new TokenError(new ServiceError({ status: 404, code: 'notFound', message: '' }));
    expect(classifyFailure(noToken).kind).toBe('retry');
    expect(
      classifyFailure(new ServiceError({ status: 429, code: 'TooManyRequests', message: '' })).kind,
    ).toBe('retry');
    expect(classifyFailure(new RateLimitedError(Date.now() + 60_000, Date.now())).kind).toBe('retry');
    const rejected = classifyFailure(
      new ServiceError({
        status: 400,
        code: 'ValidationError',
        message: '',
        fields: [
          { path: '/postalCode', code: 'InvalidFormat', message: 'PostalCode invalid.' },
          { path: '/nickname', code: 'NotAllowed', message: 'Unknown field.' },
        ],
      }),
    );
    expect(rejected).toMatchObject({
      kind: 'rejected',
      fields: {
        '/postalCode': expect.stringMatching(/^PostalCode invalid\. Enter a US ZIP/),
        '/': 'Unknown field.',
      },
      duplicateOf: null,
    });
    const keyReused = classifyFailure(
      new ServiceError({
        status: 400,
        code: 'ValidationError',
        message: '',
        fields: [{ path: '/', code: 'Invalid', message: 'Idempotency-Key was already used.' }],
      }),
    );
    expect(keyReused).toMatchObject({ kind: 'attention', processed: true });
    expect(classifyFailure(new ServiceError({ status: 403, code: 'Forbidden', message: '' }))).toMatchObject({
      kind: 'attention',
      processed: false,
    });
    expect(classifyFailure(new TypeError('bug'))).toMatchObject({ kind: 'attention', processed: true });
  });

  it('lets a draft change only while nothing can have been created from it', async () => {
    const entry = (maybeCreated: boolean) => ({
      draftId: 'd',
      idempotencyKey: 'k',
      keyCreatedAt: '',
      attempts: 1,
      maybeCreated,
      duplicateOf: null,
    });
    expect(isEditable('draft', undefined)).toBe(true);
    expect(isEditable('rejected', entry(false))).toBe(true);
    expect(isEditable('attention', entry(false))).toBe(true);
    expect(isEditable('attention', entry(true))).toBe(false);
    expect(isEditable('queued', entry(false))).toBe(false);
    expect(isEditable('created', entry(false))).toBe(false);
  });
});
