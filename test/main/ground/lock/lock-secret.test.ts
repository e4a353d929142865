import { describe, expect, it } from 'vitest';
import { hashLockSecret, LOCK_SCRYPT, verifyLockSecret } from '#main/ground/lock/lock-secret.ts';

const LIGHT = { N: 2 ** 10, r: 8, p: 1 };

describe('the lock secret hash', () => {
  it('never holds the secret, salts each hash, and verifies only the secret', async () => {
    const first = await hashLockSecret('correct horse', LIGHT);
    const second = await hashLockSecret('correct horse', LIGHT);
    expect(JSON.stringify(first)).not.toContain('correct horse');
    expect(first.salt).not.toBe(second.salt);
    expect(first.hash).not.toBe(second.hash);
    expect(await verifyLockSecret('correct horse', first)).toBe(true);
    expect(await verifyLockSecret('correct hors', first)).toBe(false);
  });

  it('uses a slow cost by default', async () => {
    const stored = await hashLockSecret('correct horse');
    expect(stored).toMatchObject({ kdf: 'scrypt', N: LOCK_SCRYPT.N, r: 8, p: 1 });
    expect(LOCK_SCRYPT.N).toBeGreaterThanOrEqual(2 ** 15);
  });

  it('matches nothing for a malformed or too costly record', async () => {
    const stored = await hashLockSecret('correct horse', LIGHT);
    expect(await verifyLockSecret('correct horse', { ...stored, hash: undefined })).toBe(false);
    expect(await verifyLockSecret('correct horse', { ...stored, N: 2 ** 24, r: 32 })).toBe(false);
    expect(await verifyLockSecret('correct horse', 'plain text')).toBe(false);
  });
});
