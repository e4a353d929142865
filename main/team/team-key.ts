// The team data key: 32 random bytes made once by `team init`, which seal every piece of personal data the
// desks put in the team store. It reaches desks inside their join code and is kept in each desk's vault;
// the database only holds `key_check`, which tells the right key from a wrong one and reveals nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createFieldKey } from '../ground/crypto.ts';

export const TEAM_KEY_BYTES = 32;
const CHECK_INPUT = 'vetted:team-key-check';

export function createTeamKey(): Buffer {
  return createFieldKey();
}

/** base64url HMAC-SHA256 of a fixed text under the key. */
export function teamKeyCheck(key: Buffer): string {
  return createHmac('sha256', key).update(CHECK_INPUT).digest('base64url');
}

/** Whether `key` is the one `check` was made with (constant time). */
export function isTeamKey(key: Buffer, check: string): boolean {
  const expected = Buffer.from(teamKeyCheck(key));
  const given = Buffer.from(check);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function encodeTeamKey(key: Buffer): string {
  return key.toString('base64url');
}

/** Throws a TypeError naming what is wrong, never echoing the text (it is a secret). */
export function decodeTeamKey(text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64url');
  if (key.length !== TEAM_KEY_BYTES || key.toString('base64url') !== text.trim()) {
    throw new TypeError(`A team key is ${TEAM_KEY_BYTES} bytes in base64url; this one is not.`);
  }
  return key;
}
