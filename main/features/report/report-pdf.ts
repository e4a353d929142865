// Draws a period report as a PDF (../pdf/: PDFKit, fonts embedded, pages numbered): who produced it and for
// which days, the figures as tables, the trends as charts, and the audit chain's head at the period's end with
// the command that checks it.
import { APPROVAL_KIND_TITLES } from '#contract/approvals.ts';
import type { PeriodFigures, SectionReviewerCount } from '#contract/period-report.ts';
import { SECTION_TITLES } from '#contract/queue.ts';
import type { TimeFigure } from '#contract/team-overview.ts';
import { makePdf } from '../pdf/document.ts';
import {
  facts,
  heading,
  keepRoom,
  type Pdf,
  paragraph,
  title,
  verifyHeadCommand,
  when,
} from '../pdf/draw.ts';
import { table } from '../pdf/table.ts';
import { drawTrendCharts } from './report-charts.ts';
import type { PeriodReportData } from './report-data.ts';

const NOBODY = 'Nobody (no reviewer’s hand)';
const DECISIONS = {
  pending: 'Still waiting',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Withdrawn',
  expired: 'Expired',
} as const;

/** "45 s", "12 min", "3 h 05 min", "2 d 4 h": a time as a reviewer reads it; "—" when none was measured. */
export function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  const minutes = Math.round(seconds / 60);
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** Opened and closed side by side, summed by `key` (a section, a reviewer). */
function sideBySide<K extends string | null>(
  figures: PeriodFigures,
  key: (count: SectionReviewerCount) => K,
): Array<{ key: K; opened: number; closed: number }> {
  const sums = new Map<K, { key: K; opened: number; closed: number }>();
  const add = (items: readonly SectionReviewerCount[], field: 'opened' | 'closed') => {
    for (const item of items) {
      const sum = sums.get(key(item)) ?? { key: key(item), opened: 0, closed: 0 };
      sum[field] += item.count;
      sums.set(key(item), sum);
    }
  };
  add(figures.opened, 'opened');
  add(figures.closed, 'closed');
  return [...sums.values()];
}

function drawCases(doc: Pdf, figures: PeriodFigures): void {
  heading(doc, 'Cases opened and closed');
  const numbers = { share: 0.2, align: 'right' } as const;
  table(
    doc,
    [
      { header: 'Section', share: 0.6 },
      { header: 'Opened', ...numbers },
      { header: 'Closed', ...numbers },
    ],
    sideBySide(figures, (count) => count.section).map((s) => [
      SECTION_TITLES[s.key],
      `${s.opened}`,
      `${s.closed}`,
    ]),
    'No case was opened or closed in this period.',
  );
  const byReviewer = sideBySide(figures, (count) => count.reviewer).sort((a, b) =>
    a.key === null ? 1 : b.key === null ? -1 : a.key.localeCompare(b.key),
  );
  table(
    doc,
    [
      { header: 'Reviewer', share: 0.6 },
      { header: 'Opened', ...numbers },
      { header: 'Closed', ...numbers },
    ],
    byReviewer.map((r) => [r.key ?? NOBODY, `${r.opened}`, `${r.closed}`]),
    'Nobody opened or closed a case in this period.',
  );
  paragraph(
    doc,
    'Opened: customers whose status history begins in the period, credited to the reviewer who created or added them. Closed: cases that reached verified, suspended or deactivated, credited to the last reviewer to act on them.',
    { quiet: true, size: 8 },
  );
}

const times = (time: TimeFigure) => [
  `${time.count}`,
  duration(time.medianSeconds),
  duration(time.p90Seconds),
];

function drawTimes(doc: Pdf, figures: PeriodFigures): void {
  heading(doc, 'Time to first action and to resolution');
  const number = (header: string, share = 0.09) => ({ header, share, align: 'right' }) as const;
  table(
    doc,
    [
      { header: 'Section', share: 0.22 },
      number('Visits', 0.08),
      number('Acted on', 0.1),
      number('Median', 0.125),
      number('90th pct', 0.125),
      number('Resolved', 0.1),
      number('Median', 0.125),
      number('90th pct', 0.125),
    ],
    figures.times.map((s) => [
      SECTION_TITLES[s.section],
      `${s.entered}`,
      ...times(s.firstAction),
      ...times(s.resolution),
    ]),
    'No case entered a section in this period.',
  );
  paragraph(
    doc,
    'Of the visits to each section that began in the period: how long until a reviewer’s first action, and until the next status (median and 90th percentile).',
    { quiet: true, size: 8 },
  );
}

function drawOverdueAndFourEyes(doc: Pdf, { figures, targets }: PeriodReportData): void {
  heading(doc, 'Overdue at the period’s end');
  table(
    doc,
    [
      { header: 'Section', share: 0.5 },
      { header: 'Target', share: 0.25, align: 'right' },
      { header: 'Overdue', share: 0.25, align: 'right' },
    ],
    figures.overdue.map((o) => [SECTION_TITLES[o.section], `${targets[o.section]} h`, `${o.count}`]),
    'None.',
  );
  heading(doc, 'Four eyes');
  table(
    doc,
    [
      { header: 'Request', share: 0.45 },
      { header: 'Decision by the period’s end', share: 0.35 },
      { header: 'Requests', share: 0.2, align: 'right' },
    ],
    figures.fourEyes.map((f) => [APPROVAL_KIND_TITLES[f.kind], DECISIONS[f.decision], `${f.count}`]),
    'No second reviewer’s approval was asked for in this period.',
  );
  heading(doc, 'Documents rejected');
  table(
    doc,
    [
      { header: 'Reason', share: 0.8 },
      { header: 'Documents', share: 0.2, align: 'right' },
    ],
    figures.rejections.map((r) => [r.reason, `${r.count}`]),
    'The service rejected no document in this period.',
  );
}

function drawAuditHead(doc: Pdf, figures: PeriodFigures): void {
  // The head and the command that checks it read together, on one page.
  keepRoom(doc, 170);
  heading(doc, 'The audit chain at the period’s end');
  if (!figures.auditHead) {
    paragraph(doc, 'The audit chain had no entry by the period’s end.', { quiet: true });
    return;
  }
  const head = `${figures.auditHead.seq}:${figures.auditHead.chainHash}`;
  facts(doc, [
    { label: 'Last entry', value: `${figures.auditHead.seq}` },
    { label: 'Its chain hash', value: figures.auditHead.chainHash },
  ]);
  paragraph(
    doc,
    'Every figure above is counted from the team’s audit chain, status history and four-eyes requests. The team’s administrator shows that the chain still holds every entry up to this one, unchanged, with:',
  );
  verifyHeadCommand(doc, head);
  paragraph(
    doc,
    'An examiner given the entries as a file (the Audit screen’s JSON Lines export) checks them with verify-audit --file <that file> (docs/team-admin.md, “The audit chain”).',
    { quiet: true },
  );
}

function drawReport(doc: Pdf, data: PeriodReportData): void {
  const { figures, produced } = data;
  title(doc, `Period report: ${figures.from} to ${figures.to}`);
  facts(doc, [
    { label: 'Period', value: `${figures.from} to ${figures.to} (${figures.timeZone})` },
    { label: 'Counted', value: `${when(figures.startAt)} to ${when(figures.endAt)}` },
    { label: 'Produced', value: when(produced.at) },
    { label: 'Produced by', value: produced.by },
    { label: 'Desk', value: `${produced.desk} (a team’s desk), Vetted ${produced.version}` },
  ]);
  drawCases(doc, figures);
  drawTimes(doc, figures);
  drawOverdueAndFourEyes(doc, data);
  drawAuditHead(doc, figures);
  heading(doc, 'Trends');
  drawTrendCharts(doc, data.trends);
}

/** The PDF's bytes and its page count. */
export function renderPeriodReport(data: PeriodReportData): Promise<{ bytes: Buffer; pages: number }> {
  const { figures, produced } = data;
  return makePdf(
    {
      pageSize: data.pageSize,
      at: new Date(produced.at),
      title: `Period report: ${figures.from} to ${figures.to}`,
      author: produced.by,
      subject: 'A team’s figures over a period, from its audit chain',
      creator: `Vetted ${produced.version}`,
      footer: `Vetted period report · ${figures.from} to ${figures.to} · produced ${when(produced.at)}`,
    },
    (doc) => drawReport(doc, data),
  );
}
