// The period report channel (contract/period-report.ts): a lead's. The role is checked before the store is
// asked; the store counts the figures (team-interfaces/period-report.ts), the service names the rejected
// documents' reasons, the trends source gives the charts' series for the same days. Its production is recorded
// in the audit log before the file is made, and a failure after that is recorded too.

import { exportFileName } from '#contract/csv.ts';
import { DeskError } from '#contract/errors.ts';
import type { PeriodReportChannel, PeriodReportFile, PeriodReportInput } from '#contract/period-report.ts';
import type { TeamMe } from '#contract/roles.ts';
import { deskTimeZone } from '#main/ground/calendar.ts';
import type { Handlers } from '#main/ground/serve.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { type Roles, requireLead } from '../team-interfaces/claims.ts';
import type { PeriodFiguresSource } from '../team-interfaces/period-report.ts';
import type { TrendsSource } from '../team-interfaces/trends.ts';
import { rejectionsByReason } from './rejections.ts';
import type { PeriodReportData } from './report-data.ts';
import { renderPeriodReport } from './report-pdf.ts';
import { figureRows, reportCsv, reportJsonl } from './report-rows.ts';

export interface PeriodReportOptions {
  figures: PeriodFiguresSource;
  trends: TrendsSource;
  roles: Roles;
  /** This computer's name and Vetted's version, printed as where the report came from. */
  desk: { name: string; version: string };
  /** The production time (tests fix it). */
  clock?: () => Date;
  /** The time zone a day is in: this computer's unless a test names one. */
  timeZone?: string;
}

const notBegun = () =>
  new DeskError(
    'PeriodNotBegun',
    'The period has not begun yet: choose a first day that is today or earlier.',
  );

export function periodReportFeature(
  context: DeskContext,
  options: PeriodReportOptions,
): Feature<PeriodReportChannel> {
  const clock = options.clock ?? (() => new Date());
  const timeZone = options.timeZone ?? deskTimeZone();

  /** The figures and the reasons: everything the rows are made of (the PDF adds the trends). */
  async function gather(input: PeriodReportInput, now: Date, me: TeamMe) {
    const targets = { ...context.settings.get().ageingTargets };
    const query = { from: input.from, to: input.to, timeZone, targets };
    const { rejectedDocuments, ...store } = await options.figures.read(query);
    if (store.startAt > store.endAt) throw notBegun();
    // Async, so that a service not connected at all is one more reason not known, not a failed report.
    const rejections = await rejectionsByReason(rejectedDocuments, async (id) =>
      context.connection().client().documents.get(id),
    );
    return {
      query: { ...query, scope: 'team' as const, reviewer: me.reviewer },
      data: {
        pageSize: input.pageSize,
        produced: {
          at: now.toISOString(),
          by: me.reviewer,
          desk: options.desk.name,
          version: options.desk.version,
        },
        figures: { ...store, rejections },
        targets,
      } satisfies Omit<PeriodReportData, 'trends'>,
    };
  }

  async function make(input: PeriodReportInput, now: Date, me: TeamMe): Promise<PeriodReportFile> {
    const { query, data } = await gather(input, now, me);
    const fileName = (extension: string) =>
      exportFileName(['vetted-period-report', input.from, 'to', input.to], extension, now);
    if (input.format === 'pdf') {
      // The charts' series for the same days, by the same store (contract/trends.ts).
      const { bytes, pages } = await renderPeriodReport({
        ...data,
        trends: await options.trends.read(query),
      });
      return {
        fileName: fileName('pdf'),
        mimeType: 'application/pdf',
        encoding: 'base64',
        content: bytes.toString('base64'),
        count: pages,
      };
    }
    const rows = figureRows(data.figures);
    return input.format === 'csv'
      ? {
          fileName: fileName('csv'),
          mimeType: 'text/csv',
          content: reportCsv(data.figures, rows),
          count: rows.length,
        }
      : {
          fileName: fileName('jsonl'),
          mimeType: 'application/jsonl',
          content: reportJsonl(data.figures, rows),
          count: rows.length,
        };
  }

  const handlers: Pick<Handlers, PeriodReportChannel> = {
    async 'report.period'(input) {
      const me = await requireLead(options.roles, 'viewTeam');
      const now = clock();
      const detail = `${input.from} to ${input.to}, ${input.format}${input.format === 'pdf' ? `, ${input.pageSize}` : ''}`;
      await context.journal.audit.record({ action: 'report.period', outcome: 'ok', detail });
      try {
        return await make(input, now, me);
      } catch (error) {
        await context.journal.audit.record({ action: 'report.period', outcome: 'failed', detail });
        throw error;
      }
    },
  };
  return { handlers };
}
