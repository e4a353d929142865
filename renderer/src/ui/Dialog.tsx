import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { IconButton } from './Button.tsx';

interface DialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
}

/**
 * A modal dialog on the native `<dialog>`: the browser traps focus, closes it on Esc and keeps the
 * rest of the page inert. Focus starts on the element marked `data-autofocus` (else the first control)
 * and goes back where it was when the dialog closes.
 */
export function Dialog({ open, title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const returnFocus = document.activeElement;
    dialog.showModal();
    // React's autoFocus runs before the dialog is open; this is the field the dialog is for.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog.close();
      if (returnFocus instanceof HTMLElement && returnFocus.isConnected) returnFocus.focus();
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <IconButton icon={X} label="Close" className="dialog-close" onClick={onClose} />
          </header>
          {children}
        </>
      )}
    </dialog>
  );
}
