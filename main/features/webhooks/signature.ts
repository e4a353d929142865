import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** The service signs every delivery's raw body with the subscription secret (service-facts §7). */
export const SIGNATURE_HEADER = 'x-request-signature-sha-256';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** Lower-case hex HMAC-SHA256 of the raw bytes, as the service sends it. */
export function signBody(body: Uint8Array | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Whether `signature` is the HMAC of exactly these bytes under one of `secrets`. The body is never
 * re-encoded (that would change the bytes), and digests are compared in constant time.
 */
export function isSignedBy(
  body: Uint8Array,
  signature: string | undefined,
  secrets: Iterable<string>,
): boolean {
  // Anything but 64 hex digits cannot match; Buffer.from(…, 'hex') would silently truncate it instead.
  if (signature === undefined || !HEX_SHA256.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  for (const secret of secrets) {
    const expected = createHmac('sha256', keyOf(secret)).update(body).digest();
    if (timingSafeEqual(expected, given)) return true;
  }
  return false;
}

// A key object made once per secret: HMAC with one costs a quarter of HMAC with the raw string each time.
// Few secrets ever exist (one per subscription), so the cache stays tiny; a removed one is dropped when
// the cache is full rather than tracked.
const MAX_KEYS = 64;
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}
