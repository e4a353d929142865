import { type LucideIcon, SkipForward, UserRound, UserRoundCheck, UserRoundX } from 'lucide-react';
import { useEffect } from 'react';
import type { QueueFilters } from '#contract/queue-view.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { type HolderTally, tallyOf } from '#renderer/shared/team/claim-words.ts';
import { useClaimsStore } from '#renderer/shared/team/claims-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { useQueueStore } from './queue-store.ts';
import { formatCount, OverdueCount } from './section-counts.tsx';
import { NEXT_CASE_KEY } from './use-next-case.ts';

type ClaimFilter = NonNullable<QueueFilters['claim']>;

interface Choice {
  key: string;
  filter: ClaimFilter;
  title: string;
  icon: LucideIcon;
  tally: HolderTally;
  /** What the count counts, said after it. */
  unit: string;
}

const sameFilter = (a: QueueFilters['claim'], b: ClaimFilter) =>
  typeof a === 'object' && typeof b === 'object' ? a.reviewer === b.reviewer : a === b;

/**
 * Team mode's part of the sections: Mine, Unclaimed and each reviewer's cases, as toggles of the queue's
 * claim filter, each with its count and how many of them are overdue; and the next unclaimed case, one key.
 */
export function ClaimSections({ onNextCase }: { onNextCase(): void }) {
  const claim = useQueueStore((state) => state.filters.claim);
  const counts = useClaimsStore((state) => state.counts);
  const reviewers = useClaimsStore((state) => state.reviewers);
  useWatch(useClaimsStore.getState().watch);
  useEffect(() => {
    const { loadCounts, loadReviewers } = useClaimsStore.getState();
    void loadCounts();
    void loadReviewers();
  }, []);

  const choices: Choice[] = [
    {
      key: 'mine',
      filter: 'mine',
      title: 'Mine',
      icon: UserRoundCheck,
      tally: tallyOf(counts, 'mine'),
      unit: 'held',
    },
    {
      key: 'unclaimed',
      filter: 'unclaimed',
      title: 'Unclaimed',
      icon: UserRoundX,
      tally: tallyOf(counts, null),
      unit: 'waiting',
    },
    ...reviewers
      .filter((reviewer) => !reviewer.me)
      .map((reviewer) => ({
        key: `reviewer-${reviewer.login}`,
        filter: { reviewer: reviewer.login },
        title: reviewer.login,
        icon: UserRound,
        tally: tallyOf(counts, reviewer.login),
        unit: 'held',
      })),
  ];
  const toggle = (filter: ClaimFilter) => {
    const { filters, setFilters } = useQueueStore.getState();
    const { claim: _, ...others } = filters;
    setFilters(sameFilter(filters.claim, filter) ? others : { ...others, claim: filter });
  };

  return (
    <div className="queue-claims">
      <h3 className="queue-claims-title" id="queue-claims-title">
        Who has it
      </h3>
      <Button size="sm" icon={SkipForward} shortcut={NEXT_CASE_KEY} onClick={onNextCase}>
        Next unclaimed case
      </Button>
      <ul aria-labelledby="queue-claims-title">
        {choices.map((choice) => (
          <li key={choice.key}>
            <button
              type="button"
              className="queue-section"
              aria-pressed={sameFilter(claim, choice.filter)}
              onClick={() => toggle(choice.filter)}
            >
              <choice.icon aria-hidden="true" className="queue-section-icon" />
              <span className="queue-section-title">{choice.title}</span>{' '}
              <span className="queue-section-count">
                {counts ? formatCount(choice.tally.count) : ''}
                <span className="visually-hidden"> {choice.unit}</span>
              </span>
              <OverdueCount count={choice.tally.overdue} />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
