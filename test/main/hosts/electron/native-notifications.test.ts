import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allNotifications } from '#contract/notifications.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import { showNatively } from '#main/features/webhooks/index.ts';
import type { Settings } from '#main/ground/config/settings-store.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { createNotifier, NOTICE_GAP_MS } from '#main/ground/notifier.ts';
import { nativeNotifications } from '#main/hosts/electron/native-notifications.ts';

/** Electron's Notification, as the glue uses it (the glue takes the class, so no Electron runs here). */
class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static supported = true;
  static isSupported = () => FakeNotification.supported;
  readonly options: { title?: string; body?: string };
  constructor(options: { title?: string; body?: string }) {
    super();
    this.options = options;
  }
  show() {
    FakeNotification.shown.push(this);
  }
}

const CUSTOMER = '5f0c4c57-7c1a-4d7e-9d49-1f0b1f8d2f11';

beforeEach(() => {
  FakeNotification.shown = [];
  FakeNotification.supported = true;
});

function glued() {
  const events = createEventHub({ validate: true });
  const clicked: unknown[] = [];
  events.subscribe((event, payload) => {
    if (event === 'notification.clicked') clicked.push(payload);
  });
  let focused = 0;
  showNatively(
    events,
    nativeNotifications(FakeNotification, () => focused++),
  );
  return { events, clicked, focused: () => focused };
}

describe('native notifications', () => {
  it('shows each notice main lets reach the desktop, and a click focuses the window and opens the customer', () => {
    const { events, clicked, focused } = glued();
    const notice = {
      customerId: CUSTOMER,
      status: 'verified',
      title: 'Customer verified',
      body: 'Ada Lovelace',
    };
    events.emit('notification.show', { ...notice, desktop: true });
    // Held back by main's rule: a toast in browser mode, nothing on the desktop.
    events.emit('notification.show', { ...notice, title: 'Retry needed', desktop: false });
    events.emit('notification.show', { ...notice, title: 'Document needed' });
    expect(FakeNotification.shown.map((n) => n.options)).toEqual([
      { title: 'Customer verified', body: 'Ada Lovelace', silent: false },
    ]);
    FakeNotification.shown[0]?.emit('click');
    expect(focused()).toBe(1);
    expect(clicked).toEqual([{ customerId: CUSTOMER }]);
  });

  it('holds each notification until it closes or fails, and reports a failure', () => {
    const failures: string[] = [];
    const native = nativeNotifications(
      FakeNotification,
      () => {},
      (error) => failures.push(error),
    );
    const notice = { customerId: 'c', status: 'verified', title: 'Customer verified', body: 'Ada' };
    native.show(notice, () => {});
    native.show(notice, () => {});
    expect(native.held).toBe(2);
    FakeNotification.shown[0]?.emit('close');
    expect(native.held).toBe(1);
    FakeNotification.shown[1]?.emit('failed', {}, 'The app is not signed');
    expect(native.held).toBe(0);
    expect(failures).toEqual(['The app is not signed']);
  });

  it('stays quiet where the system has no notifications', () => {
    FakeNotification.supported = false;
    const { events } = glued();
    events.emit('notification.show', {
      customerId: 'x',
      status: 'verified',
      title: 't',
      body: 'b',
      desktop: true,
    });
    expect(FakeNotification.shown).toEqual([]);
  });
});

describe('being told, from main’s rule to the desktop (fake time)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a case handed over shows once a minute, never while the window shows it, and a click opens it', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T09:00:00.000Z'));
    const { events, clicked, focused } = glued();
    const settings = { get: () => ({ notifications: allNotifications(true) }) as Settings };
    const notifier = createNotifier({ settings, events });
    const handed: StatusNotice = {
      customerId: CUSTOMER,
      status: 'claim',
      title: 'Case assigned to you',
      body: 'lee reassigned a case to you. Note: you know them',
    };

    notifier.tell('assigned', handed);
    notifier.tell('takenOver', { ...handed, title: 'Case reassigned' });
    expect(FakeNotification.shown.map((n) => n.options.title)).toEqual(['Case assigned to you']);

    vi.advanceTimersByTime(NOTICE_GAP_MS);
    notifier.viewing({ customerId: CUSTOMER, focused: true });
    notifier.tell('takenOver', { ...handed, title: 'Case taken over' });
    expect(FakeNotification.shown).toHaveLength(1);
    notifier.viewing({ customerId: CUSTOMER, focused: false });
    notifier.tell('takenOver', { ...handed, title: 'Case taken over' });
    expect(FakeNotification.shown.map((n) => n.options.title)).toEqual([
      'Case assigned to you',
      'Case taken over',
    ]);

    FakeNotification.shown[1]?.emit('click');
    expect(focused()).toBe(1);
    expect(clicked).toEqual([{ customerId: CUSTOMER }]);
  });
});
