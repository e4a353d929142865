// The main screen's notice of the team store (#37): nothing for a gap of seconds, the store away in words once
// it has been gone STORE_AWAY_NOTICE_AFTER_MS, its time kept up by one timer of the store's, and that it is
// back, briefly, once it answers. Fake timers and a fake main: nothing waits for real time.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORE_AWAY_NOTICE_AFTER_MS, type StorePresence } from '#contract/store-presence.ts';
import { type FakeApi, fakeApi, installFresh } from './fake-api.ts';

const START = Date.parse('2026-11-29T10:00:00Z');
let fake: FakeApi;
let presence: StorePresence;
let store: typeof import('#renderer/shared/team/store-presence-store.ts');
let banner: typeof import('#renderer/shared/team/StoreNotice.tsx');

beforeEach(async () => {
  vi.useFakeTimers({ now: START });
  presence = { awaySince: null };
  fake = fakeApi({ team: { presence: vi.fn(async () => presence) } });
  await installFresh(fake);
  store = await import('#renderer/shared/team/store-presence-store.ts');
  banner = await import('#renderer/shared/team/StoreNotice.tsx');
});
afterEach(() => {
  vi.useRealTimers();
});

const notice = () => store.useStorePresenceStore.getState().notice;
const words = () => {
  const shown = notice();
  return shown ? renderToStaticMarkup(createElement(banner.StoreNoticeWords, { notice: shown })) : '';
};
const text = () => words().replace(/<[^>]+>/g, '');

describe('the team store notice', () => {
  it('says nothing for a gap of seconds, not even that the store is back', async () => {
    const stop = store.useStorePresenceStore.getState().watch();
    await vi.advanceTimersByTimeAsync(0);
    fake.push('team.presence', { awaySince: START });
    await vi.advanceTimersByTimeAsync(STORE_AWAY_NOTICE_AFTER_MS - 1);
    expect(notice()).toBeNull();
    fake.push('team.presence', { awaySince: null });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(notice()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    stop();
  });

  it('says the store is away from the threshold on, its time each second then each minute, then that it is back', async () => {
    const stop = store.useStorePresenceStore.getState().watch();
    await vi.advanceTimersByTimeAsync(0);
    fake.push('team.presence', { awaySince: START });
    await vi.advanceTimersByTimeAsync(STORE_AWAY_NOTICE_AFTER_MS);
    expect(notice()).toEqual({ kind: 'away', forMs: 10_000 });
    expect(text()).toBe(
      'The team store has not answered for 10 sunder a minute. This desk keeps working from its own copy: ' +
        'drafts you submit wait here and are sent once it answers. Notes, claims and approvals need the store: ' +
        'they can be done once it answers.',
    );
    // On screen the seconds; to a screen reader the words, which change once a minute.
    expect(words()).toContain(
      '<span aria-hidden="true">10 s</span><span class="visually-hidden">under a minute</span>',
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(notice()).toEqual({ kind: 'away', forMs: 11_000 });
    await vi.advanceTimersByTimeAsync(49_000);
    expect(words()).toContain(
      '<span aria-hidden="true">1 min</span><span class="visually-hidden">1 minute</span>',
    );
    // Past the first minute, one change a minute: one timer, never one a second.
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(notice()).toEqual({ kind: 'away', forMs: 60_000 });
    await vi.advanceTimersByTimeAsync(1);
    expect(notice()).toEqual({ kind: 'away', forMs: 120_000 });

    fake.push('team.presence', { awaySince: null });
    expect(notice()).toEqual({ kind: 'back' });
    expect(text()).toBe(
      'The team store answers again: drafts that waited are on their way, and notes, claims and approvals can be done again.',
    );
    await vi.advanceTimersByTimeAsync(store.STORE_BACK_NOTICE_MS);
    expect(notice()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    stop();
  });

  it('gone again while it says the store is back: “back” goes at once; “back” told twice keeps its few seconds', async () => {
    const stop = store.useStorePresenceStore.getState().watch();
    await vi.advanceTimersByTimeAsync(0);
    fake.push('team.presence', { awaySince: START });
    await vi.advanceTimersByTimeAsync(STORE_AWAY_NOTICE_AFTER_MS);
    fake.push('team.presence', { awaySince: null });
    expect(notice()).toEqual({ kind: 'back' });
    fake.push('team.presence', { awaySince: Date.now() });
    expect(notice()).toBeNull();
    await vi.advanceTimersByTimeAsync(STORE_AWAY_NOTICE_AFTER_MS);
    expect(notice()).toEqual({ kind: 'away', forMs: STORE_AWAY_NOTICE_AFTER_MS });

    fake.push('team.presence', { awaySince: null });
    await store.useStorePresenceStore.getState().load();
    expect(notice()).toEqual({ kind: 'back' });
    await vi.advanceTimersByTimeAsync(store.STORE_BACK_NOTICE_MS);
    expect(notice()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    stop();
  });

  it('opened while the store has long been away, says so at once; stops its clock when no longer watched', async () => {
    presence = { awaySince: START - 5 * 60_000 };
    const stop = store.useStorePresenceStore.getState().watch();
    await vi.advanceTimersByTimeAsync(0);
    expect(notice()).toEqual({ kind: 'away', forMs: 5 * 60_000 });
    expect(fake.listeners('team.presence')).toBe(1);
    stop();
    expect(fake.listeners('team.presence')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(notice()).toBeNull();
  });

  it('an answer to its question older than a change main pushed since is not taken', async () => {
    let answer!: (value: StorePresence) => void;
    fake.api.team.presence = vi.fn(() => new Promise<StorePresence>((resolve) => (answer = resolve)));
    const stop = store.useStorePresenceStore.getState().watch();
    fake.push('team.presence', { awaySince: START - 60_000 });
    answer({ awaySince: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.useStorePresenceStore.getState().awaySince).toBe(START - 60_000);
    expect(notice()).toEqual({ kind: 'away', forMs: 60_000 });
    stop();
  });

  it('is a polite status named “Team store”, empty while there is nothing to say', () => {
    expect(renderToStaticMarkup(createElement(banner.StoreNotice))).toBe(
      '<div role="status" aria-label="Team store" class="store-notice"></div>',
    );
  });
});
