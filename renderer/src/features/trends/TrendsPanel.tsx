import { useEffect, useMemo } from 'react';
import { TREND_RANGES, type TrendRange, type TrendScope, type Trends } from '#contract/trends.ts';
import { Segmented } from '#renderer/ui/Segmented.tsx';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { TrendFigureView } from './TrendFigureView.tsx';
import { trendFigures } from './trend-figures.ts';
import { longDay } from './trend-format.ts';
import { type TrendsView, useTrendsStore } from './trends-store.ts';

const RANGE_OPTIONS = TREND_RANGES.map((days) => ({ value: days, label: `${days} days` }));

/**
 * The trends over a chosen range (7, 30 or 90 days): the team's on the lead's Team screen, a reviewer's own in
 * My work. Each figure is a chart beside a table of the same numbers and a CSV of them; while another range
 * is read, the last one stays on screen.
 */
export function TrendsPanel({ scope }: { scope: TrendScope }) {
  const view = useTrendsStore((state) => state.views[scope]);
  useEffect(() => {
    void useTrendsStore.getState().load(scope);
  }, [scope]);
  return <TrendsPanelView view={view} onRange={(days) => void useTrendsStore.getState().load(scope, days)} />;
}

/** The panel as it shows a view of the store: the range, then the figures (or why there are none yet). */
export function TrendsPanelView({ view, onRange }: { view: TrendsView; onRange(days: TrendRange): void }) {
  const figures = useMemo(() => (view.trends ? trendFigures(view.trends) : []), [view.trends]);
  const { trends } = view;
  return (
    <div className="trends" aria-busy={view.reading}>
      <div className="trends-toolbar">
        <Segmented<TrendRange> legend="Range" options={RANGE_OPTIONS} value={view.days} onChange={onRange} />
        {trends && <AsOf trends={trends} />}
      </div>
      {view.problem && <p role="alert">{view.problem}</p>}
      {trends ? (
        <div className="trends-figures">
          {figures.map((figure) => (
            <TrendFigureView key={figure.id} figure={figure} trends={trends} />
          ))}
        </div>
      ) : (
        !view.problem && <p role="status">Loading the trends…</p>
      )}
    </div>
  );
}

function AsOf({ trends }: { trends: Trends }) {
  const first = trends.days[0];
  return (
    <p className="trends-as-of">
      {first && (
        <>
          From <time dateTime={first}>{longDay(first)}</time> to today, as of{' '}
        </>
      )}
      <time dateTime={trends.at}>{formatDateTime(trends.at)}</time> ({trends.timeZone}).
    </p>
  );
}
