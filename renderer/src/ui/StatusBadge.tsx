import type { LucideIcon } from 'lucide-react';

/** What a colour says, the same everywhere: nothing to see, waiting, done, your move, gone wrong. */
export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface BadgeLook {
  tone: Tone;
  icon: LucideIcon;
  label: string;
}

/** A status in colour, icon and words: never colour alone, so it reads in any scheme and to anyone. */
export function StatusBadge({ tone, icon: Icon, label, title }: BadgeLook & { title?: string | undefined }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      <Icon aria-hidden="true" className="badge-icon" />
      <span className="badge-label">{label}</span>
    </span>
  );
}
