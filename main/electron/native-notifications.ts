import type { NotificationConstructorOptions } from 'electron';
import type { NativeNotifications } from '../webhooks/notify.ts';

/** The part of Electron's Notification used here. */
interface ClickableNotification {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

type NotificationClass = {
  new (options: NotificationConstructorOptions): ClickableNotification;
  isSupported(): boolean;
};

/** Status changes as the operating system's notifications; a click brings the window forward first. */
export function nativeNotifications(
  NotificationCtor: NotificationClass,
  focusWindow: () => void,
): NativeNotifications {
  return {
    show(notice, onClick) {
      if (!NotificationCtor.isSupported()) return;
      const notification = new NotificationCtor({ title: notice.title, body: notice.body, silent: false });
      notification.on('click', () => {
        focusWindow();
        onClick();
      });
      notification.show();
    },
  };
}
