import { statusName } from '#contract/statuses.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import type { JournalCustomer } from '#main/data/journal/index.ts';
import type { EventHub } from '#main/ground/event-hub.ts';
import type { Notifier } from '#main/ground/notifier.ts';

/**
 * Notifications of status changes learnt from events. Main pushes `notification.show`; the
 * renderer shows a toast in browser mode, and under Electron the glue shows it natively through
 * `NativeNotifications` (this folder must not import `electron`).
 */
export type Notify = (notice: StatusNotice) => void;

/** What the Electron glue implements with `new Notification({ title, body })`. */
export interface NativeNotifications {
  show(notice: StatusNotice, onClick: () => void): void;
}

const TITLES: Record<string, string> = {
  verified: 'Customer verified',
  document: 'Document needed',
  retry: 'Retry needed',
  suspended: 'Customer suspended',
  kba: 'Knowledge-based questions needed',
  deactivated: 'Customer deactivated',
};

export function statusNotice(customer: Pick<JournalCustomer, 'id' | 'name' | 'status'>): StatusNotice {
  return {
    customerId: customer.id,
    status: customer.status,
    // Own keys only: a status named like an Object method ("constructor") is just another unknown one.
    title: Object.hasOwn(TITLES, customer.status)
      ? (TITLES[customer.status] as string)
      : `Status now “${statusName(customer.status)}”`,
    body: customer.name,
  };
}

/** Status notices are told as their own kind (the reviewer's switch, a minute per case, the focus). */
export function createNotify(notifier: Notifier): Notify {
  return (notice) => {
    notifier.tell('status', notice);
  };
}

/**
 * For the Electron glue: shows each pushed notice main's rule lets reach the desktop natively; a click pushes `notification.clicked`
 * so the window opens that customer. Returns the unsubscribe function.
 */
export function showNatively(events: EventHub, native: NativeNotifications): () => void {
  return events.subscribe((event, payload) => {
    if (event !== 'notification.show') return;
    const notice = payload as StatusNotice;
    // Held back by main's rule (a minute per case, the case on screen): not on the desktop.
    if (!notice.desktop) return;
    native.show(notice, () => events.emit('notification.clicked', { customerId: notice.customerId }));
  });
}
