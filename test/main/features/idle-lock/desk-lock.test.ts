import { afterEach, describe, expect, it } from 'vitest';
import { channelNames } from '#contract/channels.ts';
import { DeskError } from '#contract/errors.ts';
import { LockErrorCode } from '#contract/lock.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import { OPEN_WHILE_LOCKED } from '#main/ground/lock/lock-gate.ts';
import type { LockScrypt } from '#main/ground/lock/lock-secret.ts';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';

/** The idle lock wired into a whole desk (#40): its channels, the gate over every other one, its audit. */

const CHEAP: LockScrypt = { N: 1024, r: 8, p: 1 };
const SECRET = 'correct horse';
const CALL = { host: 'browser' } as const;

/** A desk whose lock runs on a clock the test moves and a timer the test ticks. */
async function lockedDeskRig(dataDir?: string) {
  const clock = { now: 1_000_000 };
  const ticks: (() => void)[] = [];
  const h = await startDesk(dataDir, undefined, {
    lock: {
      now: () => clock.now,
      every: (_ms, check) => {
        ticks.push(check);
        return () => ticks.splice(ticks.indexOf(check), 1);
      },
      scrypt: CHEAP,
    },
  });
  const tick = () => {
    for (const check of ticks) check();
  };
  return { h, clock, tick };
}

let open: DeskHarness[] = [];
afterEach(async () => {
  for (const h of open) {
    await h.close();
    removeDir(h.dataDir);
  }
  open = [];
});

async function rig(dataDir?: string) {
  const made = await lockedDeskRig(dataDir);
  if (!dataDir) open.push(made.h);
  return made;
}

const refusal = (call: () => unknown) =>
  Promise.resolve()
    .then(call)
    .then(
      () => null,
      (error: unknown) => error,
    );

describe('desk: the idle lock', () => {
  it('does not lock unarmed: it says to set a secret first; the idle time passes without a lock', async () => {
    const { h, clock, tick } = await rig();
    const state = await h.call('lock.state');
    expect(state).toMatchObject({ locked: false, armed: false, secret: 'none', idleMinutes: 15 });
    await expect(h.call('lock.now', { reason: 'key' })).rejects.toMatchObject({
      code: LockErrorCode.unarmed,
    });
    clock.now += 60 * 60_000;
    tick();
    expect((await h.call('lock.state')).locked).toBe(false);
  });

  it('locked, refuses every channel but the few holding no personal data, and pushes no customer’s data', async () => {
    const { h } = await rig();
    await h.call('lock.arm', { secret: SECRET });
    await h.call('lock.now', { reason: 'key' });
    for (const channel of channelNames.filter((name) => !OPEN_WHILE_LOCKED.has(name))) {
      const error = await refusal(() => h.desk.handlers[channel](undefined as never, CALL));
      expect(error, channel).toBeInstanceOf(DeskError);
      expect(error, channel).toMatchObject({ code: LockErrorCode.locked, message: /desk is locked/ });
    }
    await expect(
      h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 10 }),
    ).rejects.toThrow(/desk is locked/);
    const heard = h.events.length;
    h.desk.events.emit('notification.show', {
      customerId: 'c-1',
      status: 'verified',
      title: 'Customer verified',
      body: 'Ada Okafor',
    });
    expect(h.events.slice(heard)).toEqual([
      {
        event: 'notification.show',
        payload: {
          customerId: '',
          status: 'verified',
          title: 'Customer verified',
          body: 'Unlock Vetted to see which customer.',
        } satisfies StatusNotice,
      },
    ]);
    await h.call('lock.unlock', { secret: SECRET });
    expect((await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 10 })).rows).toEqual(
      [],
    );
  });

  it('locks after the idle time without input, never before; input restarts the count', async () => {
    const { h, clock, tick } = await rig();
    await h.call('lock.arm', { secret: SECRET });
    await h.call('lock.configure', { idleMinutes: 5 });
    clock.now += 4 * 60_000;
    await h.call('lock.activity');
    clock.now += 4 * 60_000;
    tick();
    expect((await h.call('lock.state')).locked).toBe(false);
    clock.now += 60_000;
    tick();
    expect(await h.call('lock.state')).toMatchObject({ locked: true, reason: 'idle' });
    expect(h.events.filter((e) => e.event === 'lock.changed').at(-1)?.payload).toMatchObject({
      locked: true,
    });
    // Input while locked changes nothing: only the secret opens it.
    expect(await h.call('lock.activity')).toEqual({ locked: true });
  });

  it('makes the reviewer wait after five wrong secrets, in words; the right one then opens; each is audited', async () => {
    const { h, clock } = await rig();
    await h.call('lock.arm', { secret: SECRET });
    await h.call('lock.now', { reason: 'key' });
    for (let i = 1; i <= 4; i++) {
      await expect(h.call('lock.unlock', { secret: `wrong ${i}` })).rejects.toMatchObject({
        code: LockErrorCode.wrongSecret,
        message: `That secret does not open this desk. ${5 - i} more before the desk makes you wait.`,
      });
    }
    await expect(h.call('lock.unlock', { secret: 'wrong 5' })).rejects.toMatchObject({
      message: 'That secret does not open this desk. Wait 30 seconds before trying again.',
    });
    // Waiting, even the right secret is not checked.
    clock.now += 10_000;
    await expect(h.call('lock.unlock', { secret: SECRET })).rejects.toMatchObject({
      code: LockErrorCode.wait,
      message: 'Too many wrong secrets in a row. Wait 20 seconds before trying again.',
    });
    expect(await h.call('lock.state')).toMatchObject({ locked: true, failures: 5 });
    clock.now += 20_000;
    expect(await h.call('lock.unlock', { secret: SECRET })).toMatchObject({ locked: false, failures: 0 });

    const audit = await h.call('audit.window', { filter: {}, offset: 0, limit: 50 });
    const lockRows = audit.rows
      .filter((row) => row.action.startsWith('desk.'))
      .map(({ action, outcome, detail }) => [action, outcome, detail])
      .reverse();
    expect(lockRows).toEqual([
      ['desk.lockArmed', 'ok', null],
      ['desk.locked', 'ok', 'key'],
      ...[1, 2, 3, 4, 5].map((n) => ['desk.unlockFailed', 'refused', `wrong secret, ${n} in a row`]),
      ['desk.unlocked', 'ok', null],
    ]);
    expect(h.logLines.join('\n')).not.toContain(SECRET);
  });

  it('changes its secret only with the one before; keeps only a hash; starts locked after a restart', async () => {
    const first = await rig();
    const { dataDir } = first.h;
    await first.h.call('lock.arm', { secret: SECRET });
    await expect(first.h.call('lock.arm', { secret: 'another secret' })).rejects.toMatchObject({
      code: LockErrorCode.wrongSecret,
    });
    await first.h.call('lock.arm', { secret: 'another secret', current: SECRET });
    await expect(first.h.call('lock.configure', { key: 'L' })).rejects.toMatchObject({ code: 'BadInput' });
    await first.h.call('lock.configure', { key: 'Ctrl+Alt+K', idleMinutes: 30 });
    open = [];
    await first.h.close();

    const again = await rig(dataDir);
    open.push(again.h);
    expect(await again.h.call('lock.state')).toMatchObject({
      locked: true,
      reason: 'start',
      key: 'Ctrl+Alt+K',
      idleMinutes: 30,
    });
    await expect(again.h.call('lock.unlock', { secret: SECRET })).rejects.toMatchObject({
      code: LockErrorCode.wrongSecret,
    });
    expect(await again.h.call('lock.unlock', { secret: 'another secret' })).toMatchObject({ locked: false });
  });
});
