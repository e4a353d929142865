import { describe, expect, it } from 'vitest';
import { FIRST_WAIT_MS, FREE_ATTEMPTS, MAX_WAIT_MS, waitAfter } from '#main/ground/lock/backoff.ts';
import {
  createDeskLock,
  type DeskLockOptions,
  effectiveIdleMinutes,
  type LockAuditEvent,
  type LockState,
} from '#main/ground/lock/desk-lock.ts';

const SECRET = 'correct horse';

function deskLock(overrides: Partial<DeskLockOptions> = {}) {
  let now = 1_000_000;
  const changes: LockState[] = [];
  const audit: LockAuditEvent[] = [];
  const lock = createDeskLock({
    now: () => now,
    idleMinutes: () => 15,
    verify: async (secret) => secret === SECRET,
    onChange: (state) => changes.push(state),
    audit: (event) => audit.push(event),
    ...overrides,
  });
  return { lock, changes, audit, advance: (ms: number) => (now += ms), now: () => now };
}

describe('the desk lock', () => {
  it('locks once the idle time passes without input, and not before', () => {
    const { lock, advance, audit } = deskLock();
    advance(15 * 60_000 - 1);
    lock.checkIdle();
    expect(lock.isLocked()).toBe(false);
    advance(1);
    lock.checkIdle();
    expect(lock.state()).toMatchObject({ locked: true, reason: 'idle' });
    expect(audit).toEqual([{ action: 'desk.locked', reason: 'idle' }]);
  });

  it('counts the idle time from the last input', () => {
    const { lock, advance } = deskLock();
    advance(10 * 60_000);
    lock.input();
    advance(10 * 60_000);
    lock.checkIdle();
    expect(lock.isLocked()).toBe(false);
    advance(5 * 60_000);
    lock.checkIdle();
    expect(lock.isLocked()).toBe(true);
  });

  it('reads the idle minutes at each check, so a shorter setting applies at once', () => {
    let minutes = 15;
    const { lock, advance } = deskLock({ idleMinutes: () => minutes });
    advance(5 * 60_000);
    lock.checkIdle();
    expect(lock.isLocked()).toBe(false);
    minutes = 5;
    lock.checkIdle();
    expect(lock.isLocked()).toBe(true);
  });

  it('locks on the OS, on sleep and on the key, once, and input does not unlock', () => {
    const { lock, changes, audit } = deskLock();
    lock.lock('os-lock');
    lock.lock('suspend');
    lock.input();
    expect(lock.state()).toMatchObject({ locked: true, reason: 'os-lock' });
    expect(changes).toHaveLength(1);
    expect(audit).toEqual([{ action: 'desk.locked', reason: 'os-lock' }]);
  });

  it('unlocks with the right secret only, and audits each attempt', async () => {
    const { lock, audit } = deskLock();
    lock.lock('key');
    expect(await lock.unlock('wrong')).toMatchObject({ ok: false, reason: 'wrong-secret', failures: 1 });
    expect(lock.isLocked()).toBe(true);
    expect(await lock.unlock(SECRET)).toEqual({ ok: true });
    expect(lock.isLocked()).toBe(false);
    expect(lock.attempts().failures).toBe(0);
    expect(audit.map((event) => event.action)).toEqual(['desk.locked', 'desk.unlockFailed', 'desk.unlocked']);
  });

  it('restarts the idle time at unlock', async () => {
    const { lock, advance } = deskLock();
    advance(20 * 60_000);
    lock.checkIdle();
    await lock.unlock(SECRET);
    lock.checkIdle();
    expect(lock.isLocked()).toBe(false);
  });

  it('makes the desk wait after five wrong attempts in a row, doubling, and checks nothing meanwhile', async () => {
    let checks = 0;
    const { lock, advance, now } = deskLock({
      verify: async (secret) => {
        checks += 1;
        return secret === SECRET;
      },
    });
    lock.lock('key');
    for (let i = 1; i < FREE_ATTEMPTS; i += 1) {
      expect(await lock.unlock('wrong')).toMatchObject({ reason: 'wrong-secret', waitUntil: 0 });
    }
    expect(await lock.unlock('wrong')).toMatchObject({ failures: 5, waitUntil: now() + FIRST_WAIT_MS });
    // Even the right secret waits: it is not checked at all.
    expect(await lock.unlock(SECRET)).toMatchObject({ ok: false, reason: 'wait' });
    expect(checks).toBe(5);
    advance(FIRST_WAIT_MS);
    expect(await lock.unlock('wrong')).toMatchObject({ failures: 6, waitUntil: now() + 2 * FIRST_WAIT_MS });
    advance(2 * FIRST_WAIT_MS - 1);
    expect(await lock.unlock(SECRET)).toMatchObject({ reason: 'wait' });
    advance(1);
    expect(await lock.unlock(SECRET)).toEqual({ ok: true });
  });

  it('checks parallel attempts one at a time, so none skips the count', async () => {
    const { lock } = deskLock();
    lock.lock('key');
    const results = await Promise.all(Array.from({ length: 7 }, () => lock.unlock('wrong')));
    expect(results.map((result) => (result.ok ? 0 : result.failures))).toEqual([1, 2, 3, 4, 5, 5, 5]);
  });
});

describe('the wait after wrong attempts', () => {
  it('is none for the free attempts, then doubles up to the cap', () => {
    expect(waitAfter(FREE_ATTEMPTS - 1)).toBe(0);
    expect(waitAfter(FREE_ATTEMPTS)).toBe(FIRST_WAIT_MS);
    expect(waitAfter(FREE_ATTEMPTS + 3)).toBe(8 * FIRST_WAIT_MS);
    expect(waitAfter(FREE_ATTEMPTS + 100)).toBe(MAX_WAIT_MS);
  });
});

describe('the idle minutes in a team', () => {
  it('never exceed the team maximum a lead set', () => {
    expect(effectiveIdleMinutes(15, null)).toBe(15);
    expect(effectiveIdleMinutes(30, 10)).toBe(10);
    expect(effectiveIdleMinutes(5, 10)).toBe(5);
  });
});
