import { describe, expect, it, vi } from 'vitest';
import { createDeskLock } from '#main/ground/lock/desk-lock.ts';
import { canUnlockWithTheOs, lockWithTheOs, unlockWithTheOs } from '#main/hosts/electron/os-lock.ts';
import { sharedFakeElectron } from './fake-electron.ts';

vi.mock('electron', async () => (await import('./fake-electron.ts')).sharedFakeElectron());

const electron = sharedFakeElectron();

function deskLock() {
  return createDeskLock({ now: () => 0, idleMinutes: () => 15, verify: async () => false });
}

describe('the idle lock under a mocked Electron', () => {
  it.each([
    ['lock-screen', 'os-lock'],
    ['suspend', 'suspend'],
  ])('locks the desk when the OS emits %s', (event, reason) => {
    const lock = deskLock();
    const stop = lockWithTheOs(lock);
    electron.powerMonitor.emit(event);
    expect(lock.state()).toMatchObject({ locked: true, reason });
    stop();
  });

  it('stops listening when told', () => {
    const lock = deskLock();
    lockWithTheOs(lock)();
    electron.powerMonitor.emit('lock-screen');
    expect(lock.isLocked()).toBe(false);
    expect(electron.powerMonitor.listenerCount('lock-screen')).toBe(0);
  });

  it('unlocks with Touch ID only where the OS offers it and the reviewer passes it', async () => {
    electron.systemPreferences.touchIdAvailable = false;
    expect(canUnlockWithTheOs()).toBe(false);
    expect(await unlockWithTheOs()).toBe(false);
    expect(electron.systemPreferences.promptTouchID.calls).toHaveLength(0);
    electron.systemPreferences.touchIdAvailable = true;
    expect(await unlockWithTheOs()).toBe(true);
    electron.systemPreferences.touchIdAnswers = false;
    expect(await unlockWithTheOs()).toBe(false);
    expect(electron.systemPreferences.promptTouchID.calls).toEqual([['unlock Vetted'], ['unlock Vetted']]);
  });
});
