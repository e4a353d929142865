import { describe, expect, it, vi } from 'vitest';
import { VettedError } from '#contract/errors.ts';
import type { SandboxPanel } from '#contract/sandbox-panel.ts';
import { deferred, fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

const panel = (fault: SandboxPanel['fault'] = null): SandboxPanel => ({
  baseUrl: 'http://127.0.0.1:5000',
  clientId: 'client',
  curl: 'curl …',
  now: '2026-01-01T00:00:00.000Z',
  fault,
});

async function sandboxStore(methods: Record<string, (...args: never[]) => unknown>) {
  await installFresh(fakeApi({ sandbox: methods }));
  return (await import('#renderer/features/sandbox/sandbox-store.ts')).useSandboxStore;
}

describe('sandbox store', () => {
  it('injects a fault, says so, and clears it', async () => {
    const setFault = vi.fn(async ({ kind }: { kind: string | null }) =>
      panel(kind ? { kind: '503', rate: 0.5 } : null),
    );
    const store = await sandboxStore({ setFault });
    await store.getState().setFault('503');
    expect(setFault).toHaveBeenCalledWith({ kind: '503' });
    expect(store.getState()).toMatchObject({ panel: { fault: { kind: '503' } }, busy: null, problem: null });
    expect(store.getState().done).toMatch(/fault is on/);
    await store.getState().setFault(null);
    expect(store.getState()).toMatchObject({ panel: { fault: null }, done: 'Faults cleared.' });
  });

  it('does one thing at a time, and says in words why one failed', async () => {
    const answer = deferred<SandboxPanel>();
    const finishReviews = vi.fn(() => answer.promise);
    const setFault = vi.fn(async () => {
      throw new VettedError({
        code: 'NotSandbox',
        message: 'The Sandbox panel works only on the built-in sandbox.',
      });
    });
    const store = await sandboxStore({ finishReviews, setFault });
    const finishing = store.getState().finishReviews();
    expect(store.getState().busy).toBe('reviews');
    await store.getState().setFault('500');
    expect(setFault).not.toHaveBeenCalled();
    answer.resolve(panel());
    await finishing;
    expect(store.getState().done).toMatch(/pending reviews are finished/);
    await store.getState().setFault('500');
    expect(store.getState()).toMatchObject({
      busy: null,
      problem: 'The Sandbox panel works only on the built-in sandbox.',
    });
  });
});
