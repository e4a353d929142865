import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '#contract/updates.ts';
import { NO_POLICY, type UpdatePolicy } from '#main/features/updates/policy.ts';
import {
  CHECK_INTERVAL_MS,
  createUpdates,
  describeUpdateError,
  type UpdaterLike,
} from '#main/features/updates/updates.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { type FakeUpdater, fakeUpdater } from './fake-updater.ts';

let updater: FakeUpdater;
let pushed: UpdateStatus[];
let saved: string[];

beforeEach(() => {
  vi.useFakeTimers();
  updater = fakeUpdater();
  pushed = [];
  saved = [];
});
afterEach(() => {
  vi.useRealTimers();
});

function make(policy: UpdatePolicy = NO_POLICY, withUpdater = true) {
  return createUpdates({
    // EventEmitter's `on` takes any-typed listeners; UpdaterLike's are narrower on purpose.
    updater: withUpdater ? (updater as unknown as UpdaterLike) : null,
    notOffered: 'Not here.',
    policy,
    channel: 'stable',
    saveChannel: (channel) => saved.push(channel),
    currentVersion: '1.0.0',
    log: createLogger(() => {}),
    onChange: (status) => pushed.push(status),
  });
}

describe('the update state machine', () => {
  it('checks at start and every 6 hours, downloading in the background', async () => {
    const updates = make();
    updates.start();
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, allowDowngrade: false });
    expect(updater.channel).toBe('latest');
    await vi.advanceTimersByTimeAsync(0);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS - 1);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
    updates.close();
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 2);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
  });

  it('goes available → downloading with progress → downloaded, then installs on "Restart now"', async () => {
    const updates = make();
    updates.start();
    updater.emit('checking-for-update');
    updater.emit('update-available', { version: '1.1.0' });
    expect(updates.status()).toMatchObject({ phase: 'downloading', availableVersion: '1.1.0' });
    updater.emit('download-progress', { percent: 42.5, transferred: 425, total: 1000, bytesPerSecond: 10 });
    expect(pushed.at(-1)?.progress).toEqual({ percent: 42.5, transferred: 425, total: 1000 });
    updater.emit('update-downloaded', { version: '1.1.0' });
    expect(pushed.at(-1)).toMatchObject({ phase: 'downloaded', availableVersion: '1.1.0', progress: null });
    // A downloaded update waits: no second download on the next scheduled check.
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);

    expect(updates.install().phase).toBe('downloaded');
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(updater.quitAndInstall).toHaveBeenCalledWith(false, true);
  });

  it('refuses "Restart now" before a download is complete', () => {
    const updates = make();
    updates.start();
    expect(() => updates.install()).toThrow(/No update has been downloaded/);
  });

  it('shows an update refused for its signature, in words', async () => {
    const updates = make();
    updates.start();
    const refused = Object.assign(new Error('New version 1.1.0 is not signed by the application owner: …'), {
      code: 'ERR_UPDATER_INVALID_SIGNATURE',
    });
    updater.emit('error', refused);
    expect(updates.status()).toMatchObject({
      phase: 'error',
      error: expect.stringMatching(/refused.*not signed/),
    });
  });

  it('shows a failed check once, when the updater both emits and rejects', async () => {
    const offline = new Error('getaddrinfo ENOTFOUND updates.vetted.app');
    updater.checkForUpdates.mockImplementationOnce(async () => {
      updater.emit('error', offline);
      throw offline;
    });
    const updates = make();
    const status = await updates.check();
    expect(status).toMatchObject({ phase: 'error', error: expect.stringMatching(/could not be reached/) });
    expect(pushed.filter((s) => s.phase === 'error')).toHaveLength(1);
  });

  it('never checks when policy turns updates off, and says which policy', async () => {
    const updates = make({
      ...NO_POLICY,
      updatesDisabled: true,
      source: 'the policy file /etc/vetted/policy.json',
    });
    updates.start();
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 3);
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    expect(updates.status()).toMatchObject({
      offered: false,
      managedBy: 'the policy file /etc/vetted/policy.json',
      notOffered: expect.stringContaining('turned off by the policy file'),
      channelLocked: true,
    });
    await expect(updates.check()).rejects.toMatchObject({ code: 'UpdatesNotOffered' });
  });

  it('uses a mirrored feed and a fixed channel from policy; the reviewer cannot change it', async () => {
    const updates = make({
      ...NO_POLICY,
      feedUrl: 'https://mirror.example/vetted',
      channel: 'beta',
      source: 'x',
    });
    updates.start();
    expect(updater.setFeedURL).toHaveBeenCalledWith({
      provider: 'generic',
      url: 'https://mirror.example/vetted',
    });
    expect(updater.channel).toBe('beta');
    await expect(updates.setChannel('stable')).rejects.toMatchObject({ code: 'ManagedByPolicy' });
    expect(saved).toEqual([]);
  });

  it('keeps the reviewer’s channel and checks it at once, without allowing a downgrade', async () => {
    const updates = make();
    updates.start();
    await vi.advanceTimersByTimeAsync(0);
    updater.allowDowngrade = true;
    const status = await updates.setChannel('beta');
    expect(status.channel).toBe('beta');
    expect(saved).toEqual(['beta']);
    expect(updater).toMatchObject({ channel: 'beta', allowDowngrade: false });
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(2);
  });

  it('without an updater (browser mode, development build) says why instead of offering', async () => {
    const updates = make(NO_POLICY, false);
    updates.start();
    expect(updates.status()).toMatchObject({ offered: false, notOffered: 'Not here.', managedBy: null });
    await expect(updates.check()).rejects.toMatchObject({ code: 'UpdatesNotOffered', message: 'Not here.' });
  });
});

describe('describeUpdateError', () => {
  it('names a checksum refusal, a macOS code signature refusal and an unknown failure', () => {
    expect(
      describeUpdateError(
        Object.assign(new Error('sha512 checksum mismatch'), { code: 'ERR_CHECKSUM_MISMATCH' }),
      ),
    ).toMatch(/refused.*checksum/);
    expect(describeUpdateError(new Error('Code signature at URL file:///… did not pass validation'))).toMatch(
      /not signed/,
    );
    expect(describeUpdateError(new Error('boom at /home/x'))).toBe(
      'The update check failed. Details are in the log.',
    );
  });
});
