import { describe, expect, it, vi } from 'vitest';
import type { EventRow, EventWindowInput } from '#contract/webhooks.ts';
import { rowAt } from '#renderer/shared/windowed/windowed-pages.ts';
import { fakeApi, installFresh, settle } from './fake-api.ts';
import { queueRow } from './queue-rows.ts';

function eventRow(id: string, customerId: string | null, customerName: string | null = null): EventRow {
  return {
    id,
    topic: 'customer_verified',
    customerId,
    customerName,
    resourceId: customerId ?? 'none',
    created: '2025-06-01T10:00:00.000Z',
    receivedAt: '2025-06-01T10:00:01.000Z',
    signatureVerified: true,
    duplicatesSeen: 0,
    processed: true,
  };
}

async function openLog(rows: EventRow[]) {
  const window = vi.fn(async ({ offset, limit }: EventWindowInput) => ({
    rows: rows.slice(offset, offset + limit),
    total: rows.length,
    topics: ['customer_verified'],
  }));
  const exported = vi.fn(async () => ({ jsonl: '{}\n', count: 1 }));
  const fake = fakeApi({ events: { window, export: exported } });
  await installFresh(fake);
  const { useEventLogStore } = await import('#renderer/features/events/event-log-store.ts');
  const stop = useEventLogStore.getState().watch();
  await settle();
  return { fake, window, exported, store: useEventLogStore, stop };
}

describe('event log store', () => {
  it('loads when watched and stops listening when left', async () => {
    const { fake, window, stop } = await openLog([eventRow('e1', 'c1')]);
    expect(window).toHaveBeenCalledTimes(1);
    expect(fake.listeners('event.received')).toBe(1);
    stop();
    expect(fake.listeners('event.received')).toBe(0);
    expect(fake.listeners('customer.updated')).toBe(0);
  });

  it('names a customer in the rows it holds when main pushes its row, with no round trip', async () => {
    const { fake, window, store } = await openLog([eventRow('e2', 'c1'), eventRow('e1', 'c2')]);
    window.mockClear();
    fake.push('customer.updated', { ...queueRow('c1', 'verified', 1), name: 'Ada Lovelace' });
    expect(rowAt(store.getState().pages, 0)?.customerName).toBe('Ada Lovelace');
    expect(rowAt(store.getState().pages, 1)?.customerName).toBeNull();
    fake.push('customer.updated', queueRow('c9', 'verified', 1));
    expect(window).not.toHaveBeenCalled();
  });

  it('replaces a duplicate in place, and asks for the window on a new event', async () => {
    const { fake, window, store } = await openLog([eventRow('e1', 'c1')]);
    window.mockClear();
    fake.push('event.received', { ...eventRow('e1', 'c1'), duplicatesSeen: 2 });
    expect(rowAt(store.getState().pages, 0)?.duplicatesSeen).toBe(2);
    expect(window).not.toHaveBeenCalled();
    fake.push('event.received', eventRow('e2', 'c1'));
    expect(window).toHaveBeenCalledTimes(1);
  });

  it('asks with the filter, trimmed, and exports what it shows', async () => {
    const { window, exported, store } = await openLog([]);
    store.getState().setCustomerId(' c1 ');
    await settle();
    expect(window).toHaveBeenLastCalledWith({ customerId: 'c1', offset: 0, limit: 50 });
    await expect(store.getState().exportShown()).resolves.toEqual({
      jsonl: '{}\n',
      count: 1,
      filter: { customerId: 'c1' },
    });
    expect(exported).toHaveBeenCalledWith({ customerId: 'c1' });
  });
});

describe('event log store: an event opened in full', () => {
  it('holds the detail main answers, and says why when it cannot', async () => {
    const detail = {
      event: eventRow('e1', 'c1'),
      deliveryId: 'e1',
      reason: null,
      payload: '{\n  "id": "e1"\n}',
      payloadProblem: null,
    };
    const fake = fakeApi({
      events: {
        window: vi.fn(async () => ({ rows: [], total: 0, topics: [] })),
        detail: vi.fn(async ({ id }: { id: string }) => {
          if (id === 'e1') return detail;
          throw new Error('Vetted has received no event with this id.');
        }),
      },
    });
    await installFresh(fake);
    const { useEventLogStore: store } = await import('#renderer/features/events/event-log-store.ts');
    const opening = store.getState().openDetail('e1');
    expect(store.getState().detail).toEqual({ id: 'e1', data: null, problem: null });
    await opening;
    expect(store.getState().detail).toEqual({ id: 'e1', data: detail, problem: null });
    await store.getState().openDetail('nope');
    expect(store.getState().detail?.problem).toMatch(/could not be opened: Vetted has received no event/);
    store.getState().closeDetail();
    expect(store.getState().detail).toBeNull();
  });
});
