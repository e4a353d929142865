// The claims store: who holds a case, asked for and then followed live; refusals kept in main's words; the
// counts asked for once per burst of changes; the next case.
import { describe, expect, it, vi } from 'vitest';
import type { Claim, ClaimCounts } from '#contract/claims.ts';
import { VettedError } from '#contract/errors.ts';
import { deferred, fakeApi, installFresh, settle } from './fake-api.ts';

const ID = '0b4a8f5e-2f7c-4d8e-9a51-6f0e4b7c2d11';
const held = (holder: string, mine = false): Claim => ({
  customerId: ID,
  holder,
  mine,
  since: '2025-06-01T10:42:00.000Z',
  how: 'take',
  by: holder,
  note: null,
});
const COUNTS: ClaimCounts = {
  holders: [],
  targets: { retry: 24, document: 48, review: 72 },
  at: '2025-06-01T11:00:00.000Z',
};

async function claimsStore(methods: Record<string, Record<string, (...args: never[]) => unknown>>) {
  const fake = fakeApi(methods);
  await installFresh(fake);
  const { useClaimsStore } = await import('#renderer/shared/team/claims-store.ts');
  return { fake, store: useClaimsStore };
}

describe('claims store', () => {
  it('asks who holds a case, then follows its changes from any desk', async () => {
    const counts = vi.fn(async () => COUNTS);
    const { fake, store } = await claimsStore({
      claims: { get: vi.fn(async () => ({ customerId: ID, claim: held('ana') })), counts },
    });
    const stop = store.getState().watch();
    await store.getState().follow(ID);
    expect(store.getState().byCase[ID]?.holder).toBe('ana');

    fake.push('claims.changed', { customerId: ID, claim: null });
    expect(store.getState().byCase[ID]).toBeNull();
    stop();
    expect(fake.listeners('claims.changed')).toBe(0);
  });

  it('keeps a refused take in main’s words, for that case', async () => {
    const refusal =
      'ana has this case: only they can change it on the service now. Ask them, or a lead, to hand it over.';
    const { store } = await claimsStore({
      claims: {
        take: vi.fn(async () => {
          throw new VettedError({ code: 'ClaimedByOther', message: refusal });
        }),
      },
    });
    expect(await store.getState().take(ID)).toBe(false);
    expect(store.getState().problem).toEqual({ customerId: ID, text: refusal });
    expect(store.getState().busy).toBe(false);
  });

  it('counts once more after a burst of changes, not once per change', async () => {
    const answers = [deferred<ClaimCounts>(), deferred<ClaimCounts>()];
    let asked = 0;
    const counts = vi.fn(() => (answers[asked++] as ReturnType<typeof deferred<ClaimCounts>>).promise);
    const { fake, store } = await claimsStore({ claims: { counts } });
    store.getState().watch();
    for (const holder of ['ana', 'ben', 'lee'])
      fake.push('claims.changed', { customerId: ID, claim: held(holder) });
    expect(counts).toHaveBeenCalledTimes(1);
    answers[0]?.resolve(COUNTS);
    await settle();
    expect(counts).toHaveBeenCalledTimes(2);
    answers[1]?.resolve({ ...COUNTS, at: '2025-06-01T11:01:00.000Z' });
    await settle();
    expect(counts).toHaveBeenCalledTimes(2);
    expect(store.getState().counts?.at).toBe('2025-06-01T11:01:00.000Z');
  });

  it('takes the next case and knows it is held', async () => {
    const { store } = await claimsStore({
      claims: { next: vi.fn(async () => ({ claim: held('me', true) })) },
    });
    expect(await store.getState().next()).toMatchObject({ customerId: ID, mine: true });
    expect(store.getState().byCase[ID]?.mine).toBe(true);
  });
});
