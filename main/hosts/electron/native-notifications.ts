import type { NotificationConstructorOptions } from 'electron';
import type { NativeNotifications } from '#main/features/webhooks/notify.ts';

/** The part of Electron's Notification used here. */
interface ClickableNotification {
  on(event: 'click' | 'close', listener: () => void): unknown;
  on(event: 'failed', listener: (event: unknown, error: string) => void): unknown;
  show(): void;
}

type NotificationClass = {
  new (options: NotificationConstructorOptions): ClickableNotification;
  isSupported(): boolean;
};

/**
 * Status changes as the operating system's notifications; a click brings the window forward first.
 * Each notification is held until it closes or fails: one the garbage collector takes early loses its
 * click handler (a known Electron pitfall). A failure (an unsigned macOS build, Windows without the
 * app's AppUserModelId) is logged, not swallowed.
 */
export function nativeNotifications(
  NotificationCtor: NotificationClass,
  focusWindow: () => void,
  onFailed: (error: string) => void = () => {},
): NativeNotifications & { readonly held: number } {
  const held = new Set<ClickableNotification>();
  return {
    get held() {
      return held.size;
    },
    show(notice, onClick) {
      if (!NotificationCtor.isSupported()) return;
      const notification = new NotificationCtor({ title: notice.title, body: notice.body, silent: false });
      held.add(notification);
      notification.on('click', () => {
        focusWindow();
        onClick();
      });
      notification.on('close', () => held.delete(notification));
      notification.on('failed', (_event, error) => {
        held.delete(notification);
        onFailed(error);
      });
      notification.show();
    },
  };
}
