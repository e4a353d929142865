import { describe, expect, it } from 'vitest';
import { DeskError } from '#contract/errors.ts';
import type { Vault } from '#main/ground/vault/vault.ts';
import { createVaultGate } from '#main/ground/vault/vault-gate.ts';
import { tempDir } from '#test/main/data/journal/helpers.ts';

const LIGHT = { N: 2 ** 14, r: 8, p: 1 };
const PASSPHRASE = 'correct horse battery staple';
const call = { host: 'electron' } as const;
const quiet = { info() {}, warn() {}, error() {}, addSecret() {} } as never;

function basicText() {
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: (text: string) => Buffer.from(text),
    decryptString: (sealed: Buffer) => sealed.toString(),
  };
}

function gate(dir: string) {
  const opened: Vault[] = [];
  const vaultGate = createVaultGate({
    dir,
    safeStorage: basicText(),
    log: quiet,
    scrypt: LIGHT,
    onOpen: async (vault) => {
      opened.push(vault);
    },
  });
  return { vaultGate, opened };
}

// A thunk: a handler may refuse by throwing before it returns a promise.
async function refusal(attempt: () => unknown): Promise<DeskError> {
  const error = await Promise.resolve()
    .then(attempt)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

describe('vault gate without a keyring', () => {
  it('starts new, refuses every other channel, and opens the desk once, with one attempt at a time', async () => {
    const dir = tempDir();
    const { vaultGate, opened } = gate(dir);
    await vaultGate.start();
    expect(vaultGate.state()).toBe('new');
    expect(opened).toEqual([]);
    const { handlers } = vaultGate;
    expect((await refusal(() => handlers['settings.get'](undefined, call))).code).toBe('VaultLocked');
    expect((await refusal(() => handlers['vault.unlock']({ passphrase: PASSPHRASE }, call))).code).toBe(
      'VaultRefused',
    );

    const first = handlers['vault.create']({ passphrase: PASSPHRASE }, call);
    const second = await refusal(() => handlers['vault.create']({ passphrase: `${PASSPHRASE}!` }, call));
    expect(second.message).toMatch(/already opening/);
    expect(await first).toEqual({ state: 'open', reason: null });
    expect(opened).toHaveLength(1);
    expect(await handlers['vault.unlock']({ passphrase: 'anything at all' }, call)).toEqual({
      state: 'open',
      reason: null,
    });
    expect(opened).toHaveLength(1);
  });

  it('a second start is locked; a wrong passphrase is refused in words and can be tried again', async () => {
    const dir = tempDir();
    const { vaultGate: firstRun } = gate(dir);
    await firstRun.handlers['vault.create']({ passphrase: PASSPHRASE }, call);

    const { vaultGate, opened } = gate(dir);
    expect(vaultGate.state()).toBe('locked');
    const wrong = await refusal(() =>
      vaultGate.handlers['vault.unlock']({ passphrase: 'not it, not at all' }, call),
    );
    expect(wrong.toAppError()).toEqual({
      code: 'WrongPassphrase',
      message: 'That passphrase does not open this vault.',
      fields: { '/passphrase': 'That passphrase does not open this vault.' },
    });
    expect(vaultGate.state()).toBe('locked');
    await vaultGate.handlers['vault.unlock']({ passphrase: PASSPHRASE }, call);
    expect(vaultGate.state()).toBe('open');
    expect(opened[0]?.protection).toBe('passphrase');
  });
});
