import { describe, expect, it } from 'vitest';
import { MINUTE, manualClock, openTestJournal, serviceCustomer, WITHOUT_REPLICA } from './helpers.ts';

async function setup() {
  const time = manualClock();
  const journal = await openTestJournal({ clock: time.clock });
  return { time, journal };
}

describe('customers in the journal', () => {
  it('records a new customer from the service, and its first status in the history', async () => {
    const { time, journal } = await setup();
    const customer = serviceCustomer({ id: 'c-1', firstName: 'Ada', lastName: 'Lovelace', status: 'retry' });
    const result = await journal.customers.upsert(customer, { source: 'created' });

    expect(result).toMatchObject({ isNew: true, statusChanged: true });
    expect(result.customer).toEqual({
      id: 'c-1',
      url: 'https://api.service.test/customers/c-1',
      name: 'Ada Lovelace',
      email: 'c-1@example.com',
      type: 'personal',
      status: 'retry',
      section: 'retry',
      statusSince: customer.created,
      created: customer.created,
      lastRefreshed: time.iso(),
      links: customer._links,
      goneAt: null,
      pendingDocuments: 0,
      note: null,
      changedAt: customer.created,
    });
    expect(await journal.customers.history('c-1')).toEqual([
      { status: 'retry', at: customer.created, source: 'created', eventId: null },
    ]);
  });

  it('refreshes a customer whose status did not change without touching its history or waiting time', async () => {
    const { time, journal } = await setup();
    await journal.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'created' });
    time.advance(5 * MINUTE);
    const result = await journal.customers.upsert(serviceCustomer({ id: 'c-1', email: 'new@example.com' }), {
      source: 'poll',
    });

    expect(result).toMatchObject({ isNew: false, statusChanged: false });
    expect(result.customer).toMatchObject({ email: 'new@example.com', lastRefreshed: time.iso() });
    expect(result.customer.statusSince).toBe('2026-02-01T08:00:00.000Z');
    expect(await journal.customers.history('c-1')).toHaveLength(1);
  });

  it.skipIf(WITHOUT_REPLICA)(
    'records each status change with its time, source and event, and moves the customer between sections',
    async () => {
      const { time, journal } = await setup();
      await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), { source: 'created' });
      time.advance(MINUTE);
      const eventTime = '2026-03-01T08:59:30.000Z';
      const byEvent = await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'document' }), {
        source: 'event',
        eventId: 'ev-7',
        at: eventTime,
      });
      expect(byEvent).toMatchObject({
        statusChanged: true,
        customer: { section: 'document', statusSince: eventTime },
      });
      time.advance(MINUTE);
      const byPoll = await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'verified' }), {
        source: 'poll',
      });
      expect(byPoll.customer).toMatchObject({ section: 'verified', statusSince: time.iso() });

      expect(await journal.customers.history('c-1')).toEqual([
        { status: 'retry', at: '2026-02-01T08:00:00.000Z', source: 'created', eventId: null },
        { status: 'document', at: eventTime, source: 'event', eventId: 'ev-7' },
        { status: 'verified', at: time.iso(), source: 'poll', eventId: null },
      ]);
      const { counts } = await journal.queue.window({ section: 'all', search: '', offset: 0, limit: 10 });
      expect(counts).toMatchObject({ retry: 0, document: 0, verified: 1 });
    },
  );

  it('never moves the waiting time back for a late event', async () => {
    const { time, journal } = await setup();
    await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'document' }), {
      source: 'poll',
      at: '2026-03-01T08:00:00.000Z',
    });
    time.advance(MINUTE);
    const late = await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'suspended' }), {
      source: 'event',
      eventId: 'ev-old',
      at: '2026-03-01T07:00:00.000Z',
    });
    expect(late.customer.statusSince).toBe('2026-03-01T08:00:00.000Z');
    expect((await journal.customers.history('c-1')).at(-1)).toMatchObject({
      status: 'suspended',
      at: '2026-03-01T07:00:00.000Z',
    });
  });

  it('keeps a status it does not know, by name, in "other"', async () => {
    const { journal } = await setup();
    const { customer } = await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'frozen' }), {
      source: 'poll',
    });
    expect(customer).toMatchObject({ status: 'frozen', section: 'other' });
  });

  it.skipIf(WITHOUT_REPLICA)(
    'gives the real service’s statuses kba, unverified and deactivated sections of their own',
    async () => {
      const { journal } = await setup();
      for (const status of ['kba', 'unverified', 'deactivated']) {
        const { customer } = await journal.customers.upsert(serviceCustomer({ id: status, status }), {
          source: 'poll',
        });
        expect(customer.section).toBe(status);
      }
      const { counts } = await journal.queue.window({ section: 'all', search: '', offset: 0, limit: 10 });
      expect(counts).toMatchObject({ kba: 1, unverified: 1, deactivated: 1, other: 0 });
    },
  );

  it.skipIf(WITHOUT_REPLICA)(
    'marks a customer the service no longer knows as gone, keeps it, and revives it if it answers again',
    async () => {
      const { time, journal } = await setup();
      await journal.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'created' });
      time.advance(MINUTE);
      const goneAt = time.iso();
      expect(await journal.customers.markGone('c-1')).toMatchObject({ goneAt, status: 'verified' });
      time.advance(MINUTE);
      expect((await journal.customers.markGone('c-1'))?.goneAt).toBe(goneAt);
      expect(await journal.customers.markGone('unknown')).toBeUndefined();

      const window = await journal.queue.window({ section: 'verified', search: '', offset: 0, limit: 10 });
      expect(window.rows).toMatchObject([{ id: 'c-1', gone: true }]);
      expect(await journal.customers.toReconcile()).toEqual([]);

      const back = await journal.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'poll' });
      expect(back.customer.goneAt).toBeNull();
    },
  );

  it('puts a document customer with documents waiting in "Document in review", with a note', async () => {
    const { journal } = await setup();
    await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'document' }), { source: 'poll' });
    expect((await journal.customers.setDocuments('c-1', { pending: 1, note: null }))?.section).toBe('review');
    const rejected = await journal.customers.setDocuments('c-1', { pending: 0, note: 'ScanNotReadable' });
    expect(rejected).toMatchObject({ section: 'document', pendingDocuments: 0, note: 'ScanNotReadable' });
    expect(await journal.customers.setDocuments('unknown', { pending: 1, note: null })).toBeUndefined();
    // Pending documents no longer matter once verified.
    await journal.customers.setDocuments('c-1', { pending: 2, note: null });
    const verified = await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'verified' }), {
      source: 'poll',
    });
    expect(verified.customer.section).toBe('verified');
  });

  it('lists the customers to reconcile at start-up: not final, not gone, longest waiting first', async () => {
    const { time, journal } = await setup();
    for (const [id, status] of [
      ['a', 'verified'],
      ['b', 'retry'],
      ['c', 'suspended'],
      ['d', 'document'],
      ['e', 'unverified'],
      ['f', 'kba'],
      ['g', 'deactivated'],
      ['h', 'frozen'],
    ] as const) {
      await journal.customers.upsert(serviceCustomer({ id, status }), { source: 'poll', at: time.iso() });
      time.advance(MINUTE);
    }
    expect(await journal.customers.toReconcile()).toEqual(['b', 'd', 'e', 'f', 'h']);
  });

  it('writes a customer and its history atomically, and rolls a failed transaction back', async () => {
    const { journal } = await setup();
    await expect(
      journal.transaction(async (tx) => {
        await tx.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'created' });
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(await journal.customers.get('c-1')).toBeUndefined();
    expect(await journal.customers.history('c-1')).toEqual([]);
    expect((await journal.queue.window({ section: 'all', search: '', offset: 0, limit: 1 })).total).toBe(0);
  });
});
