import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueRow } from '#contract/queue.ts';
import { rowAt } from '#renderer/shared/windowed/windowed-pages.ts';
import { fakeApi, installFresh, settle } from './fake-api.ts';
import { memoryStorage, queueRow, queueWindowOver } from './queue-rows.ts';

const ada = queueRow('ada', 'document', 1);
const bo = queueRow('bo', 'retry', 2);
const cy = queueRow('cy', 'document', 3);

async function openQueue(rows: QueueRow[]) {
  const window = vi.fn(queueWindowOver(rows));
  const fake = fakeApi({ queue: { window } });
  await installFresh(fake);
  const { useQueueStore } = await import('#renderer/features/queue/queue-store.ts');
  useQueueStore.getState().watch();
  useQueueStore.getState().reload();
  await settle();
  return { fake, window, store: useQueueStore };
}

describe('queue store, while the reviewer works in the list', () => {
  beforeEach(() => {
    vi.stubGlobal('sessionStorage', memoryStorage());
  });

  it('holds a change that would move rows, shows its data in place, and applies it when asked', async () => {
    const { fake, window, store } = await openQueue([ada, bo, cy]);
    store.getState().setSection('document');
    await settle();
    store.getState().select('cy', 1);
    store.getState().setInteracting(true);
    window.mockClear();

    // Ada leaves "Needs document": her row stays where it is, with its new status, until shown.
    fake.push('customer.updated', { ...ada, status: 'verified', section: 'verified' });
    let state = store.getState();
    expect(state.pendingUpdates).toBe(1);
    expect(rowAt(state.pages, 0)?.status).toBe('verified');
    expect(rowAt(state.pages, 1)?.id).toBe('cy');
    expect(window).not.toHaveBeenCalled();

    store.getState().applyUpdates();
    await settle();
    state = store.getState();
    expect(state.pendingUpdates).toBe(0);
    expect(window).toHaveBeenCalled();
    expect(state.selectedId).toBe('cy');
  });

  it('applies the held changes once the reviewer stops interacting, and in-place changes at once', async () => {
    const { fake, window, store } = await openQueue([ada, bo, cy]);
    store.getState().setInteracting(true);
    // In "all", a status change keeps the row where it is: nothing moves, nothing waits.
    fake.push('customer.updated', { ...bo, status: 'verified', section: 'verified' });
    expect(store.getState().pendingUpdates).toBe(0);
    expect(store.getState().counts).toMatchObject({ retry: 0, verified: 1 });

    fake.push('job.progress', {
      job: 'reconcile',
      done: 3,
      total: 3,
      finished: true,
      message: null,
    } as never);
    expect(store.getState().pendingUpdates).toBe(1);
    window.mockClear();
    store.getState().setInteracting(false);
    await settle();
    expect(store.getState().pendingUpdates).toBe(0);
    expect(window).toHaveBeenCalled();
  });

  it('asks main in the order and with the filters chosen, and from the last row held', async () => {
    const rows = Array.from({ length: 120 }, (_, i) =>
      queueRow(`r${String(i).padStart(3, '0')}`, 'retry', i % 60),
    );
    const { window, store } = await openQueue(rows);
    store.getState().setSort('name');
    store.getState().setFilters({ overdue: true });
    await settle();
    expect(window).toHaveBeenLastCalledWith(
      expect.objectContaining({ sort: 'name', filters: { overdue: true } }),
    );
    store.getState().showRange({ start: 60, end: 80 });
    await settle();
    const paged = window.mock.calls.map(([input]) => input).find((input) => input.offset === 50);
    expect(paged?.after).toEqual({ key: expect.any(String), id: expect.any(String) });
  });
});
