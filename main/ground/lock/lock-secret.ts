// The desk's lock secret, kept only as a slow hash: scrypt with a random salt, its cost stored beside it so a
// later version can raise it, compared in constant time. The secret itself is never written anywhere.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { MIN_LOCK_SECRET_LENGTH } from '#contract/lock.ts';

export { MIN_LOCK_SECRET_LENGTH };

export type LockScrypt = Record<'N' | 'r' | 'p', number>;

/** The same cost the passphrase vault pays (OWASP's minimum for scrypt): about 0.1 s a check on a laptop. */
export const LOCK_SCRYPT: LockScrypt = { N: 2 ** 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;
// A crafted settings file must not make an unlock allocate gigabytes.
const MAX_MEMORY = 256 * 1024 * 1024;
const isPowerOfTwo = (n: number) => Number.isInteger(Math.log2(n));

export const LockSecretHashSchema = z
  .strictObject({
    kdf: z.literal('scrypt'),
    N: z.number().int().min(1024).refine(isPowerOfTwo, 'N must be a power of two'),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
    salt: z.base64(),
    hash: z.base64(),
  })
  .refine(({ N, r }) => 128 * N * r <= MAX_MEMORY, 'scrypt parameters too costly');
export type LockSecretHash = z.infer<typeof LockSecretHashSchema>;

function derive(secret: string, salt: Buffer, cost: LockScrypt): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      secret.normalize('NFC'),
      salt,
      HASH_BYTES,
      { ...cost, maxmem: MAX_MEMORY + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** A new hash of the secret, with a fresh salt. */
export async function hashLockSecret(
  secret: string,
  cost: LockScrypt = LOCK_SCRYPT,
): Promise<LockSecretHash> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(secret, salt, cost);
  return { kdf: 'scrypt', ...cost, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

/** Whether the secret is the one hashed; a malformed record never matches. */
export async function verifyLockSecret(secret: string, stored: unknown): Promise<boolean> {
  const parsed = LockSecretHashSchema.safeParse(stored);
  if (!parsed.success) return false;
  const { N, r, p, salt, hash } = parsed.data;
  const expected = Buffer.from(hash, 'base64');
  const given = await derive(secret, Buffer.from(salt, 'base64'), { N, r, p });
  return expected.length === given.length && timingSafeEqual(expected, given);
}
