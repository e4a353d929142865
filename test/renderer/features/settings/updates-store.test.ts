import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VettedError } from '#contract/errors.ts';
import type { UpdateStatus } from '#contract/updates.ts';
import { type FakeApi, fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

const base: UpdateStatus = {
  offered: true,
  notOffered: null,
  managedBy: null,
  channel: 'stable',
  channelLocked: false,
  feedUrl: null,
  phase: 'idle',
  currentVersion: '1.0.0',
  availableVersion: null,
  progress: null,
  lastCheckedAt: null,
  error: null,
};

let fake: FakeApi;
let store: typeof import('#renderer/features/settings/updates-store.ts');

beforeEach(async () => {
  fake = fakeApi({
    updates: {
      status: vi.fn(async () => base),
      check: vi.fn(async () => ({ ...base, phase: 'downloading', availableVersion: '1.1.0' })),
      install: vi.fn(async () => ({ ...base, phase: 'downloaded' })),
      setChannel: vi.fn(async () => {
        throw new VettedError({ code: 'ManagedByPolicy', message: 'The update channel is set by policy.' });
      }),
    },
  });
  await installFresh(fake);
  store = await import('#renderer/features/settings/updates-store.ts');
});

describe('the updates store', () => {
  it('loads the status, follows main’s pushed status while watched, and stops after', async () => {
    const { useUpdatesStore } = store;
    await useUpdatesStore.getState().load();
    expect(useUpdatesStore.getState().status?.phase).toBe('idle');
    const stop = useUpdatesStore.getState().watch();
    fake.push('updates.status', {
      ...base,
      phase: 'downloading',
      progress: { percent: 30, transferred: 3, total: 10 },
    });
    expect(store.describeUpdates(useUpdatesStore.getState().status!)).toBe('Downloading the update: 30%');
    stop();
    expect(fake.listeners('updates.status')).toBe(0);
  });

  it('checks, and shows main’s refusal in its words', async () => {
    const { useUpdatesStore } = store;
    await useUpdatesStore.getState().check();
    expect(useUpdatesStore.getState()).toMatchObject({
      busy: false,
      problem: null,
      status: { phase: 'downloading' },
    });
    await useUpdatesStore.getState().setChannel('beta');
    expect(useUpdatesStore.getState().problem).toBe('The update channel is set by policy.');
  });

  it('says why updates are not offered, and what to do instead', () => {
    expect(store.describeUpdates({ ...base, offered: false, notOffered: 'Run git pull.' })).toBe(
      'Run git pull.',
    );
    expect(store.describeUpdates({ ...base, phase: 'error', error: 'The update was refused.' })).toBe(
      'The update was refused.',
    );
  });
});
