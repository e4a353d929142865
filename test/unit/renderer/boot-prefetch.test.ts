import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueWindowInput } from '#contract/queue.ts';
import type { VaultStatus } from '#contract/vault.ts';
import { rowAt } from '#renderer/shared/windowed/windowed-pages.ts';
import { deferred, fakeApi, installFresh, settle } from './fake-api.ts';
import { memoryStorage, queueRow, queueWindowOver } from './queue-rows.ts';

const ada = queueRow('ada', 'document', 1);
const bo = queueRow('bo', 'retry', 2);
const OPEN: VaultStatus = { state: 'open', reason: null };

/** The page's boot (main.tsx's `startAsking`) with a fake main; the queue is not on screen yet. */
async function boot(window: (input: QueueWindowInput) => Promise<unknown>, status = OPEN) {
  const vault = deferred<VaultStatus>();
  const api = {
    vault: { status: vi.fn(() => vault.promise) },
    queue: { window: vi.fn(window) },
    lock: { state: vi.fn(() => new Promise(() => {})) },
  };
  const fake = fakeApi(api);
  await installFresh(fake);
  const { startAsking } = await import('#renderer/boot.ts');
  const { useQueueStore } = await import('#renderer/features/queue/queue-store.ts');
  const { useVaultStore } = await import('#renderer/features/vault/vault-store.ts');
  startAsking(fake.api);
  return { api, vault: () => vault.resolve(status), queue: useQueueStore, gate: useVaultStore };
}

describe('boot: the first screen asked for together', () => {
  beforeEach(() => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    vi.stubGlobal('location', new URL('http://127.0.0.1/'));
  });

  it('asks for the queue’s first page without waiting for the vault’s answer, and shows nothing of it before', async () => {
    const { api, vault, queue, gate } = await boot(queueWindowOver([ada, bo]));
    expect(api.vault.status).toHaveBeenCalledTimes(1);
    // Whether the desk is locked, in the same breath (the lock's gate stands behind the vault's).
    expect(api.lock.state).toHaveBeenCalledTimes(1);
    expect(api.queue.window).toHaveBeenCalledTimes(1);
    expect(api.queue.window.mock.calls[0]![0]).toMatchObject({ section: 'all', offset: 0 });
    await settle();
    // Held, not in the store: only the queue, once on screen behind the gate, takes it.
    expect(queue.getState().total).toBeNull();
    // The gate's own first load shares the question already asked.
    void gate.getState().load();
    expect(api.vault.status).toHaveBeenCalledTimes(1);
    vault();
    await settle();
    expect(gate.getState().status).toEqual(OPEN);
  });

  it('shows the early answer when the queue opens, then asks once more for changes it could not watch', async () => {
    const { api, vault, queue } = await boot(queueWindowOver([ada, bo]));
    vault();
    await settle();
    const stop = queue.getState().watch();
    queue.getState().reload();
    await vi.waitFor(() => expect(rowAt(queue.getState().pages, 0)?.id).toBe('ada'), { timeout: 15_000 });
    await settle();
    expect(queue.getState().total).toBe(2);
    // The boot's page, then the refresh that follows it.
    expect(api.queue.window).toHaveBeenCalledTimes(2);
    stop();
  });

  it('asks main again when the early question was refused (a locked vault refuses all but its own channels)', async () => {
    const answer = queueWindowOver([ada]);
    const window = vi.fn<(input: QueueWindowInput) => Promise<unknown>>();
    window.mockRejectedValueOnce(new Error('Vetted is locked: enter your passphrase.'));
    window.mockImplementation(answer);
    const { api, vault, queue } = await boot(window, { state: 'locked', reason: 'Enter it.' });
    vault();
    await settle();
    expect(queue.getState().problem).toBeNull();
    queue.getState().reload();
    await settle();
    expect(api.queue.window).toHaveBeenCalledTimes(2);
    expect(rowAt(queue.getState().pages, 0)?.id).toBe('ada');
    expect(queue.getState().problem).toBeNull();
  });

  it('drops the early answer when the list opens on another query', async () => {
    const { api, vault, queue } = await boot(queueWindowOver([ada, bo]));
    vault();
    await settle();
    queue.getState().setSection('retry');
    await settle();
    expect(api.queue.window).toHaveBeenCalledTimes(2);
    expect(api.queue.window.mock.calls[1]![0]).toMatchObject({ section: 'retry' });
    expect(queue.getState().total).toBe(1);
    expect(rowAt(queue.getState().pages, 0)?.id).toBe('bo');
  });
});
