import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** What an empty list or pane says: what is (not) here, and what to do about it. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty-state">
      <Icon aria-hidden="true" className="empty-state-icon" />
      <p className="empty-state-title">{title}</p>
      {children && <p className="empty-state-text">{children}</p>}
      {action}
    </div>
  );
}
