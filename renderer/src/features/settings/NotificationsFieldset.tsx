import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS } from '#contract/notifications.ts';
import { useAppStore } from '#renderer/store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import type { DraftFields } from './ServiceFieldset.tsx';

/** Settings → Notifications: one switch per moment, and in browser mode the browser's own permission. */
export function NotificationsFieldset({ draft, change }: Omit<DraftFields, 'fieldErrors'>) {
  const browser = useAppStore((state) => state.info?.host === 'browser');
  return (
    <fieldset>
      <legend>Notifications</legend>
      <p className="hint">
        A desktop notification for each moment ticked: at most one per case a minute, none for the case on
        screen.
      </p>
      {NOTIFICATION_KINDS.map((kind) => (
        <label key={kind} className="checkbox">
          <input
            type="checkbox"
            name={`notifications.${kind}`}
            checked={draft.notifications[kind]}
            onChange={(event) =>
              change('notifications', { ...draft.notifications, [kind]: event.target.checked })
            }
          />
          {NOTIFICATION_KIND_LABELS[kind]}
        </label>
      ))}
      {browser && <BrowserPermission />}
    </fieldset>
  );
}

type Permission = NotificationPermission | 'unsupported';

const permissionNow = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

const PERMISSION_TEXT: Record<Exclude<Permission, 'default'>, string> = {
  granted: 'This browser shows them on the desktop.',
  denied: 'This browser blocks them, so they show inside Vetted. Allow notifications in its site settings.',
  unsupported: 'This browser has no desktop notifications, so they show inside Vetted.',
};

/** Browsers ask only on a gesture: the reviewer's click on this button. Until then, notices are toasts. */
function BrowserPermission() {
  const [permission, setPermission] = useState<Permission>(permissionNow);
  if (permission !== 'default') return <p className="hint">{PERMISSION_TEXT[permission]}</p>;
  const ask = async () => {
    setPermission(await Notification.requestPermission());
  };
  return (
    <div className="notification-permission">
      <p className="hint">Until this browser is allowed to, notifications show inside Vetted.</p>
      <Button icon={BellRing} onClick={() => void ask()}>
        Allow desktop notifications
      </Button>
    </div>
  );
}
