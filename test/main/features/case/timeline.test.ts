import { describe, expect, it } from 'vitest';
import { customerTimeline } from '#main/features/case/timeline.ts';
import { MINUTE, manualClock, openTestJournal, serviceCustomer } from '#test/main/data/journal/helpers.ts';

const ID = '00000000-0000-4000-8000-0000000000aa';

describe('the customer timeline', () => {
  it('tells everything about a customer in words, newest first, with who and when', async () => {
    const time = manualClock('2026-03-01T09:00:00.000Z');
    const journal = await openTestJournal({ clock: time.clock, actor: 'ada' });
    await journal.customers.upsert(serviceCustomer({ id: ID, firstName: 'document', status: 'document' }), {
      source: 'created',
    });
    time.advance(MINUTE);
    await journal.audit.record({
      action: 'document.upload',
      customerId: ID,
      outcome: 'ok',
      detail: 'passport d-1',
    });
    await journal.events.record({
      id: 'ev-upload',
      topic: 'customer_verification_document_uploaded',
      resourceId: 'd-1',
      customerId: ID,
      created: '2026-03-01T09:01:30.000Z',
      signatureVerified: true,
    });
    await journal.events.record({
      id: 'ev-failed',
      topic: 'customer_verification_document_failed',
      resourceId: 'd-1',
      customerId: ID,
      created: '2026-03-01T09:02:00.000Z',
      signatureVerified: true,
    });
    await journal.customers.setDocuments(ID, { pending: 0, note: 'Document rejected: photo not readable' });
    time.advance(2 * MINUTE);
    await journal.audit.record({
      action: 'personal.reveal',
      customerId: ID,
      outcome: 'ok',
      detail: 'checking the address',
    });
    await journal.events.record({
      id: 'ev-verified',
      topic: 'customer_verified',
      resourceId: ID,
      customerId: ID,
      created: '2026-03-01T09:04:00.000Z',
      signatureVerified: true,
    });
    await journal.customers.upsert(serviceCustomer({ id: ID, firstName: 'document', status: 'verified' }), {
      source: 'event',
      eventId: 'ev-verified',
      at: '2026-03-01T09:04:00.000Z',
    });
    time.advance(2 * MINUTE);
    await journal.notes.add({ customerId: ID, text: 'All good now.' });
    await journal.audit.record({ action: 'note.add', customerId: ID, outcome: 'ok', detail: 'note 1' });

    const { entries, hasOlder } = await customerTimeline(journal, ID, 50);
    expect(hasOlder).toBe(false);
    expect(entries.map(({ title, who, detail }) => [title, who, detail])).toEqual([
      ['Note', 'ada', 'All good now.'],
      // The event that reported the status is its cause, not an entry of its own.
      ['Status: Verified', 'The service', 'Reported by the service: Customer verified'],
      ['Personal data revealed', 'ada', 'Reason: checking the address'],
      ['Document rejected: photo not readable', 'The service', null],
      ['Document uploaded', 'The service', null],
      ['Document uploaded', 'ada', 'Done · passport d-1'],
      ['Status: Needs document', 'This desk', 'Created from this desk'],
    ]);
    expect(entries.find((entry) => entry.title === 'Status: Verified')?.eventId).toBe('ev-verified');
    expect(entries.map((entry) => entry.kind)).toEqual([
      'note',
      'status',
      'reveal',
      'event',
      'event',
      'document',
      'status',
    ]);

    const capped = await customerTimeline(journal, ID, 3);
    expect(capped.entries.map((entry) => entry.title)).toEqual([
      'Note',
      'Status: Verified',
      'Personal data revealed',
    ]);
    expect(capped.hasOlder).toBe(true);
  });
});
