import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LockState } from '#contract/lock.ts';
import { followActivity, isLockKey, REPORT_EVERY_MS } from '#renderer/features/lock/activity.ts';

const OPEN: LockState = {
  locked: false,
  reason: null,
  desk: 'desk',
  reviewer: 'ada',
  armed: true,
  secret: 'lock-secret',
  idleMinutes: 15,
  ownIdleMinutes: 15,
  teamMaximum: null,
  key: 'Ctrl+Shift+L',
  failures: 0,
  waitMs: 0,
};

const key = (init: KeyboardEventInit & { code: string }) => Object.assign(new Event('keydown'), init);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function follow(state: LockState = OPEN) {
  const target = new EventTarget();
  const report = vi.fn();
  const lockNow = vi.fn();
  const stop = followActivity({ target, lock: () => state, report, lockNow });
  return { target, report, lockNow, stop };
}

describe('the page’s side of the idle lock', () => {
  it('reports input at most once every few seconds, never per keystroke', () => {
    const { target, report, stop } = follow();
    for (let i = 0; i < 50; i++) {
      target.dispatchEvent(key({ code: 'KeyA' }));
      vi.advanceTimersByTime(100);
    }
    expect(report).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(REPORT_EVERY_MS);
    target.dispatchEvent(new Event('pointermove'));
    expect(report).toHaveBeenCalledTimes(2);
    stop();
  });

  it('locks once the idle time passes without input, never before; input restarts the count', () => {
    const { target, lockNow, stop } = follow();
    vi.advanceTimersByTime(14 * 60_000);
    target.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(14 * 60_000);
    expect(lockNow).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    expect(lockNow).toHaveBeenCalledWith('idle');
    stop();
  });

  it('does not lock an unarmed desk, and does not spin looking', () => {
    const { lockNow, stop } = follow({ ...OPEN, armed: false });
    vi.advanceTimersByTime(60 * 60_000);
    expect(lockNow).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(1);
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('locks on the reviewer’s key, whatever the order of its modifiers, and only on it', () => {
    const { target, lockNow, report, stop } = follow();
    target.dispatchEvent(key({ code: 'KeyL', ctrlKey: true }));
    target.dispatchEvent(key({ code: 'KeyL', ctrlKey: true, shiftKey: true, altKey: true }));
    expect(lockNow).not.toHaveBeenCalled();
    target.dispatchEvent(key({ code: 'KeyL', ctrlKey: true, shiftKey: true }));
    expect(lockNow).toHaveBeenCalledWith('key');
    expect(report).toHaveBeenCalledTimes(1);
    expect(isLockKey(key({ code: 'F9', altKey: true, metaKey: true }) as KeyboardEvent, 'Meta+Alt+F9')).toBe(
      true,
    );
    expect(isLockKey(key({ code: 'Digit5', ctrlKey: true }) as KeyboardEvent, 'Ctrl+5')).toBe(true);
    expect(isLockKey(key({ code: 'KeyL', ctrlKey: true }) as KeyboardEvent, null)).toBe(false);
    stop();
  });
});
