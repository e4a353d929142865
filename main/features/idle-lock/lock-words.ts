// A refused unlock in the words the lock screen shows (a wrong secret, how long the desk now waits), and the
// lock's audit entries.
import type { AuditAction } from '#contract/audit-actions.ts';
import { DeskError } from '#contract/errors.ts';
import { LockErrorCode, waitInWords } from '#contract/lock.ts';
import { FREE_ATTEMPTS } from '#main/ground/lock/backoff.ts';
import type { LockAuditEvent, UnlockResult } from '#main/ground/lock/desk-lock.ts';

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

/** The audit log's entry for a lock, an unlock or a failed attempt: never the secret, only how many in a row. */
export function auditEntry(event: LockAuditEvent): { action: AuditAction; outcome: string; detail?: string } {
  switch (event.action) {
    case 'desk.locked':
      return { action: event.action, outcome: 'ok', detail: event.reason };
    case 'desk.unlocked':
      return { action: event.action, outcome: 'ok' };
    case 'desk.unlockFailed':
      return { action: event.action, outcome: 'refused', detail: `wrong secret, ${event.failures} in a row` };
  }
}
