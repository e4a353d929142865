import { describe, expect, it, vi } from 'vitest';
import type { SettingsView } from '#contract/settings.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import { fakeApi, installFresh, settle } from '../support/renderer/fake-api.ts';
import { ONLINE, sandboxSettings } from '../support/renderer/fixtures.ts';

const INFO = { name: 'Vetted', version: '0.1.0', host: 'browser', serviceMode: 'sandbox' } as const;
const NOTICE: StatusNotice = {
  customerId: 'c1',
  title: 'Ada Lovelace',
  body: 'Now verified.',
  status: 'verified',
};
const SETTINGS: SettingsView = sandboxSettings();

async function app() {
  const fake = fakeApi({
    app: { info: vi.fn(async () => INFO) },
    service: { status: vi.fn(async () => ONLINE), test: vi.fn() },
    settings: { get: vi.fn(async () => SETTINGS), update: vi.fn() },
  });
  await installFresh(fake);
  const { useAppStore } = await import('#renderer/store.ts');
  const { useToastStore } = await import('#renderer/shell/toast-store.ts');
  const { useSettingsStore } = await import('#renderer/features/settings/settings-store.ts');
  return { fake, useAppStore, useToastStore, useSettingsStore };
}

describe('app-wide stores', () => {
  it('the app store loads, follows the connection while watched, and opens a clicked notice’s customer', async () => {
    const { fake, useAppStore } = await app();
    await useAppStore.getState().load();
    expect(useAppStore.getState().info).toEqual(INFO);
    const stop = useAppStore.getState().watch();
    fake.push('service.status', { ...ONLINE, state: 'offline' });
    expect(useAppStore.getState().service?.state).toBe('offline');
    fake.push('notification.clicked', { customerId: 'c1' });
    expect(useAppStore.getState()).toMatchObject({ view: 'queue', customerId: 'c1' });
    stop();
    expect(fake.listeners('service.status')).toBe(0);
    expect(fake.listeners('notification.clicked')).toBe(0);
  });

  it('opens the case a link names, from whatever screen is open', async () => {
    const { fake, useAppStore } = await app();
    const stop = useAppStore.getState().watch();
    useAppStore.getState().show('settings');
    fake.push('case.open', { customerId: '9b2e4c1a-0f0e-4a57-9c1e-2d8e3f1a7b6c' });
    expect(useAppStore.getState()).toMatchObject({
      view: 'queue',
      section: 'all',
      customerId: '9b2e4c1a-0f0e-4a57-9c1e-2d8e3f1a7b6c',
    });
    stop();
    expect(fake.listeners('case.open')).toBe(0);
  });

  it('toasts a status notice in browser mode, one per customer', async () => {
    const { fake, useToastStore } = await app();
    const stop = useToastStore.getState().watch();
    fake.push('notification.show', NOTICE);
    fake.push('notification.show', { ...NOTICE, body: 'Now suspended.' });
    await settle();
    expect(useToastStore.getState().toasts.map((toast) => toast.body)).toEqual(['Now suspended.']);
    stop();
    expect(fake.listeners('notification.show')).toBe(0);
  });

  it('the settings store keeps main’s field errors by field name', async () => {
    const { fake, useSettingsStore } = await app();
    const { VettedError } = await import('#contract/errors.ts');
    vi.mocked(fake.api.settings.update).mockRejectedValueOnce(
      new VettedError({
        code: 'Invalid',
        message: 'Check the fields.',
        fields: { '/baseUrl': 'Use https.' },
      }),
    );
    expect(await useSettingsStore.getState().save({ baseUrl: 'http://x' })).toBe(false);
    expect(useSettingsStore.getState().fieldErrors).toEqual({ baseUrl: 'Use https.' });
  });
});
