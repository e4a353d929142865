// The idle lock as a feature (#40): its channels, its settings, its audit entries and the idle check on main's
// own timer (a page that reports nothing still locks). The rules are main/ground/lock/'s; the gate that refuses the
// other channels while locked is applied where the desk is composed, over every feature's handlers.
import { DEFAULT_IDLE_MINUTES, DEFAULT_LOCK_KEY, type LockReason, type LockState } from '#contract/lock.ts';
import { createDeskLock, effectiveIdleMinutes, type LockAuditEvent } from '#main/ground/lock/desk-lock.ts';
import type { LockScrypt } from '#main/ground/lock/lock-secret.ts';
import { describeError } from '#main/ground/log/logger.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { deskSecret } from './desk-secret.ts';
import { type LockChannel, lockHandlers } from './lock-channels.ts';
import { auditEntry } from './lock-words.ts';

export interface IdleLockOptions {
  /** The computer's name, as the lock screen shows it. */
  deskName: string;
  /** Who works at the desk (the team login, or the computer's user). */
  reviewer(): Promise<string>;
  /** The lead's maximum idle minutes for the team; null on a solo desk. */
  teamMaximum(): Promise<number | null>;
  /** Epoch ms; tests move it. */
  now?: () => number;
  /** Runs `check` every `ms` until the returned function is called; a real interval by default. */
  every?: (ms: number, check: () => void) => () => void;
  /** Tests only: a cheaper hash for the lock secret. */
  scrypt?: LockScrypt;
}

export type IdleLockFeature = Feature<LockChannel> & {
  isLocked(): boolean;
  /** The OS locked its screen or the machine is going to sleep (the Electron glue). */
  lock(reason: LockReason): void;
};

const CHECK_EVERY_MS = 10_000;
const TEAM_MAXIMUM_EVERY_MS = 60_000;

const realInterval = (ms: number, check: () => void) => {
  const timer = setInterval(check, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export function idleLockFeature(context: DeskContext, options: IdleLockOptions): IdleLockFeature {
  const { settings, journal, events, log } = context;
  const now = options.now ?? Date.now;
  const secret = deskSecret({
    vault: context.vault,
    dataDir: context.dataDir,
    ...(options.scrypt ? { scrypt: options.scrypt } : {}),
  });
  let reviewer = '';
  let teamMaximum: number | null = null;
  let teamMaximumAt = Number.NEGATIVE_INFINITY;
  const own = () => settings.get().lock ?? {};
  const ownIdleMinutes = () => own().idleMinutes ?? DEFAULT_IDLE_MINUTES;

  const refresh = async () => {
    teamMaximumAt = now();
    [reviewer, teamMaximum] = await Promise.all([options.reviewer(), options.teamMaximum()]).catch(
      (error: unknown) => {
        log.warn('the idle lock could not read who works here or the team’s maximum', describeError(error));
        return [reviewer, teamMaximum] as const;
      },
    );
  };
  const audit = (event: LockAuditEvent) =>
    journal.audit
      .record(auditEntry(event))
      .catch((error: unknown) => log.warn('the lock’s audit entry failed', describeError(error)));
  const desk = createDeskLock({
    now,
    idleMinutes: () => effectiveIdleMinutes(ownIdleMinutes(), teamMaximum),
    verify: (given) => secret.verify(given),
    onChange: () => events.emit('lock.changed', state()),
    audit,
  });

  const state = (): LockState => {
    const current = desk.state();
    const { failures, waitUntil } = desk.attempts();
    const key = own().key;
    return {
      locked: current.locked,
      reason: current.locked ? current.reason : null,
      desk: options.deskName,
      reviewer,
      armed: secret.kind() !== 'none',
      secret: secret.kind(),
      idleMinutes: effectiveIdleMinutes(ownIdleMinutes(), teamMaximum),
      ownIdleMinutes: ownIdleMinutes(),
      teamMaximum,
      key: key === undefined ? DEFAULT_LOCK_KEY : key,
      failures,
      waitMs: Math.max(0, waitUntil - now()),
    };
  };
  const lock = (reason: LockReason) => {
    // Unarmed, nothing could open it again.
    if (secret.kind() !== 'none') desk.lock(reason);
  };

  // A desk opened with a lock secret starts locked: quitting and starting again must not open it.
  if (secret.kind() === 'lock-secret') desk.lock('start');
  void refresh();
  const stop = (options.every ?? realInterval)(CHECK_EVERY_MS, () => {
    if (now() - teamMaximumAt >= TEAM_MAXIMUM_EVERY_MS) void refresh();
    if (secret.kind() !== 'none') desk.checkIdle();
  });

  return {
    isLocked: () => desk.isLocked(),
    lock,
    handlers: lockHandlers({ desk, secret, state, refresh, context, now }),
    close: stop,
  };
}
