// What a period report holds once gathered (index.ts) and before it is drawn (report-pdf.ts) or written as rows
// (report-rows.ts): plain data, so the drawing is tested on a fixed period and the gathering on a team store.
import type { PageSize } from '#contract/case-file.ts';
import type { PeriodFigures } from '#contract/period-report.ts';
import type { AgeingTargets } from '#contract/queue-view.ts';
import type { Trends } from '#contract/trends.ts';

export interface PeriodReportData {
  pageSize: PageSize;
  produced: {
    at: string;
    /** The lead's login. */
    by: string;
    /** The computer's name. */
    desk: string;
    version: string;
  };
  figures: PeriodFigures;
  /** The period's daily series, as the Team screen's charts draw them. */
  trends: Trends;
  /** This desk's ageing targets: what "overdue" was measured against. */
  targets: AgeingTargets;
}
