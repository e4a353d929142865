import { Bell, X } from 'lucide-react';
import { useRef } from 'react';
import { flushSync } from 'react-dom';
import { IconButton } from './Button.tsx';
import { type Toast, useToastStore } from './toast-store.ts';

/**
 * Status changes as toasts (browser mode). The region is a polite live region that is always in
 * the page, so what enters it is read out; nothing here ever takes the focus on its own. Toasts stay
 * until dismissed (no timer to race against), and each is a pair of buttons in the tab order.
 */
export function Toasts({ onOpen }: { onOpen(customerId: string): void }) {
  const toasts = useToastStore((state) => state.toasts);
  const listRef = useRef<HTMLUListElement>(null);

  const remove = (toast: Toast) => {
    const list = listRef.current;
    const hadFocus = list?.contains(document.activeElement) ?? false;
    flushSync(() => useToastStore.getState().dismiss(toast.id));
    // The removed toast took the focus with it: hand it to a remaining toast rather than to nothing.
    if (hadFocus) list?.querySelector<HTMLButtonElement>('.toast-open')?.focus();
  };
  const open = (toast: Toast) => {
    useToastStore.getState().dismiss(toast.id);
    onOpen(toast.customerId);
  };

  return (
    <div role="status" aria-label="Notifications" className="toasts">
      {toasts.length > 0 && (
        <ul ref={listRef}>
          {toasts.map((toast) => (
            <li
              key={toast.id}
              className="toast"
              onKeyDown={(event) => {
                if (event.key !== 'Escape') return;
                // Esc here dismisses this toast only, not what Esc does for the screen behind it.
                event.preventDefault();
                remove(toast);
              }}
            >
              <Bell aria-hidden="true" className="toast-icon" />
              <button type="button" className="toast-open" onClick={() => open(toast)}>
                <strong>{toast.title}</strong> <span>{toast.body}</span>
              </button>
              <IconButton
                icon={X}
                className="toast-dismiss"
                label={`Dismiss: ${toast.title}, ${toast.body}`}
                onClick={() => remove(toast)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
