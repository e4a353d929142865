import { lazy, Suspense } from 'react';
import type { Trends } from '#contract/trends.ts';
import { ExportFileButton } from '#renderer/shared/case/ExportFileButton.tsx';
import { TrendLegend } from './TrendLegend.tsx';
import { TrendTable } from './TrendTable.tsx';
import { figureCsv, figureFileName, hasData, type TrendFigure } from './trend-figures.ts';

// uPlot comes with the chart, once a chart is first shown: neither the first paint nor the Team screen's own
// chunk (fetched while the queue is read) carries it.
const TrendChart = lazy(() => import('./TrendChart.tsx'));

const ROWS = { one: 'row', many: 'rows' };

/** What a figure says when it has nothing to draw. */
const NOTHING: Record<TrendFigure['id'], string> = {
  backlog: 'No open case in these days.',
  closed: 'No case was closed in these days.',
  times: 'No case entered a section in these days.',
  overdue: 'No case was overdue in these days.',
};

const chartLabel = (figure: TrendFigure) =>
  `Line chart: ${figure.title.toLowerCase()}, ${figure.series.map((series) => series.label).join(', ')}. ` +
  'The same numbers are in the table below it.';

/** One trend: its title and what it counts, the chart with its legend, the same numbers as a table, a CSV. */
export function TrendFigureView({ figure, trends }: { figure: TrendFigure; trends: Trends }) {
  const headingId = `trend-${trends.scope}-${figure.id}`;
  const drawn = hasData(figure);
  return (
    <section className="trend-figure" aria-labelledby={headingId}>
      <div className="trend-figure-head">
        <h4 id={headingId}>{figure.title}</h4>
        {drawn && (
          <ExportFileButton
            label="Download CSV"
            noun={ROWS}
            make={async () => ({
              fileName: figureFileName(figure, trends),
              mimeType: 'text/csv',
              content: figureCsv(figure),
              count: figure.rows.length,
            })}
          />
        )}
      </div>
      <p className="trend-description">{figure.description}.</p>
      {drawn ? (
        <>
          <TrendLegend figure={figure} />
          <Suspense fallback={<div className="trend-chart" />}>
            <TrendChart figure={figure} label={chartLabel(figure)} />
          </Suspense>
          <details className="trend-details">
            <summary>Show as table</summary>
            <TrendTable figure={figure} />
          </details>
        </>
      ) : (
        <p className="trend-nothing">{NOTHING[figure.id]}</p>
      )}
    </section>
  );
}
