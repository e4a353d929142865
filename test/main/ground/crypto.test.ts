import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFieldKey, DecryptError, decryptField, encryptField } from '#main/ground/crypto.ts';

const key = createFieldKey();

// Flips one bit of one base64url part of a token, keeping it well-formed.
function tamper(token: string, part: 1 | 2 | 3): string {
  const parts = token.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[0]! ^= 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('field encryption', () => {
  it('round-trips text, including empty and non-ASCII text', () => {
    for (const text of ['', 'Jane Doe', '1980-02-29', 'Zoë Łukasiewicz, 北京 🏦']) {
      expect(decryptField(key, encryptField(key, text))).toBe(text);
      expect(decryptField(key, encryptField(key, text, 'customer:1/name'), 'customer:1/name')).toBe(text);
    }
  });

  it('produces a compact versioned token v1.<nonce>.<tag>.<ciphertext> that does not show the plaintext', () => {
    const token = encryptField(key, '123-45-6789');
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('123-45-6789');
    expect(token).not.toContain(Buffer.from('123-45-6789').toString('base64url'));
  });

  it('uses a fresh nonce per call: the same value encrypts differently every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => encryptField(key, 'same value')));
    expect(tokens.size).toBe(50);
    const nonces = new Set([...tokens].map((token) => token.split('.')[1]));
    expect(nonces.size).toBe(50);
  });

  it.each<[1 | 2 | 3, string]>([
    [1, 'nonce'],
    [2, 'tag'],
    [3, 'ciphertext'],
  ])('rejects a token whose part %i (%s) was altered, with a clear error', (part) => {
    const token = encryptField(key, 'Jane Doe');
    expect(() => decryptField(key, tamper(token, part))).toThrow(DecryptError);
    expect(() => decryptField(key, tamper(token, part))).toThrow(/authentication failed.*altered/);
  });

  it('rejects the wrong key, and a token moved to another context (aad)', () => {
    const token = encryptField(key, 'Jane Doe', 'customer:1/name');
    expect(() => decryptField(createFieldKey(), token, 'customer:1/name')).toThrow(DecryptError);
    expect(() => decryptField(key, token, 'customer:2/name')).toThrow(DecryptError);
    expect(() => decryptField(key, token)).toThrow(DecryptError);
  });

  it('rejects malformed tokens clearly and never echoes the token or plaintext', () => {
    const token = encryptField(key, 'secret-plaintext');
    const malformed = [
      '',
      'secret-plaintext',
      token.replace(/^v1/, 'v2'),
      `${token}.extra`,
      token.replace('.', '.!'),
      `v1.${randomBytes(8).toString('base64url')}.${token.split('.')[2]}.${token.split('.')[3]}`,
    ];
    for (const bad of malformed) {
      let error: unknown;
      try {
        decryptField(key, bad);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DecryptError);
      expect((error as Error).message).toMatch(/^Cannot decrypt field/);
      expect((error as Error).message).not.toContain('secret-plaintext');
      if (bad) expect((error as Error).message).not.toContain(bad);
    }
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => encryptField(randomBytes(16), 'x')).toThrow(/32-byte key/);
    expect(() => decryptField(randomBytes(31), encryptField(key, 'x'))).toThrow(/32-byte key/);
  });
});
