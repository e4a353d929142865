import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { showNatively } from '#main/features/webhooks/index.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { nativeNotifications } from '#main/hosts/electron/native-notifications.ts';

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

describe('native notifications', () => {
  it('shows each status notice natively, and a click focuses the window and opens the customer', () => {
    const events = createEventHub();
    const clicked: unknown[] = [];
    events.subscribe((event, payload) => {
      if (event === 'notification.clicked') clicked.push(payload);
    });
    let focused = 0;
    showNatively(
      events,
      nativeNotifications(FakeNotification, () => focused++),
    );
    const notice = {
      customerId: '5f0c4c57-7c1a-4d7e-9d49-1f0b1f8d2f11',
      status: 'verified',
      title: 'Customer verified',
      body: 'Ada Lovelace',
    };
    events.emit('notification.show', notice);
    expect(FakeNotification.shown.map((n) => n.options)).toEqual([
      { title: 'Customer verified', body: 'Ada Lovelace', silent: false },
    ]);
    FakeNotification.shown[0]?.emit('click');
    expect(focused).toBe(1);
    expect(clicked).toEqual([{ customerId: notice.customerId }]);
  });

  it('holds each notification until it closes or fails, and reports a failure', () => {
    FakeNotification.shown = [];
    FakeNotification.supported = true;
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
    FakeNotification.shown = [];
    FakeNotification.supported = false;
    const events = createEventHub();
    showNatively(
      events,
      nativeNotifications(FakeNotification, () => {}),
    );
    events.emit('notification.show', { customerId: 'x', status: 'verified', title: 't', body: 'b' });
    expect(FakeNotification.shown).toEqual([]);
  });
});
