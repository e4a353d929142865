import { describe, expect, it, vi } from 'vitest';
import type { TimelineEntry } from '#contract/case.ts';
import { deferred, fakeApi, installFresh, settle } from './fake-api.ts';
import { queueRow } from './queue-rows.ts';

const entry = (key: string): TimelineEntry => ({
  key,
  kind: 'note',
  at: '2026-03-01T09:00:00.000Z',
  who: 'ada',
  title: 'Note',
  detail: key,
  eventId: null,
});

async function caseStore() {
  const timeline = vi.fn(async ({ limit }: { id: string; limit: number }) => ({
    entries: Array.from({ length: Math.min(limit, 70) }, (_, i) => entry(`e${i}`)),
    hasOlder: limit < 70,
  }));
  const stored = vi.fn(async () => []);
  const add = vi.fn(async ({ customerId, text }: { customerId: string; text: string }) => ({
    customerId,
    text,
    at: '2026-03-01T09:00:00.000Z',
    author: 'ada',
  }));
  const fake = fakeApi({ customers: { timeline }, documents: { stored }, notes: { add } });
  await installFresh(fake);
  const { useCaseStore } = await import('#renderer/shared/case/case-store.ts');
  return { fake, timeline, add, store: useCaseStore };
}

describe('case store', () => {
  it('opens a case with its newest page of timeline, and shows older on request', async () => {
    const { store, timeline } = await caseStore();
    await store.getState().open('c1');
    expect(store.getState().timeline).toHaveLength(50);
    expect(store.getState().hasOlder).toBe(true);
    await store.getState().showOlder();
    expect(timeline).toHaveBeenLastCalledWith({ id: 'c1', limit: 100 });
    expect(store.getState().timeline).toHaveLength(70);
    expect(store.getState().hasOlder).toBe(false);
  });

  it('drops a timeline that answers for a case no longer on screen', async () => {
    const { store, timeline } = await caseStore();
    const late = deferred<{ entries: TimelineEntry[]; hasOlder: boolean }>();
    timeline.mockImplementationOnce(() => late.promise);
    const first = store.getState().open('c1');
    await store.getState().open('c2');
    late.resolve({ entries: [entry('from c1')], hasOlder: false });
    await first;
    expect(store.getState().id).toBe('c2');
    expect(store.getState().timeline.map((item) => item.key)).not.toContain('from c1');
  });

  it('saves a note, says so, and reads the timeline again', async () => {
    const { store, add, timeline } = await caseStore();
    await store.getState().open('c1');
    await store.getState().addNote('Called back.');
    expect(add).toHaveBeenCalledWith({ customerId: 'c1', text: 'Called back.' });
    expect(store.getState().announcement).toBe('Note saved.');
    expect(timeline).toHaveBeenCalledTimes(2);
    // The same words again still differ, so a screen reader says them again.
    store.getState().announce('Note saved.');
    expect(store.getState().announcement).not.toBe('Note saved.');
    expect(store.getState().announcement.trim()).toBe('Note saved.');
  });

  it('follows main’s changes to the case on screen only, while watched', async () => {
    const { store, fake, timeline } = await caseStore();
    await store.getState().open('c1');
    const stop = store.getState().watch();
    fake.push('customer.updated', queueRow('c2', 'verified', 1));
    await settle();
    expect(timeline).toHaveBeenCalledTimes(1);
    fake.push('customer.updated', queueRow('c1', 'verified', 1));
    await settle();
    expect(timeline).toHaveBeenCalledTimes(2);
    fake.push('event.received', {
      id: 'ev-1',
      topic: 'customer_verification_document_uploaded',
      customerId: 'c1',
      customerName: null,
      resourceId: 'd-1',
      created: '2026-03-01T09:00:00.000Z',
      receivedAt: '2026-03-01T09:00:01.000Z',
      signatureVerified: true,
      duplicatesSeen: 0,
      processed: true,
    });
    await settle();
    expect(timeline).toHaveBeenCalledTimes(3);
    stop();
    expect(fake.listeners('customer.updated')).toBe(0);
    expect(fake.listeners('event.received')).toBe(0);
  });
});

describe('audit filter', () => {
  it('sends only what is set, with the day range in local time and the last day included', async () => {
    await installFresh(fakeApi());
    const { filterOf } = await import('#renderer/features/audit/audit-store.ts');
    expect(filterOf({ actor: '', action: '', customerId: '  ', fromDay: '', toDay: '' })).toEqual({});
    const filter = filterOf({
      actor: 'ada',
      action: 'note.add',
      customerId: ' c1 ',
      fromDay: '2026-03-01',
      toDay: '2026-03-02',
    });
    expect(filter).toEqual({
      actor: 'ada',
      action: 'note.add',
      customerId: 'c1',
      from: new Date(2026, 2, 1).toISOString(),
      to: new Date(2026, 2, 3).toISOString(),
    });
  });

  it('loads a window of the log for the filter, and starts again when the filter changes', async () => {
    const window = vi.fn(async () => ({ rows: [], total: 0, actors: ['ada'], actions: [] }));
    await installFresh(fakeApi({ audit: { window } }));
    const { useAuditStore } = await import('#renderer/features/audit/audit-store.ts');
    useAuditStore.getState().showRange({ start: 0, end: 10 });
    await settle();
    expect(useAuditStore.getState().total).toBe(0);
    expect(useAuditStore.getState().actors).toEqual(['ada']);
    useAuditStore.getState().setField('actor', 'ada');
    await settle();
    expect(window).toHaveBeenLastCalledWith(expect.objectContaining({ filter: { actor: 'ada' }, offset: 0 }));
  });
});
