import { describe, expect, it, vi } from 'vitest';
import type { VaultStatus } from '#contract/vault.ts';
import { fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

const NEW: VaultStatus = { state: 'new', reason: 'This computer has no keyring Vetted can use.' };
const LOCKED: VaultStatus = { state: 'locked', reason: 'This computer has no keyring Vetted can use.' };
const OPEN: VaultStatus = { state: 'open', reason: null };
const WRONG = 'That passphrase does not open this vault.';
const PASSPHRASE = 'correct horse battery staple';

async function vaultStore(status: VaultStatus, methods: Record<string, ReturnType<typeof vi.fn>> = {}) {
  const vault = { status: vi.fn(async () => status), unlock: vi.fn(), create: vi.fn(), ...methods };
  await installFresh(fakeApi({ vault }));
  const { useVaultStore } = await import('#renderer/features/vault/vault-store.ts');
  await useVaultStore.getState().load();
  return { vault, useVaultStore };
}

describe('vault store', () => {
  it('takes the state from main: open means the desk shows, no unlock screen', async () => {
    const { useVaultStore } = await vaultStore(OPEN);
    expect(useVaultStore.getState().status).toEqual(OPEN);
  });

  it('unlocks with the passphrase; a wrong one is refused in main’s words and nothing of it is kept', async () => {
    const unlock = vi
      .fn()
      .mockImplementationOnce(async () => {
        // The renderer's modules are fresh for each test: its VettedError is the one loaded now.
        const { VettedError } = await import('#contract/errors.ts');
        throw new VettedError({ code: 'WrongPassphrase', message: WRONG, fields: { '/passphrase': WRONG } });
      })
      .mockResolvedValueOnce(OPEN);
    const { useVaultStore } = await vaultStore(LOCKED, { unlock });
    expect(await useVaultStore.getState().unlock('not the passphrase')).toBe(false);
    expect(useVaultStore.getState()).toMatchObject({
      status: LOCKED,
      busy: false,
      error: WRONG,
      fieldErrors: { passphrase: WRONG },
    });
    expect(JSON.stringify(useVaultStore.getState())).not.toContain('not the passphrase');

    expect(await useVaultStore.getState().unlock(PASSPHRASE)).toBe(true);
    expect(unlock).toHaveBeenLastCalledWith({ passphrase: PASSPHRASE });
    expect(useVaultStore.getState()).toMatchObject({ status: OPEN, error: null, fieldErrors: {} });
    expect(JSON.stringify(useVaultStore.getState())).not.toContain(PASSPHRASE);
  });

  it('first run: asks for a long enough passphrase, typed twice the same, before main is asked', async () => {
    const create = vi.fn(async () => OPEN);
    const { useVaultStore } = await vaultStore(NEW, { create });
    expect(await useVaultStore.getState().create('too short', 'too short')).toBe(false);
    expect(useVaultStore.getState().fieldErrors.passphrase).toMatch(/at least 12 characters/);
    expect(await useVaultStore.getState().create(PASSPHRASE, `${PASSPHRASE}.`)).toBe(false);
    expect(useVaultStore.getState().fieldErrors.confirmation).toBe('The two passphrases are not the same.');
    expect(create).not.toHaveBeenCalled();

    expect(await useVaultStore.getState().create(PASSPHRASE, PASSPHRASE)).toBe(true);
    expect(create).toHaveBeenCalledWith({ passphrase: PASSPHRASE });
    expect(useVaultStore.getState().status).toEqual(OPEN);
  });
});
