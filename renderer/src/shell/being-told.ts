// Being told (#39), the window's part. Main decides which notices are shown (ground/notifier.ts); to stay quiet
// about the case the reviewer is looking at, it needs to know which case is on screen and whether the window
// has the focus, and only the page knows both in either host. Browser mode shows each notice through the Web
// Notifications API once the reviewer allowed it (Settings asks: browsers ask only on a gesture), else a toast.
import type { Viewing } from '#contract/notifications.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import { api } from '../api.ts';
import type { Stop } from '../shared/data/watch.ts';
import { useAppStore } from '../store.ts';

/** The case on screen (the queue's open case) and whether the window has the focus and is shown. */
function viewingNow(): Viewing {
  const { view, customerId } = useAppStore.getState();
  return {
    customerId: view === 'queue' ? customerId : null,
    focused: document.visibilityState === 'visible' && document.hasFocus(),
  };
}

/** Tells main what is on screen whenever it changes: another case, the focus gained or lost. */
export function watchViewing(): Stop {
  let told = '';
  const tell = () => {
    const now = viewingNow();
    const key = JSON.stringify(now);
    if (key === told) return;
    told = key;
    // A desk that does not answer (restarting, gone) loses nothing: the next change says it again.
    api.notifications.viewing(now).catch(() => {
      told = '';
    });
  };
  tell();
  const stopApp = useAppStore.subscribe(tell);
  window.addEventListener('focus', tell);
  window.addEventListener('blur', tell);
  document.addEventListener('visibilitychange', tell);
  return () => {
    stopApp();
    window.removeEventListener('focus', tell);
    window.removeEventListener('blur', tell);
    document.removeEventListener('visibilitychange', tell);
  };
}

/**
 * Shows a notice as the browser's own notification when the reviewer allowed them; false when not (the
 * caller shows a toast). A click brings the window forward and opens the case, as a toast's does.
 */
export function showWebNotification(notice: StatusNotice): boolean {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  // One per case in the notification centre: a newer notice replaces the older.
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.customerId });
  notification.onclick = () => {
    window.focus();
    notification.close();
    useAppStore.getState().openCustomer(notice.customerId);
  };
  return true;
}
