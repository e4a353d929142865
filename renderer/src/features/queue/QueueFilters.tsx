import { SlidersHorizontal, X } from 'lucide-react';
import { Fragment, useId } from 'react';
import type { QueueFilters as Filters } from '#contract/queue-view.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { useQueueStore } from './queue-store.ts';

type DayField = 'createdFrom' | 'createdTo' | 'changedFrom' | 'changedTo';

const RANGES: { legend: string; from: DayField; to: DayField }[] = [
  { legend: 'Created', from: 'createdFrom', to: 'createdTo' },
  { legend: 'Last change', from: 'changedFrom', to: 'changedTo' },
];

const FLAGS: { key: 'hasNotes' | 'overdue'; label: string }[] = [
  { key: 'hasNotes', label: 'Has notes' },
  { key: 'overdue', label: 'Overdue' },
];

/** Narrows the list beside the sections: date ranges, notes, overdue. Each change asks main at once. */
export function QueueFilters() {
  const filters = useQueueStore((state) => state.filters);
  const setFilters = useQueueStore((state) => state.setFilters);
  const id = useId();
  const change = (patch: Partial<Filters>) => {
    const next: Filters = { ...filters, ...patch };
    for (const key of Object.keys(next) as (keyof Filters)[]) {
      if (next[key] === undefined || next[key] === '' || next[key] === false) delete next[key];
    }
    setFilters(next);
  };
  // Who holds a case is chosen in the sections (team mode), not here: it is neither counted nor cleared here.
  const { claim, ...narrowing } = filters;
  const active = Object.keys(narrowing).length;
  return (
    <details className="queue-filters">
      <summary>
        <SlidersHorizontal aria-hidden="true" className="queue-filters-icon" />
        Filters{active > 0 ? ` (${active} on)` : ''}
      </summary>
      <form aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        {RANGES.map((range) => (
          <fieldset key={range.legend}>
            <legend>{range.legend}</legend>
            {(['from', 'to'] as const).map((end) => (
              <Fragment key={end}>
                <label htmlFor={`${id}-${range[end]}`}>{end === 'from' ? 'From' : 'to'}</label>
                <input
                  id={`${id}-${range[end]}`}
                  type="date"
                  aria-label={`${range.legend} ${end}`}
                  value={filters[range[end]] ?? ''}
                  onChange={(event) => change({ [range[end]]: event.target.value || undefined })}
                />
              </Fragment>
            ))}
          </fieldset>
        ))}
        {FLAGS.map((flag) => (
          <label key={flag.key} className="checkbox">
            <input
              type="checkbox"
              checked={filters[flag.key] ?? false}
              onChange={(event) => change({ [flag.key]: event.target.checked })}
            />{' '}
            {flag.label}
          </label>
        ))}
        {active > 0 && (
          <Button size="sm" weight="quiet" icon={X} onClick={() => setFilters(claim ? { claim } : {})}>
            Clear filters
          </Button>
        )}
      </form>
    </details>
  );
}
