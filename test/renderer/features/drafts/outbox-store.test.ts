import { describe, expect, it, vi } from 'vitest';
import { DRAFT_ID, draftStatus } from '#test/support/renderer/draft-rows.ts';
import { deferred, fakeApi, installFresh, settle } from '#test/support/renderer/fake-api.ts';
import { ONLINE } from '#test/support/renderer/fixtures.ts';
import { queueWindowOver } from '#test/support/renderer/queue-rows.ts';

const STATUS = {
  counts: { draft: 1, queued: 0, sending: 0, created: 0, rejected: 0, attention: 0 },
  online: true,
  draining: false,
  inFlight: 0,
  nextAttemptAt: null,
};

async function outbox() {
  const status = vi.fn(async () => STATUS);
  const window = vi.fn(queueWindowOver([]));
  const list = vi.fn(async () => ({ drafts: [draftStatus('draft')] }));
  const submit = vi.fn(async ({ ids }: { ids: string[] }) => ({ queued: ids, invalid: [], skipped: [] }));
  const fake = fakeApi({ outbox: { status }, queue: { window }, drafts: { list, submit } });
  await installFresh(fake);
  const { useOutboxStore } = await import('#renderer/features/drafts/outbox-store.ts');
  return { fake, status, window, submit, store: useOutboxStore };
}

describe('outbox store', () => {
  it('loads while watched, again on pushed changes, one load at a time', async () => {
    const { fake, status, store } = await outbox();
    const stop = store.getState().watch();
    await settle();
    expect(status).toHaveBeenCalledTimes(1);
    expect(store.getState().status).toEqual(STATUS);

    const slow = deferred<typeof STATUS>();
    status.mockImplementationOnce(() => slow.promise);
    fake.push('draft.updated', draftStatus('queued'));
    fake.push('draft.updated', draftStatus('sending'));
    fake.push('service.status', ONLINE);
    expect(status).toHaveBeenCalledTimes(2);
    slow.resolve(STATUS);
    await settle();
    expect(status).toHaveBeenCalledTimes(3);

    stop();
    expect(fake.listeners('draft.updated')).toBe(0);
  });

  it('submits every ready draft and says what became of them', async () => {
    const { submit, store } = await outbox();
    await store.getState().submitAll();
    expect(submit).toHaveBeenCalledWith({ ids: [DRAFT_ID] });
    expect(store.getState().notice).toBe('Queued 1 draft.');
    expect(store.getState().submitting).toBe(false);
  });
});
