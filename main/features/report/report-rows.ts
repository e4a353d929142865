// The period report as data: one row per figure (docs/team-mode.md, "The period report", names every figure and
// column), written as CSV (RFC 4180, as the other exports) or as JSON Lines (one object a line, null for
// what does not apply). Both carry the period on every row, so a row read alone still says what it counts.

import { toCsv } from '#contract/csv.ts';
import type { PeriodFigures } from '#contract/period-report.ts';
import type { TimeFigure } from '#contract/team-overview.ts';

export interface FigureRow {
  figure: string;
  section: string | null;
  reviewer: string | null;
  /** What a count is of, where the figure has kinds: a four-eyes request's kind and decision, a reason. */
  item: string | null;
  value: number | string | null;
}

export const REPORT_COLUMNS = [
  'period_from',
  'period_to',
  'figure',
  'section',
  'reviewer',
  'item',
  'value',
] as const;
type ReportColumn = (typeof REPORT_COLUMNS)[number];

const row = (figure: string, value: FigureRow['value'], more: Partial<FigureRow> = {}): FigureRow => ({
  figure,
  section: null,
  reviewer: null,
  item: null,
  value,
  ...more,
});

function timeRows(name: string, section: string, time: TimeFigure): FigureRow[] {
  return [
    row(`${name}_measured`, time.count, { section }),
    row(`${name}_median_seconds`, time.medianSeconds, { section }),
    row(`${name}_p90_seconds`, time.p90Seconds, { section }),
  ];
}

/** Every figure of the report, in the order the PDF shows them. */
export function figureRows(figures: PeriodFigures): FigureRow[] {
  return [
    row('period_start_at', figures.startAt),
    row('period_end_at', figures.endAt),
    row('time_zone', figures.timeZone),
    ...figures.opened.map(({ section, reviewer, count }) => row('opened', count, { section, reviewer })),
    ...figures.closed.map(({ section, reviewer, count }) => row('closed', count, { section, reviewer })),
    ...figures.times.flatMap(({ section, entered, firstAction, resolution }) => [
      row('visits_begun', entered, { section }),
      ...timeRows('first_action', section, firstAction),
      ...timeRows('resolution', section, resolution),
    ]),
    ...figures.overdue.map(({ section, count }) => row('overdue_at_end', count, { section })),
    ...figures.fourEyes.map(({ kind, decision, count }) =>
      row('four_eyes_requests', count, { item: `${kind}:${decision}` }),
    ),
    ...figures.rejections.map(({ reason, count }) => row('documents_rejected', count, { item: reason })),
    row('audit_head_seq', figures.auditHead?.seq ?? null),
    row('audit_head_hash', figures.auditHead?.chainHash ?? null),
  ];
}

/** A row as both files write it: the period, then the figure's own columns (REPORT_COLUMNS' order). */
const record = (figures: PeriodFigures, r: FigureRow): Record<ReportColumn, FigureRow['value']> => ({
  period_from: figures.from,
  period_to: figures.to,
  ...r,
});

export function reportCsv(figures: PeriodFigures, rows: readonly FigureRow[]): string {
  return toCsv<FigureRow>(
    REPORT_COLUMNS.map((header) => ({ header, value: (r: FigureRow) => record(figures, r)[header] })),
    rows,
  );
}

export function reportJsonl(figures: PeriodFigures, rows: readonly FigureRow[]): string {
  return rows
    .map(
      (r) => `${JSON.stringify(record(figures, r))}
`,
    )
    .join('');
}
