// A period report's data for the drawing's and the rows' tests: a week of a team's figures and its trends, fixed,
// with a reviewer's name that needs more than Latin-1 and a reason that needs quoting in CSV.
import type { PeriodFigures } from '#contract/period-report.ts';
import type { Trends } from '#contract/trends.ts';
import type { PeriodReportData } from '#main/features/report/report-data.ts';

export const PRODUCED_AT = '2026-03-11T15:00:00.000Z';
export const HEAD_HASH = 'c0ffee'.repeat(10).slice(0, 64).padEnd(64, '0');
const DAYS = [
  '2026-03-02',
  '2026-03-03',
  '2026-03-04',
  '2026-03-05',
  '2026-03-06',
  '2026-03-07',
  '2026-03-08',
];

export const FIGURES: PeriodFigures = {
  from: '2026-03-02',
  to: '2026-03-08',
  timeZone: 'America/New_York',
  startAt: '2026-03-02T05:00:00.000Z',
  endAt: '2026-03-09T03:59:59.999Z',
  opened: [
    { section: 'retry', reviewer: null, count: 2 },
    { section: 'document', reviewer: 'łucja', count: 5 },
    { section: 'document', reviewer: 'ben', count: 3 },
  ],
  closed: [
    { section: 'retry', reviewer: 'ben', count: 4 },
    { section: 'document', reviewer: 'łucja', count: 7 },
    { section: 'kba', reviewer: null, count: 1 },
  ],
  times: [
    {
      section: 'retry',
      entered: 6,
      firstAction: { count: 5, medianSeconds: 2700, p90Seconds: 9000 },
      resolution: { count: 4, medianSeconds: 90_000, p90Seconds: 200_000 },
    },
    {
      section: 'document',
      entered: 9,
      firstAction: { count: 9, medianSeconds: 45, p90Seconds: 600 },
      resolution: { count: 0, medianSeconds: null, p90Seconds: null },
    },
  ],
  overdue: [
    { section: 'retry', count: 3 },
    { section: 'document', count: 11 },
  ],
  fourEyes: [
    { kind: 'exportNames', decision: 'rejected', count: 1 },
    { kind: 'retry', decision: 'approved', count: 6 },
    { kind: 'retry', decision: 'pending', count: 2 },
  ],
  rejections: [
    { reason: 'The scan is not readable', count: 4 },
    { reason: 'Expired, "old" ID', count: 1 },
  ],
  auditHead: { seq: 4321, chainHash: HEAD_HASH },
};

const series = <T>(make: (day: string, index: number) => T[]) => DAYS.flatMap(make);

export const TRENDS: Trends = {
  scope: 'team',
  reviewer: 'lee',
  at: PRODUCED_AT,
  timeZone: 'America/New_York',
  days: DAYS,
  backlog: series((day, i) => [
    { day, section: 'retry', count: 3 + (i % 3) },
    { day, section: 'document', count: 10 - i },
    { day, section: 'kba', count: i % 2 },
    { day, section: 'unverified', count: 2 },
    { day, section: 'other', count: 0 },
  ]),
  closed: series((day, i) => [
    { day, reviewer: 'ben', count: i % 2 === 0 ? 1 : 0 },
    { day, reviewer: 'łucja', count: i },
    { day, reviewer: null, count: i === 3 ? 1 : 0 },
  ]),
  times: [
    {
      weekFrom: '2026-03-02',
      firstAction: { count: 14, medianSeconds: 1800, p90Seconds: 7200 },
      resolution: { count: 4, medianSeconds: 90_000, p90Seconds: 200_000 },
    },
  ],
  overdue: series((day, i) => [{ day, count: 8 + i }]),
  targets: { retry: 24, document: 48, review: 72 },
};

export const REPORT: PeriodReportData = {
  pageSize: 'A4',
  produced: { at: PRODUCED_AT, by: 'lee', desk: 'desk-7', version: '1.2.3' },
  figures: FIGURES,
  trends: TRENDS,
  targets: { retry: 24, document: 48, review: 72 },
};
