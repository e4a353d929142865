import type { ComponentType } from 'react';
import type { SectionFilter } from '#renderer/route.ts';

/**
 * What the queue shows of other features, handed in by the shell (renderer/src/shell/queue-parts.tsx): the
 * case panel, the exports in its toolbar, and what waits for a second lead's approval under its sections.
 * The queue imports none of those features, and none of them imports the queue.
 */
export interface QueueParts {
  CaseView: ComponentType<{ id: string; onBack(): void }>;
  /** `shown` reads the section and search the queue shows when an export is asked for. */
  Exports: ComponentType<{ shown(): { section: SectionFilter; search: string } }>;
  WaitingForApproval: ComponentType;
}
