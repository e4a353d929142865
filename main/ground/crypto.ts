// Field encryption for data at rest: AES-256-GCM with a fresh 12-byte nonce per call, so encrypting the
// same value twice gives two different tokens and any change to a token is detected on decryption.
// Used by the vault (secrets sealed with the browser-mode key) and by the journal (personal data).
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

const TOKEN_VERSION = 'v1';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Thrown when a token cannot be decrypted. Its message never contains the token or the plaintext. */
export class DecryptError extends Error {
  override name = 'DecryptError';
}

/**
 * A token sealed with a key this process does not hold at all (a team's data key made by a rotation of the
 * team key, met by a desk still on the old one): not damage, and said in words of its own.
 */
export class KeyNotHeldError extends DecryptError {
  override name = 'KeyNotHeldError';
}

/** A new random 32-byte key for `encryptField`. */
export function createFieldKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/**
 * Encrypts `plaintext` into `v1.<nonce>.<tag>.<ciphertext>` (base64url parts).
 * `aad` binds the token to its context (e.g. a record id and field name): the same `aad` must be given
 * to decrypt, so a token copied into another record or field does not decrypt there.
 */
export function encryptField(key: Buffer, plaintext: string, aad?: string): string {
  const nonce = freshNonce();
  const cipher = createCipheriv('aes-256-gcm', keyObject(key), nonce, { authTagLength: TAG_BYTES });
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [TOKEN_VERSION, nonce, tag, ciphertext].map(encodePart).join('.');
}

/**
 * Nonces from the system's CSPRNG, drawn a few thousand bytes at a time: one draw per seal cost more than
 * the sealing of a short field. Each nonce is copied out and its bytes never handed out again.
 */
const NONCE_POOL_BYTES = NONCE_BYTES * 512;
let noncePool = Buffer.alloc(0);
let nonceOffset = 0;
function freshNonce(): Buffer {
  if (nonceOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_POOL_BYTES);
    nonceOffset = 0;
  }
  const nonce = Buffer.from(noncePool.subarray(nonceOffset, nonceOffset + NONCE_BYTES));
  // Used bytes are wiped, so the pool never holds a nonce already given out.
  noncePool.fill(0, nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

/** Decrypts a token made by `encryptField`; throws `DecryptError` if it was altered or the key/aad differ. */
export function decryptField(key: Buffer, token: string, aad?: string): string {
  const secret = keyObject(key);
  const { nonce, tag, ciphertext } = parseToken(token);
  const decipher = createDecipheriv('aes-256-gcm', secret, nonce, { authTagLength: TAG_BYTES });
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptError(
      'Cannot decrypt field: authentication failed (the data was altered, or was encrypted with another key or for another context)',
    );
  }
}

/**
 * Importing raw key bytes costs more than sealing a short field, and the journal seals thousands:
 * each key is imported once. Keyed by the Buffer itself, so a key's bytes never become a map key.
 */
const importedKeys = new WeakMap<Buffer, KeyObject>();

function keyObject(key: Buffer): KeyObject {
  let imported = importedKeys.get(key);
  if (!imported) {
    assertKey(key);
    imported = createSecretKey(key);
    importedKeys.set(key, imported);
  }
  return imported;
}

function parseToken(token: string): { nonce: Buffer; tag: Buffer; ciphertext: Buffer } {
  const parts = typeof token === 'string' ? token.split('.') : [];
  const [version, nonce, tag, ciphertext] = parts;
  const wellFormed =
    parts.length === 4 &&
    version === TOKEN_VERSION &&
    parts.every((part) => BASE64URL.test(part)) &&
    nonce !== undefined &&
    tag !== undefined &&
    ciphertext !== undefined;
  if (!wellFormed) {
    throw new DecryptError(
      `Cannot decrypt field: not a ${TOKEN_VERSION} token (${TOKEN_VERSION}.<nonce>.<tag>.<ciphertext>)`,
    );
  }
  const decoded = { nonce: decodePart(nonce), tag: decodePart(tag), ciphertext: decodePart(ciphertext) };
  if (decoded.nonce.length !== NONCE_BYTES || decoded.tag.length !== TAG_BYTES) {
    throw new DecryptError('Cannot decrypt field: the token has a nonce or tag of the wrong length');
  }
  return decoded;
}

function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new TypeError(`Field encryption needs a ${KEY_BYTES}-byte key`);
  }
}

function encodePart(part: string | Buffer): string {
  return typeof part === 'string' ? part : part.toString('base64url');
}

function decodePart(part: string): Buffer {
  return Buffer.from(part, 'base64url');
}
