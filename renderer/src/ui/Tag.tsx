import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Tone } from './StatusBadge.tsx';

/** A small label beside something (Sandbox, Gone, Overdue): an attribute, where a badge is a status. */
export function Tag({
  tone = 'neutral',
  icon: Icon,
  title,
  children,
}: {
  tone?: Tone;
  icon?: LucideIcon;
  title?: string;
  children: ReactNode;
}) {
  return (
    <span className={`tag tag-${tone}`} title={title}>
      {Icon && <Icon aria-hidden="true" className="tag-icon" />}
      {children}
    </span>
  );
}
