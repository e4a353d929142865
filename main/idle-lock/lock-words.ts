// A refused unlock in the words the lock screen shows: a wrong secret, and how long the desk now waits.
import { DeskError } from '../../contract/errors.ts';
import { LockErrorCode, waitInWords } from '../../contract/lock.ts';
import { FREE_ATTEMPTS } from '../lock/backoff.ts';
import type { UnlockResult } from '../lock/desk-lock.ts';

export const WRONG_SECRET = 'That secret does not open this desk.';

export function refusedAttempt(result: Exclude<UnlockResult, { ok: true }>, now: number): DeskError {
  const wait =
    result.waitUntil > now ? ` Wait ${waitInWords(result.waitUntil - now)} before trying again.` : '';
  if (result.reason === 'wait') {
    return new DeskError(LockErrorCode.wait, `Too many wrong secrets in a row.${wait}`);
  }
  const left = FREE_ATTEMPTS - result.failures;
  const warning = left > 0 && left < FREE_ATTEMPTS ? ` ${left} more before the desk makes you wait.` : '';
  const words = `${WRONG_SECRET}${wait || warning}`;
  return new DeskError(LockErrorCode.wrongSecret, words, { '/secret': words });
}
