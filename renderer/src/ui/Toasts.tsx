import { Bell, X } from 'lucide-react';
import { useRef } from 'react';
import { flushSync } from 'react-dom';

/** A toast: a title and a line, opened (the app says what that does) or dismissed. */
export interface Toast {
  id: number;
  title: string;
  body: string;
}

interface ToastsProps<T extends Toast> {
  toasts: readonly T[];
  onDismiss(id: number): void;
  onOpen(toast: T): void;
}

import { IconButton } from './Button.tsx';

/**
 * Status changes as toasts (browser mode). The region is a polite live region that is always in
 * the page, so what enters it is read out; nothing here ever takes the focus on its own. Toasts stay
 * until dismissed (no timer to race against), and each is a pair of buttons in the tab order.
 */
export function Toasts<T extends Toast>({ toasts, onDismiss, onOpen }: ToastsProps<T>) {
  const listRef = useRef<HTMLUListElement>(null);

  const remove = (toast: T) => {
    const list = listRef.current;
    const hadFocus = list?.contains(document.activeElement) ?? false;
    flushSync(() => onDismiss(toast.id));
    // The removed toast took the focus with it: hand it to a remaining toast rather than to nothing.
    if (hadFocus) list?.querySelector<HTMLButtonElement>('.toast-open')?.focus();
  };
  const open = (toast: T) => {
    onDismiss(toast.id);
    onOpen(toast);
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
