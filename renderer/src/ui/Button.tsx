import type { LucideIcon } from 'lucide-react';
import type { ButtonHTMLAttributes } from 'react';
import { KeyHint } from './KeyHint.tsx';

/**
 * How much a button asks for attention: `primary` is the one thing to do next (one per screen or case),
 * `secondary` the ordinary actions, `quiet` the ones that stay out of the way (toolbars), `danger` what
 * deletes or cannot be undone.
 */
export type ButtonWeight = 'primary' | 'secondary' | 'quiet' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  weight?: ButtonWeight;
  size?: 'md' | 'sm';
  /** An icon before the words (decorative: the words name the button). */
  icon?: LucideIcon | undefined;
  /** The key that runs it: shown as a chip and told to assistive technology (aria-keyshortcuts). */
  shortcut?: string | undefined;
}

export const buttonClass = (weight: ButtonWeight, size: 'md' | 'sm' = 'md', extra?: string) =>
  ['button', `button-${weight}`, size === 'sm' ? 'button-sm' : null, extra].filter(Boolean).join(' ');

/** A button of the design system: its weight, an optional icon and key. A plain `<button>` looks secondary. */
export function Button({
  weight = 'secondary',
  size = 'md',
  icon: Icon,
  shortcut,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass(weight, size, className)}
      aria-keyshortcuts={shortcut}
      {...rest}
    >
      {Icon && <Icon aria-hidden="true" className="button-icon" />}
      {children}
      {shortcut && <KeyHint keys={shortcut} />}
    </button>
  );
}

interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  icon: LucideIcon;
  /** The button's name: said by screen readers and shown on hover. */
  label: string;
  weight?: Exclude<ButtonWeight, 'primary'>;
}

/** A button that is only an icon: named by `label`, which also shows as its tooltip. */
export function IconButton({ icon: Icon, label, weight = 'quiet', className, ...rest }: IconButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className={buttonClass(weight, 'md', ['button-icon-only', className].filter(Boolean).join(' '))}
      {...rest}
    >
      <Icon aria-hidden="true" className="button-icon" />
    </button>
  );
}
