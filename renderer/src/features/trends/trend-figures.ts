import { exportFileName, toCsv } from '#contract/csv.ts';
import { SECTION_TITLES } from '#contract/queue.ts';
import type { TimeFigure } from '#contract/team-overview.ts';
import { BACKLOG_SECTIONS, type Trends } from '#contract/trends.ts';

/**
 * The four trends as figures: what a chart draws and its table lists, from one place, so the chart, the table
 * and the CSV always hold the same numbers. A figure is a row per day (or week) and a column per series.
 */
export type FigureId = 'backlog' | 'closed' | 'times' | 'overdue';

export interface TrendSeries {
  label: string;
  /** One per row of the figure; null where nothing was measured (a week with no visit). */
  values: (number | null)[];
}

export interface TrendFigure {
  id: FigureId;
  title: string;
  /** What the figure counts, in a sentence: the table's caption and the chart's description. */
  description: string;
  /** The rows' header: a day, or the week's first day. */
  rowHeader: 'Day' | 'Week from';
  /** The rows' days, `YYYY-MM-DD`, oldest first. */
  rows: string[];
  /** Counts of cases, or lengths of time in seconds. */
  unit: 'cases' | 'seconds';
  series: TrendSeries[];
}

const NO_REVIEWER = 'No reviewer’s action';

const valuesBy = <P extends { day: string; count: number }>(days: string[], points: P[]) => {
  const byDay = new Map(points.map((point) => [point.day, point.count]));
  return days.map((day) => byDay.get(day) ?? 0);
};

function backlog(trends: Trends): TrendFigure {
  const series = BACKLOG_SECTIONS.map((section) => ({
    section,
    label: SECTION_TITLES[section],
    values: valuesBy(
      trends.days,
      trends.backlog.filter((point) => point.section === section),
    ),
  }))
    // "Other" is a status the queue does not know: a line of zeros only when there is something to count.
    .filter((line) => line.section !== 'other' || line.values.some((count) => count > 0))
    .map(({ label, values }) => ({ label, values }));
  return {
    id: 'backlog',
    title: 'Backlog by section',
    description: 'Open cases in each section at the end of each day',
    rowHeader: 'Day',
    rows: trends.days,
    unit: 'cases',
    series,
  };
}

function closed(trends: Trends): TrendFigure {
  const reviewers = [...new Set(trends.closed.map((point) => point.reviewer))].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a.localeCompare(b),
  );
  return {
    id: 'closed',
    title: trends.scope === 'mine' ? 'Cases you closed' : 'Cases closed by reviewer',
    description:
      trends.scope === 'mine'
        ? `Cases ${trends.reviewer} closed each day`
        : 'Cases closed each day, credited to the reviewer who acted on the case last',
    rowHeader: 'Day',
    rows: trends.days,
    unit: 'cases',
    series: reviewers.map((reviewer) => ({
      label: reviewer ?? NO_REVIEWER,
      values: valuesBy(
        trends.days,
        trends.closed.filter((point) => point.reviewer === reviewer),
      ),
    })),
  };
}

function times(trends: Trends): TrendFigure {
  const column = (label: string, pick: (week: Trends['times'][number]) => number | null) => ({
    label,
    values: trends.times.map(pick),
  });
  const median = (figure: TimeFigure) => figure.medianSeconds;
  const p90 = (figure: TimeFigure) => figure.p90Seconds;
  return {
    id: 'times',
    title: 'Time to first action and to resolution',
    description: 'Median and 90th percentile of the cases that entered a section each week',
    rowHeader: 'Week from',
    rows: trends.times.map((week) => week.weekFrom),
    unit: 'seconds',
    series: [
      column('First action, median', (week) => median(week.firstAction)),
      column('First action, 90th percentile', (week) => p90(week.firstAction)),
      column('Resolution, median', (week) => median(week.resolution)),
      column('Resolution, 90th percentile', (week) => p90(week.resolution)),
    ],
  };
}

function overdue(trends: Trends): TrendFigure {
  const { retry, document, review } = trends.targets;
  return {
    id: 'overdue',
    title: 'Overdue cases',
    description:
      `Open cases past their section’s target at the end of each day (retry ${retry} h, ` +
      `document ${document} h, review ${review} h)${trends.scope === 'mine' ? ' among those you held' : ''}`,
    rowHeader: 'Day',
    rows: trends.days,
    unit: 'cases',
    series: [{ label: 'Overdue', values: valuesBy(trends.days, trends.overdue) }],
  };
}

/** The four figures, in the order the panel shows them. */
export function trendFigures(trends: Trends): TrendFigure[] {
  return [backlog(trends), closed(trends), times(trends), overdue(trends)];
}

/** Whether a figure has anything to draw: a series, and a row. */
export const hasData = (figure: TrendFigure): boolean => figure.series.length > 0 && figure.rows.length > 0;

/** The figure as CSV: its rows' header and a column per series; times in seconds, as counted. */
export function figureCsv(figure: TrendFigure): string {
  const unit = figure.unit === 'seconds' ? ' (seconds)' : '';
  return toCsv(
    [
      { header: figure.rowHeader, value: (row: number) => figure.rows[row] },
      ...figure.series.map((series) => ({
        header: `${series.label}${unit}`,
        value: (row: number) => series.values[row],
      })),
    ],
    figure.rows.map((_, row) => row),
  );
}

/** `vetted-trends-team-backlog-30-days-2026-11-29.csv`: whose, which figure, how many days, when. */
export const figureFileName = (figure: TrendFigure, trends: Trends): string =>
  exportFileName(
    ['vetted-trends', trends.scope, figure.id, `${trends.days.length}-days`],
    'csv',
    new Date(trends.at),
  );
