import { AlarmClock } from 'lucide-react';
import { COUNT_CAP } from '#contract/queue-view.ts';

/** "1,000+" past the cap: counting further would cost more with every customer. */
export function formatCount(n: number, capped = false): string {
  if (n > COUNT_CAP) return `${COUNT_CAP.toLocaleString('en')}+`;
  return capped ? `${n.toLocaleString('en')}+` : n.toLocaleString('en');
}

/** How many of a section's cases are overdue, when any are. */
export function OverdueCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="queue-section-overdue">
      {' '}
      <AlarmClock aria-hidden="true" className="queue-section-overdue-icon" />
      {formatCount(count)} overdue
    </span>
  );
}
