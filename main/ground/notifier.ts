// Being told (#39): the one rule that decides how a moment is told. Every notice of the desk (a case handed
// over or taken, a four-eyes request or decision, a status, an overdue case) comes through `tell`. A kind the
// reviewer turned off is not told at all. Otherwise it is pushed as `notification.show`, marked `desktop` when
// it may reach the desktop: at most one per case a minute, and never for the case the focused window shows.
// The hosts follow the mark (Electron natively; browser mode as a Web Notification once allowed); browser
// mode's toasts, inside the window, show every notice as before, newest per case. Main's clock decides.
import type { NotificationKind, Viewing } from '#contract/notifications.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import type { Settings, SettingsStore } from './config/settings-store.ts';
import type { EventHub } from './event-hub.ts';

/** A case told on the desktop is not told there again within this: a burst of changes makes one. */
export const NOTICE_GAP_MS = 60_000;

/** Overdue cases have their own switch (Settings → ageing targets), older than the others. */
export type NoticeKind = NotificationKind | 'overdue';

/** What became of a notice: not told (its kind is off), told on the desktop, or only inside the window. */
export type Told = 'off' | 'desktop' | 'window';

export interface Notifier {
  tell(kind: NoticeKind, notice: Omit<StatusNotice, 'desktop'>): Told;
  /** What the window shows now (the renderer says, on every change of case or focus). */
  viewing(now: Viewing): void;
}

const switchedOn = (settings: Settings, kind: NoticeKind) =>
  kind === 'overdue' ? settings.overdueNotifications : settings.notifications[kind];

export function createNotifier(options: {
  settings: Pick<SettingsStore, 'get'>;
  events: Pick<EventHub, 'emit'>;
  clock?: () => Date;
}): Notifier {
  const { settings, events } = options;
  const clock = options.clock ?? (() => new Date());
  // When each case was last told on the desktop, oldest first (re-inserted when told again), so the stale
  // are pruned from the front and the map holds at most a minute's worth of cases.
  const lastTold = new Map<string, number>();
  let viewing: Viewing = { customerId: null, focused: false };

  const prune = (now: number) => {
    for (const [customerId, at] of lastTold) {
      if (now - at < NOTICE_GAP_MS) return;
      lastTold.delete(customerId);
    }
  };
  const mayReachDesktop = (customerId: string, now: number) => {
    // The reviewer is looking at this case: the screen already says it.
    if (viewing.focused && viewing.customerId === customerId) return false;
    prune(now);
    const last = lastTold.get(customerId);
    // A clock set back is no reason to stay silent for longer than a minute.
    return last === undefined || now < last || now - last >= NOTICE_GAP_MS;
  };

  return {
    tell(kind, notice) {
      if (!switchedOn(settings.get(), kind)) return 'off';
      const now = clock().getTime();
      const desktop = mayReachDesktop(notice.customerId, now);
      if (desktop) {
        lastTold.delete(notice.customerId);
        lastTold.set(notice.customerId, now);
      }
      events.emit('notification.show', { ...notice, desktop });
      return desktop ? 'desktop' : 'window';
    },
    viewing(now) {
      viewing = { ...now };
    },
  };
}
