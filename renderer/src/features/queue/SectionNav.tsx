import type { ReactNode } from 'react';
import { SECTION_TITLES, SECTIONS, type Section } from '#contract/queue.ts';
import { AGEING_SECTIONS, type AgeingSection } from '#contract/queue-view.ts';
import type { SectionFilter } from '#renderer/route.ts';
import { sectionIcon } from '#renderer/shared/case/status-look.ts';
import { useAppStore } from '#renderer/store.ts';
import { ClaimSections } from './ClaimSections.tsx';
import { useOverdueStore } from './overdue-store.ts';
import { useQueueStore } from './queue-store.ts';
import { formatCount, OverdueCount } from './section-counts.tsx';

const FILTERS: { value: SectionFilter; title: string }[] = [
  { value: 'all', title: 'All' },
  ...SECTIONS.map((section) => ({ value: section, title: SECTION_TITLES[section] })),
];

function countOf(filter: SectionFilter, counts: Record<Section, number>): number {
  return filter === 'all' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[filter];
}

const isAgeing = (section: SectionFilter): section is AgeingSection =>
  (AGEING_SECTIONS as readonly string[]).includes(section);

/** The sections as toggle buttons, each with its live count of rows matching, and how many are overdue. */
export function SectionNav({
  onNextCase,
  waiting,
}: {
  onNextCase: (() => void) | null;
  /** What waits for a second lead's approval (the shell hands it in). */
  waiting: ReactNode;
}) {
  const section = useQueueStore((state) => state.section);
  const counts = useQueueStore((state) => state.counts);
  const capped = useQueueStore((state) => state.capped);
  const overdue = useOverdueStore((state) => state.overdue);
  const open = (value: SectionFilter) => {
    const { navigate, customerId } = useAppStore.getState();
    navigate({ view: 'queue', section: value, customerId });
  };
  return (
    <nav aria-label="Sections" className="queue-sections">
      <ul>
        {FILTERS.map((filter) => {
          const late = overdue && isAgeing(filter.value) ? overdue.counts[filter.value] : 0;
          const Icon = sectionIcon(filter.value);
          return (
            <li key={filter.value}>
              <button
                type="button"
                className="queue-section"
                aria-pressed={section === filter.value}
                onClick={() => open(filter.value)}
              >
                <Icon aria-hidden="true" className="queue-section-icon" />
                <span className="queue-section-title">{filter.title}</span>{' '}
                <span className="queue-section-count">
                  {counts && !(capped && filter.value !== 'drafts' && countOf(filter.value, counts) === 0)
                    ? formatCount(countOf(filter.value, counts), capped && filter.value !== 'drafts')
                    : ''}
                </span>
                <OverdueCount count={late} />
              </button>
            </li>
          );
        })}
      </ul>
      {onNextCase && <ClaimSections onNextCase={onNextCase} />}
      {waiting}
    </nav>
  );
}
