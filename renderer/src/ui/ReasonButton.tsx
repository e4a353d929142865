import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Button, type ButtonWeight } from './Button.tsx';

interface ReasonButtonProps {
  children: ReactNode;
  /** Null when the action is available; otherwise why not, shown beside the button. */
  unavailable: string | null;
  onClick(): void;
  busy?: boolean;
  /** The key that runs it, shown on the button (the screen wires the key itself). */
  shortcut?: string;
  weight?: ButtonWeight;
  icon?: LucideIcon;
}

/**
 * A button that, when its action is not available, says why. It stays focusable (aria-disabled
 * rather than disabled) so that a keyboard or screen-reader user meets the reason too.
 */
export function ReasonButton({
  children,
  unavailable,
  onClick,
  busy = false,
  shortcut,
  weight = 'secondary',
  icon,
}: ReasonButtonProps) {
  const reasonId = useId();
  const blocked = unavailable !== null || busy;
  return (
    <span className="reason-button">
      <Button
        weight={weight}
        icon={icon}
        shortcut={shortcut}
        aria-disabled={blocked || undefined}
        aria-describedby={unavailable ? reasonId : undefined}
        onClick={() => {
          if (!blocked) onClick();
        }}
      >
        {children}
      </Button>
      {unavailable && (
        <small id={reasonId} className="hint">
          {unavailable}
        </small>
      )}
    </span>
  );
}
