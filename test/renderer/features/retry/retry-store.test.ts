import { describe, expect, it, vi } from 'vitest';
import { fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

describe('retry store', () => {
  it('asks main for the prefill and sends the retry, keeping nothing of either', async () => {
    const prefill = vi.fn(async () => ({ fromDraft: false, form: { type: 'personal' } }));
    const submit = vi.fn(async () => ({ status: 'verified' }));
    await installFresh(fakeApi({ retry: { prefill, submit } }));
    const { useRetryStore } = await import('#renderer/features/retry/retry-store.ts');
    const before = Object.keys(useRetryStore.getState());

    await useRetryStore.getState().prefill('c1');
    const request = {
      customerId: 'c1',
      form: { type: 'personal', tin: '123-45-6789' },
      confirmed: true,
    } as const;
    await expect(useRetryStore.getState().send(request)).resolves.toEqual({ status: 'verified' });
    expect(prefill).toHaveBeenCalledWith({ customerId: 'c1' });
    expect(submit).toHaveBeenCalledWith(request);
    // The full SSN lives in the dialog only: the store has no place to keep it.
    expect(Object.keys(useRetryStore.getState())).toEqual(before);
    expect(JSON.stringify(useRetryStore.getState())).not.toContain('6789');
  });
});
