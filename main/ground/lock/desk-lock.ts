// The desk's lock, held in main (the trust boundary): the renderer only reports input and follows the state.
// It locks after the idle time without input, when the OS locks the screen or sleeps, or on the reviewer's
// key; it unlocks only with the desk's secret, wrong attempts counted and waited for (backoff.ts). Plain
// Node with an injected clock, so every rule is tested without real time passing.
import type { LockReason } from '#contract/lock.ts';
import { type AttemptState, afterFailure, NO_FAILURES } from './backoff.ts';

export type { LockReason };
export type LockState = { locked: false } | { locked: true; reason: LockReason; since: number };

export type UnlockResult =
  | { ok: true }
  | { ok: false; reason: 'wrong-secret'; failures: number; waitUntil: number }
  | { ok: false; reason: 'wait'; failures: number; waitUntil: number };

/** What the audit log is told; the desk appends each as an entry of its own. */
export type LockAuditEvent =
  | { action: 'desk.locked'; reason: LockReason }
  | { action: 'desk.unlocked' }
  | { action: 'desk.unlockFailed'; failures: number };

export interface DeskLockOptions {
  now(): number;
  /** Minutes without input before the desk locks; read each check, so a settings change applies at once. */
  idleMinutes(): number;
  /** Whether the secret opens this desk (the lock secret's hash, or the vault's passphrase). */
  verify(secret: string): Promise<boolean>;
  onChange?(state: LockState): void;
  audit?(event: LockAuditEvent): void;
}

export interface DeskLock {
  state(): LockState;
  isLocked(): boolean;
  /** The renderer saw the reviewer's input; ignored while locked (only the secret unlocks). */
  input(): void;
  /** Locks if the idle time has passed since the last input; the host calls it on a timer. */
  checkIdle(): void;
  lock(reason: LockReason): void;
  unlock(secret: string): Promise<UnlockResult>;
  attempts(): AttemptState;
}

export function createDeskLock(options: DeskLockOptions): DeskLock {
  let state: LockState = { locked: false };
  let lastInput = options.now();
  let attempts: AttemptState = NO_FAILURES;
  let checking: Promise<UnlockResult> | null = null;

  const set = (next: LockState) => {
    state = next;
    options.onChange?.(next);
  };

  const lock = (reason: LockReason) => {
    if (state.locked) return;
    set({ locked: true, reason, since: options.now() });
    options.audit?.({ action: 'desk.locked', reason });
  };

  const attempt = async (secret: string): Promise<UnlockResult> => {
    if (!state.locked) return { ok: true };
    if (options.now() < attempts.waitUntil) return { ok: false, reason: 'wait', ...attempts };
    if (await options.verify(secret)) {
      attempts = NO_FAILURES;
      lastInput = options.now();
      set({ locked: false });
      options.audit?.({ action: 'desk.unlocked' });
      return { ok: true };
    }
    attempts = afterFailure(attempts, options.now());
    options.audit?.({ action: 'desk.unlockFailed', failures: attempts.failures });
    return { ok: false, reason: 'wrong-secret', ...attempts };
  };

  return {
    state: () => state,
    isLocked: () => state.locked,
    input() {
      if (!state.locked) lastInput = options.now();
    },
    checkIdle() {
      const idleMs = options.idleMinutes() * 60_000;
      if (!state.locked && options.now() - lastInput >= idleMs) lock('idle');
    },
    lock,
    // One check at a time: parallel guesses must not each get a free attempt while scrypt runs.
    async unlock(secret) {
      while (checking) await checking.catch(() => undefined);
      checking = attempt(secret);
      try {
        return await checking;
      } finally {
        checking = null;
      }
    },
    attempts: () => attempts,
  };
}

/** A desk's own idle minutes, never past the team's maximum a lead set (none in solo). */
export function effectiveIdleMinutes(own: number, teamMaximum: number | null | undefined): number {
  return teamMaximum == null ? own : Math.min(own, teamMaximum);
}
