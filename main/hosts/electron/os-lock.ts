// Electron's side of the idle lock: the OS locking its screen or the machine going to sleep locks the desk at
// once (whoever comes back must unlock Vetted too), and Touch ID, where the Mac offers it, unlocks as the
// secret would. The lock itself and every rule about it live in main/ground/lock/; this is only the wiring.
import { powerMonitor, systemPreferences } from 'electron';
import type { DeskLock } from '#main/ground/lock/desk-lock.ts';

/** Locks the desk on the OS's lock-screen and suspend events; returns what stops listening. */
export function lockWithTheOs(lock: Pick<DeskLock, 'lock'>): () => void {
  const onLockScreen = () => lock.lock('os-lock');
  const onSuspend = () => lock.lock('suspend');
  powerMonitor.on('lock-screen', onLockScreen);
  powerMonitor.on('suspend', onSuspend);
  return () => {
    powerMonitor.off('lock-screen', onLockScreen);
    powerMonitor.off('suspend', onSuspend);
  };
}

/** Whether this machine can unlock with the OS (Touch ID on a Mac); false elsewhere. */
export function canUnlockWithTheOs(): boolean {
  return typeof systemPreferences.canPromptTouchID === 'function' && systemPreferences.canPromptTouchID();
}

/** Asks the OS to authenticate the reviewer; true only when it did. A cancel or a failure is false. */
export async function unlockWithTheOs(): Promise<boolean> {
  if (!canUnlockWithTheOs()) return false;
  try {
    await systemPreferences.promptTouchID('unlock Vetted');
    return true;
  } catch {
    return false;
  }
}
