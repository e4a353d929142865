// The lock's channels: its state, arming it, its settings, unlocking, locking now, and the page's input.
import { DeskError } from '#contract/errors.ts';
import { LockErrorCode, type LockState } from '#contract/lock.ts';
import type { DeskLock } from '#main/ground/lock/desk-lock.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { DeskSecret } from './desk-secret.ts';
import { refusedAttempt } from './lock-words.ts';

export type LockChannel =
  | 'lock.state'
  | 'lock.arm'
  | 'lock.configure'
  | 'lock.unlock'
  | 'lock.now'
  | 'lock.activity';

export interface LockParts {
  desk: DeskLock;
  secret: DeskSecret;
  state(): LockState;
  /** Reads again who works here and the team's maximum. */
  refresh(): Promise<void>;
  context: Pick<DeskContext, 'settings' | 'journal' | 'events'>;
  now(): number;
}

export function lockHandlers(parts: LockParts): Feature<LockChannel>['handlers'] {
  const { desk, secret, state, now } = parts;
  const { settings, journal, events } = parts.context;
  const told = () => {
    events.emit('lock.changed', state());
    return state();
  };
  return {
    async 'lock.state'() {
      await parts.refresh();
      return state();
    },
    async 'lock.arm'({ secret: chosen, current }) {
      await secret.set(chosen, current);
      await journal.audit.record({ action: 'desk.lockArmed', outcome: 'ok' });
      desk.input();
      return told();
    },
    async 'lock.configure'(patch) {
      settings.update({ lock: { ...settings.get().lock, ...patch } });
      const changed = Object.keys(patch).join(', ');
      await journal.audit.record({ action: 'settings.change', outcome: 'ok', detail: `lock: ${changed}` });
      return told();
    },
    async 'lock.unlock'({ secret: given }) {
      const result = await desk.unlock(given);
      if (result.ok) return state();
      told();
      throw refusedAttempt(result, now());
    },
    'lock.now'({ reason }) {
      if (secret.kind() === 'none') {
        throw new DeskError(
          LockErrorCode.unarmed,
          'Set a secret in Settings → Lock first: without one, a locked desk could not be opened again.',
        );
      }
      desk.lock(reason);
      return state();
    },
    'lock.activity'() {
      desk.input();
      return { locked: desk.isLocked() };
    },
  };
}
