import { SECTION_TITLES, SECTIONS, type Section } from '../../../../contract/queue.ts';
import { type SectionFilter, useQueueStore } from './queue-store.ts';

const FILTERS: { value: SectionFilter; title: string }[] = [
  { value: 'all', title: 'All' },
  ...SECTIONS.map((section) => ({ value: section, title: SECTION_TITLES[section] })),
];

function countOf(filter: SectionFilter, counts: Record<Section, number>): number {
  return filter === 'all' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[filter];
}

/** The sections as toggle buttons, each with its live count of rows matching the search. */
export function SectionNav() {
  const section = useQueueStore((state) => state.section);
  const counts = useQueueStore((state) => state.counts);
  const setSection = useQueueStore((state) => state.setSection);
  return (
    <nav aria-label="Sections" className="queue-sections">
      <ul>
        {FILTERS.map((filter) => (
          <li key={filter.value}>
            <button
              type="button"
              aria-pressed={section === filter.value}
              onClick={() => setSection(filter.value)}
            >
              <span className="queue-section-title">{filter.title}</span>{' '}
              <span className="queue-section-count">{counts ? countOf(filter.value, counts) : ''}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
