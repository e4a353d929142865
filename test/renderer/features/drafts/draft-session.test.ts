import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DRAFT_ID, draftStatus, draftView } from '#test/support/renderer/draft-rows.ts';
import { fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

async function session(draftId: string | null) {
  const drafts = {
    get: vi.fn(async () => draftView()),
    create: vi.fn(async () => draftStatus('draft')),
    save: vi.fn(async () => ({ savedAt: '2025-06-01T10:01:00.000Z' })),
    discard: vi.fn(async () => ({})),
    submit: vi.fn(async () => ({ queued: [DRAFT_ID], invalid: [], skipped: [] })),
  };
  const fake = fakeApi({ drafts });
  await installFresh(fake);
  const { createDraftSession, AUTOSAVE_DELAY_MS } = await import(
    '#renderer/features/drafts/draft-session.ts'
  );
  return { fake, drafts, store: createDraftSession(draftId), delay: AUTOSAVE_DELAY_MS };
}

describe('draft session', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens a draft as it was left', async () => {
    const { store, drafts } = await session(DRAFT_ID);
    await store.getState().open();
    expect(drafts.get).toHaveBeenCalledWith({ id: DRAFT_ID });
    expect(store.getState().opened?.form.firstName).toBe('Ada');
    expect(store.getState().saveState).toEqual({ kind: 'saved', at: draftView().updated });
  });

  it('says why a draft could not be opened', async () => {
    const { store, drafts } = await session(DRAFT_ID);
    drafts.get.mockRejectedValueOnce(new Error('gone'));
    await store.getState().open();
    expect(store.getState().openProblem).toBe('This draft could not be opened: gone');
  });

  it('makes a new form a draft at its first save, and follows the state main pushes for it', async () => {
    const { store, drafts, fake, delay } = await session(null);
    const stop = store.getState().watch();
    store.getState().saver.schedule({ type: 'personal', firstName: 'B' });
    expect(store.getState().saveState.kind).toBe('pending');
    await vi.advanceTimersByTimeAsync(delay);
    expect(drafts.create).toHaveBeenCalledTimes(1);
    expect(store.getState().saveState.kind).toBe('saved');

    fake.push('draft.updated', draftStatus('queued', 'someone-else'));
    expect(store.getState().status?.state).toBe('draft');
    fake.push('draft.updated', draftStatus('queued'));
    expect(store.getState().status?.state).toBe('queued');
    fake.push('draft.discarded', { id: DRAFT_ID });
    expect(store.getState().discarded).toBe(true);
    stop();
    expect(fake.listeners('draft.updated')).toBe(0);
  });

  it('discards with the reviewer’s confirmation and drops what waits to be saved', async () => {
    const { store, drafts, delay } = await session(DRAFT_ID);
    store.getState().saver.schedule({ type: 'personal', firstName: 'C' });
    await store.getState().discard();
    await vi.advanceTimersByTimeAsync(delay * 2);
    expect(drafts.discard).toHaveBeenCalledWith({ id: DRAFT_ID, confirmed: true });
    expect(drafts.save).not.toHaveBeenCalled();
    expect(store.getState().discarded).toBe(true);
  });
});
