import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueRow } from '#contract/queue.ts';
import { rowAt } from '#renderer/shared/windowed/windowed-pages.ts';
import { draftStatus } from './draft-rows.ts';
import { fakeApi, installFresh, settle } from './fake-api.ts';
import { memoryStorage, queueRow, queueWindowOver } from './queue-rows.ts';

const ada = queueRow('ada', 'document', 1);
const bo = queueRow('bo', 'retry', 2);
const cy = queueRow('cy', 'document', 3);

async function openQueue(rows: QueueRow[]) {
  const window = vi.fn(queueWindowOver(rows));
  const add = vi.fn(async ({ ref }: { ref: string }) => ({ id: ref, name: 'Added', status: 'verified' }));
  const fake = fakeApi({ queue: { window }, customers: { add } });
  await installFresh(fake);
  const { useQueueStore } = await import('#renderer/features/queue/queue-store.ts');
  const stop = useQueueStore.getState().watch();
  useQueueStore.getState().reload();
  await settle();
  return { fake, window, add, store: useQueueStore, stop };
}

const shownIds = (state: { pages: Parameters<typeof rowAt<QueueRow>>[0]; total: number | null }) =>
  Array.from({ length: state.total ?? 0 }, (_, i) => rowAt(state.pages, i)?.id);

describe('queue store', () => {
  beforeEach(() => {
    vi.stubGlobal('sessionStorage', memoryStorage());
  });

  it('listens to main only while watched', async () => {
    const { fake, stop } = await openQueue([ada]);
    expect(fake.listeners('customer.updated')).toBe(1);
    stop();
    expect(fake.listeners('customer.updated')).toBe(0);
    expect(fake.listeners('job.progress')).toBe(0);
  });

  it('patches a pushed row it shows, without asking main for the window again', async () => {
    const { fake, window, store } = await openQueue([ada, bo, cy]);
    store.getState().select('bo', 1);
    window.mockClear();

    fake.push('customer.updated', { ...bo, status: 'verified', section: 'verified' });
    expect(window).not.toHaveBeenCalled();
    const state = store.getState();
    expect(shownIds(state)).toEqual(['ada', 'bo', 'cy']);
    expect(rowAt(state.pages, 1)?.status).toBe('verified');
    expect(state.counts).toMatchObject({ retry: 0, verified: 1, document: 2 });
    expect(state.selectedId).toBe('bo');
  });

  it('drops a row from the section it left, and moves the counts', async () => {
    const { fake, window, store } = await openQueue([ada, bo, cy]);
    store.getState().setSection('document');
    await settle();
    store.getState().select('cy', 1);
    window.mockClear();

    fake.push('customer.updated', { ...ada, section: 'review' });
    expect(window).not.toHaveBeenCalled();
    const state = store.getState();
    expect(shownIds(state)).toEqual(['cy']);
    expect(state.total).toBe(1);
    expect(state.counts).toMatchObject({ document: 1, review: 1 });
    expect(state.cursor).toBe(0);
  });

  it('asks main when a pushed row is not in view: its rank and old section are unknown', async () => {
    const { fake, window, store } = await openQueue([ada, bo, cy]);
    store.getState().setSection('retry');
    await settle();
    window.mockClear();

    fake.push('customer.updated', { ...ada, section: 'retry', status: 'retry' });
    expect(window).toHaveBeenCalledTimes(1);
  });

  it('places a new customer in order when it holds the whole unsearched queue', async () => {
    const { fake, window, store } = await openQueue([ada, cy]);
    window.mockClear();

    fake.push('customer.updated', queueRow('new', 'verified', 2));
    expect(window).not.toHaveBeenCalled();
    expect(shownIds(store.getState())).toEqual(['ada', 'new', 'cy']);
    expect(store.getState().counts).toMatchObject({ verified: 1, document: 2 });
  });

  it('reloads when a draft changes state or is discarded, not on every autosave', async () => {
    const { fake, window } = await openQueue([ada]);
    window.mockClear();
    const draft = draftStatus('draft');
    fake.push('draft.updated', draft);
    await settle();
    fake.push('draft.updated', { ...draft, updated: '2025-06-01T10:05:00.000Z' });
    await settle();
    expect(window).toHaveBeenCalledTimes(1);
    fake.push('draft.discarded', { id: draft.id });
    await settle();
    expect(window).toHaveBeenCalledTimes(2);
  });

  it('reloads when a long job finishes', async () => {
    const { fake, window } = await openQueue([ada]);
    window.mockClear();
    const progress = { job: 'reconcile', done: 1, total: 2, finished: false, message: null } as const;
    fake.push('job.progress', progress);
    expect(window).not.toHaveBeenCalled();
    fake.push('job.progress', { ...progress, done: 2, finished: true });
    expect(window).toHaveBeenCalledTimes(1);
  });

  it('adds a customer by id or URL and selects it', async () => {
    const { add, store } = await openQueue([ada]);
    await store.getState().add('  cust-9 ');
    expect(add).toHaveBeenCalledWith({ ref: 'cust-9' });
    expect(store.getState().selectedId).toBe('cust-9');
  });

  it('moves the selection with j/k, and on from where a row left', async () => {
    const { fake, store } = await openQueue([ada, bo, cy]);
    store.getState().moveBy(1);
    expect(store.getState().selectedId).toBe('ada');
    store.getState().moveBy(1);
    expect(store.getState().selectedId).toBe('bo');
    store.getState().setSection('document');
    await settle();
    store.getState().select('ada', 0);
    fake.push('customer.updated', { ...ada, section: 'verified', status: 'verified' });
    store.getState().moveBy(1);
    expect(store.getState().selectedId).toBe('cy');
  });
});
