// The period report form's rules, apart from React so they are tested in Node: the contract's own checks of a
// period (contract/period-report.ts), said next to the field they concern, and the one the renderer adds —
// a first day after today has nothing to count.

import type { PageSize } from '#contract/case-file.ts';
import { PeriodReportInputSchema, type ReportFormat } from '#contract/period-report.ts';
import { dayKey } from '#renderer/ui/time.tsx';

export interface PeriodReportChoice {
  from: string;
  to: string;
  format: ReportFormat;
  pageSize: PageSize;
}

export type PeriodProblems = Partial<Record<'from' | 'to', string>>;

/** A local calendar day as YYYY-MM-DD (the desk's time zone: the report counts its days). */
export function localDay(date: Date): string {
  return dayKey(date.getTime());
}

/** The last seven days, today included: the form's first choice. */
export function lastWeek(now: Date): Pick<PeriodReportChoice, 'from' | 'to'> {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6);
  return { from: localDay(from), to: localDay(now) };
}

/** What is wrong with the period, by field, in words; empty when it can be asked for. */
export function periodProblems(choice: PeriodReportChoice, today: string): PeriodProblems {
  const problems: PeriodProblems = {};
  const parsed = PeriodReportInputSchema.safeParse(choice);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'from' || field === 'to') && !problems[field]) problems[field] = issue.message;
    }
  }
  if (!problems.from && choice.from > today) {
    problems.from = 'The period has not begun yet: choose a first day that is today or earlier.';
  }
  return problems;
}
