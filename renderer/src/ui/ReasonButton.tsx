import { type ReactNode, useId } from 'react';
import { KeyHint } from './KeyHint.tsx';

interface ReasonButtonProps {
  children: ReactNode;
  /** Null when the action is available; otherwise why not, shown beside the button. */
  unavailable: string | null;
  onClick(): void;
  busy?: boolean;
  /** The key that runs it, shown on the button (the screen wires the key itself). */
  shortcut?: string;
}

/**
 * A button that, when its action is not available, says why. It stays focusable (aria-disabled
 * rather than disabled) so that a keyboard or screen-reader user meets the reason too.
 */
export function ReasonButton({ children, unavailable, onClick, busy = false, shortcut }: ReasonButtonProps) {
  const reasonId = useId();
  const blocked = unavailable !== null || busy;
  return (
    <span className="reason-button">
      <button
        type="button"
        aria-disabled={blocked || undefined}
        aria-describedby={unavailable ? reasonId : undefined}
        aria-keyshortcuts={shortcut}
        onClick={() => {
          if (!blocked) onClick();
        }}
      >
        {children}
        {shortcut && (
          <>
            {' '}
            <KeyHint keys={shortcut} />
          </>
        )}
      </button>
      {unavailable && (
        <small id={reasonId} className="hint">
          {unavailable}
        </small>
      )}
    </span>
  );
}
