// Being told (#39): the window says which case is on screen and whether it has the focus, so the desk's one
// rule for notifications (ground/notifier.ts) stays quiet about the case the reviewer is looking at. The
// renderer says it because only it knows the case on screen, and it knows the focus in both hosts (main's
// Electron host knows the window's focus, browser mode's does not).
import type { DeskContext, Feature } from '../feature.ts';

export function notificationsFeature({
  notifier,
}: Pick<DeskContext, 'notifier'>): Feature<'notifications.viewing'> {
  return {
    handlers: {
      'notifications.viewing'(viewing) {
        notifier.viewing(viewing);
        return { ok: true as const };
      },
    },
  };
}
