import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusNotice } from '#contract/webhooks.ts';
import { fakeApi, installFresh, settle } from '#test/support/renderer/fake-api.ts';
import { sandboxSettings } from '#test/support/renderer/fixtures.ts';

const CUSTOMER = '5f0c4c57-7c1a-4d7e-9d49-1f0b1f8d2f11';
const NOTICE: StatusNotice = {
  customerId: CUSTOMER,
  status: 'claim',
  title: 'Case assigned to you',
  body: 'lee assigned a case to you.',
};

/** A window and a document as much as the page's part uses: focus, visibility, their events. */
function browserPage() {
  const page = Object.assign(new EventTarget(), {
    location: { hash: '' },
    focus: vi.fn(),
  });
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible', focused: true });
  const history = {
    state: null,
    pushState: (_: unknown, __: string, hash: string) => {
      page.location.hash = hash;
    },
    replaceState: (_: unknown, __: string, hash: string) => {
      page.location.hash = hash;
    },
  };
  vi.stubGlobal('window', page);
  vi.stubGlobal('history', history);
  vi.stubGlobal('document', Object.assign(doc, { hasFocus: () => doc.focused }));
  return { page, doc };
}

/** The browser's Notification as the page sees it once the reviewer allowed (or not) notifications. */
function browserNotifications(permission: NotificationPermission) {
  const shown: { title: string; options: NotificationOptions; onclick: (() => void) | null }[] = [];
  class Observed {
    static permission = permission;
    onclick: (() => void) | null = null;
    constructor(title: string, options: NotificationOptions) {
      shown.push(Object.assign(this, { title, options }));
    }
    close() {}
  }
  vi.stubGlobal('Notification', Observed);
  return shown as unknown as { title: string; options: NotificationOptions; onclick: () => void }[];
}

async function renderer(host: 'browser' | 'electron' = 'browser') {
  const viewing = vi.fn(async (_now: unknown) => ({ ok: true as const }));
  const fake = fakeApi({
    app: { info: vi.fn(async () => ({ name: 'Vetted', version: '0.1.0', host, serviceMode: 'sandbox' })) },
    notifications: { viewing },
  });
  await installFresh(fake);
  const { useAppStore } = await import('#renderer/store.ts');
  const { useToastStore } = await import('#renderer/shell/toast-store.ts');
  const { watchViewing } = await import('#renderer/shell/being-told.ts');
  return { fake, viewing, useAppStore, useToastStore, watchViewing };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the window tells main what is on screen', () => {
  it('says the open case and the focus on every change, once each, and stops when asked', async () => {
    const { page, doc } = browserPage();
    const { viewing, useAppStore, watchViewing } = await renderer();
    const stop = watchViewing();
    useAppStore.getState().openCustomer(CUSTOMER);
    doc.focused = false;
    page.dispatchEvent(new Event('blur'));
    page.dispatchEvent(new Event('blur'));
    doc.focused = true;
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    useAppStore.getState().show('settings');
    stop();
    doc.visibilityState = 'visible';
    page.dispatchEvent(new Event('focus'));
    expect(viewing.mock.calls.map(([now]) => now)).toEqual([
      { customerId: null, focused: true },
      { customerId: CUSTOMER, focused: true },
      { customerId: CUSTOMER, focused: false },
      { customerId: null, focused: false },
    ]);
  });
});

describe('browser mode shows notices', () => {
  it('on the desktop once allowed, when main lets it; a click opens the case; the rest as toasts', async () => {
    const { page } = browserPage();
    const shown = browserNotifications('granted');
    const { fake, useAppStore, useToastStore } = await renderer();
    const stop = useToastStore.getState().watch();
    fake.push('notification.show', { ...NOTICE, desktop: true });
    fake.push('notification.show', { ...NOTICE, title: 'Case taken over', desktop: false });
    await settle();
    expect(shown.map(({ title, options }) => [title, options.body, options.tag])).toEqual([
      ['Case assigned to you', NOTICE.body, CUSTOMER],
    ]);
    expect(useToastStore.getState().toasts.map((toast) => toast.title)).toEqual(['Case taken over']);
    shown[0]?.onclick();
    expect(page.focus).toHaveBeenCalled();
    expect(useAppStore.getState()).toMatchObject({ view: 'queue', customerId: CUSTOMER });
    stop();
  });

  it('as toasts until the reviewer allows notifications', async () => {
    browserPage();
    const shown = browserNotifications('default');
    const { fake, useToastStore } = await renderer();
    const stop = useToastStore.getState().watch();
    fake.push('notification.show', { ...NOTICE, desktop: true });
    await settle();
    expect(shown).toEqual([]);
    expect(useToastStore.getState().toasts.map((toast) => toast.title)).toEqual(['Case assigned to you']);
    stop();
  });

  it('not at all under Electron, whose main shows them natively', async () => {
    browserPage();
    const shown = browserNotifications('granted');
    const { fake, useToastStore } = await renderer('electron');
    const stop = useToastStore.getState().watch();
    fake.push('notification.show', { ...NOTICE, desktop: true });
    await settle();
    expect(shown).toEqual([]);
    expect(useToastStore.getState().toasts).toEqual([]);
    stop();
  });
});

describe('Settings → Notifications', () => {
  it('sends only the switches changed', async () => {
    const { draftOf, patchOf } = await import('#renderer/features/settings/settings-draft.ts');
    const settings = sandboxSettings();
    const draft = draftOf(settings);
    expect(patchOf(draft, settings)).toEqual({});
    draft.notifications.assigned = false;
    expect(settings.notifications.assigned).toBe(true);
    expect(patchOf(draft, settings)).toEqual({ notifications: { assigned: false } });
  });
});
