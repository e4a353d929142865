import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockErrorCode, waitInWords } from '#contract/lock.ts';
import { deskSecret } from '#main/features/idle-lock/desk-secret.ts';
import { createPassphraseVault } from '#main/ground/vault/passphrase-vault.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';

const CHEAP = { N: 1024, r: 8, p: 1 };
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-desk-secret-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('what opens a locked desk', () => {
  it('is the vault’s passphrase where the vault has one, and no other secret can be set', async () => {
    const dir = tempDir();
    const vault = await createPassphraseVault({ dir, passphrase: 'a long vault passphrase', scrypt: CHEAP });
    const secret = deskSecret({ vault, dataDir: dir, cost: CHEAP });
    expect(secret.kind()).toBe('vault-passphrase');
    expect(await secret.verify('a long vault passphrase')).toBe(true);
    expect(await secret.verify('a long vault passphrasf')).toBe(false);
    await expect(secret.set('another secret', undefined)).rejects.toMatchObject({
      code: LockErrorCode.refused,
    });
  });

  it('is otherwise the secret set when the lock is armed, kept as a hash the vault seals', async () => {
    const dir = tempDir();
    const vault = openFileKeyVault({ dir });
    const secret = deskSecret({ vault, dataDir: dir, cost: CHEAP });
    expect(secret.kind()).toBe('none');
    expect(await secret.verify('')).toBe(false);
    await secret.set('first secret', undefined);
    expect(secret.kind()).toBe('lock-secret');
    expect(await secret.verify('first secret')).toBe(true);
    expect(readFileSync(path.join(dir, 'vault.json'), 'utf8')).not.toContain('first secret');
    await expect(secret.set('second secret', 'not the first')).rejects.toMatchObject({
      code: LockErrorCode.wrongSecret,
    });
    await secret.set('second secret', 'first secret');
    expect(await secret.verify('first secret')).toBe(false);
    expect(await secret.verify('second secret')).toBe(true);
  });
});

describe('the wait in words', () => {
  it.each([
    [400, '1 second'],
    [30_000, '30 seconds'],
    [60_000, '1 minute'],
    [61_000, '2 minutes'],
    [3_600_000, '1 hour'],
    [3_600_001, '2 hours'],
  ])('%i ms reads “%s”', (ms, words) => {
    expect(waitInWords(ms)).toBe(words);
  });
});
