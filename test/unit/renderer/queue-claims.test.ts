// The queue's rows follow claims live (`claims.changed`), and a pushed row (which never carries its claim)
// keeps the holder the list showed.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Claim } from '#contract/claims.ts';
import type { QueueRow } from '#contract/queue.ts';
import { rowAt } from '#renderer/shared/windowed/windowed-pages.ts';
import { fakeApi, installFresh, settle } from './fake-api.ts';
import { memoryStorage, queueRow, queueWindowOver } from './queue-rows.ts';

const ada = queueRow('ada', 'retry', 1);
const bo = { ...queueRow('bo', 'retry', 2), claimedBy: 'ana' };

const claim = (customerId: string, holder: string): Claim => ({
  customerId,
  holder,
  mine: false,
  since: '2025-06-01T10:42:00.000Z',
  how: 'take',
  by: holder,
  note: null,
});

async function openQueue(rows: QueueRow[]) {
  const window = vi.fn(queueWindowOver(rows));
  const fake = fakeApi({ queue: { window } });
  await installFresh(fake);
  const { useQueueStore } = await import('#renderer/features/queue/queue-store.ts');
  const stop = useQueueStore.getState().watch();
  useQueueStore.getState().reload();
  await settle();
  window.mockClear();
  return { fake, window, store: useQueueStore, stop };
}

describe('the queue and claims', () => {
  beforeEach(() => {
    vi.stubGlobal('sessionStorage', memoryStorage());
  });

  it('shows a new holder in the row, and none once released, without asking main again', async () => {
    const { fake, window, store } = await openQueue([ada, bo]);
    expect(fake.listeners('claims.changed')).toBe(1);

    fake.push('claims.changed', { customerId: 'ada', claim: claim('ada', 'lee') });
    expect(rowAt(store.getState().pages, 0)?.claimedBy).toBe('lee');
    fake.push('claims.changed', { customerId: 'bo', claim: null });
    expect(rowAt(store.getState().pages, 1)).not.toHaveProperty('claimedBy');
    expect(window).not.toHaveBeenCalled();
  });

  it('keeps the holder when main pushes the row for another change', async () => {
    const { fake, store } = await openQueue([ada, bo]);
    const { claimedBy: _, ...pushed } = bo;
    fake.push('customer.updated', { ...pushed, name: 'Bo Renamed' });
    expect(rowAt(store.getState().pages, 1)).toMatchObject({ name: 'Bo Renamed', claimedBy: 'ana' });
  });

  it('asks main again under a claim filter, where the row may come or go', async () => {
    const { fake, window, store } = await openQueue([ada, bo]);
    store.getState().setFilters({ claim: 'mine' });
    await settle();
    window.mockClear();
    fake.push('claims.changed', { customerId: 'ada', claim: claim('ada', 'me') });
    await settle();
    expect(window).toHaveBeenCalledWith(expect.objectContaining({ filters: { claim: 'mine' } }));
  });

  it('ignores a change to a case the list does not hold', async () => {
    const { fake, window, store } = await openQueue([ada]);
    const before = store.getState().pages;
    fake.push('claims.changed', { customerId: 'zed', claim: claim('zed', 'lee') });
    expect(store.getState().pages).toBe(before);
    expect(window).not.toHaveBeenCalled();
  });
});
