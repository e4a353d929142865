import { z } from 'zod';
import { ExportFileSchema } from './case.ts';
import { PageSizeSchema } from './case-file.ts';
import { SectionSchema } from './queue.ts';
import { AGEING_SECTIONS } from './queue-view.ts';
import { TimeFigureSchema } from './team-overview.ts';

/**
 * The period report (#39): what a team did over a range of days, for a lead to hand an examiner — as a PDF
 * (the figures as tables, the trends as charts) or as CSV / JSON Lines (one row per figure). A lead's
 * (`viewTeam`): a reviewer is refused in words, and so is a solo desk, which has no team. Every figure is
 * counted by the team store in SQL in one read-only snapshot, by the Team screen's definitions
 * (team-overview.ts) over the period instead of today:
 *
 * - **The period**: from the first day's midnight to the last day's end, in the desk's time zone; a last day
 *   not over yet is counted up to the store's now (`endAt`).
 * - **Opened**: customers whose status history begins in the period, in the section of their first status;
 *   credited to the reviewer whose `customer.create` / `customer.add` entry brought them in (null: they came
 *   by a webhook, an import or a reconcile).
 * - **Closed**: closings in the period (a terminal status entered from one that was not), in the section the
 *   case left, credited to the last reviewer to act on it (team-overview.ts' "Closed").
 * - **Time to first action / to resolution**: of the visits that began in the period, per section (median
 *   and 90th percentile), the Team screen's figure over the period.
 * - **Overdue at the end**: the cases open at `endAt` that had waited in their ageing section (retry,
 *   document) past this desk's target by then. The history records statuses, not pending uploads: a
 *   document in review counts with "Needs document".
 * - **Four eyes**: the requests made in the period by kind, each with its decision as it stood at `endAt`.
 * - **Documents rejected**: the service's "document rejected" events of the period, by the reason the
 *   service gives for the document (asked of it when the report is made; "not known" when it cannot say).
 * - **The audit chain's head at the end**: the last entry at or before `endAt`, its number and chain hash:
 *   `npm run team -- verify-audit --head <seq>:<hash>` shows no entry up to it was removed since.
 */

export const REPORT_FORMATS = ['pdf', 'csv', 'jsonl'] as const;
export const ReportFormatSchema = z.enum(REPORT_FORMATS);
export type ReportFormat = z.infer<typeof ReportFormatSchema>;

/** The longest period a report covers: a year and a day (a leap year's). */
export const MAX_REPORT_DAYS = 366;

const DAY_MS = 86_400_000;
const ReportDaySchema = z.iso.date({ error: 'A day is a date such as 2026-11-02.' });
const bothDays = (input: { from: unknown; to: unknown }) =>
  ReportDaySchema.safeParse(input.from).success && ReportDaySchema.safeParse(input.to).success;

export const PeriodReportInputSchema = z
  .strictObject({
    from: ReportDaySchema,
    to: ReportDaySchema,
    format: ReportFormatSchema,
    pageSize: PageSizeSchema,
  })
  // Each rule judges two real days only: a missing or malformed one is said by its own field.
  .refine((input) => !bothDays(input) || input.from <= input.to, {
    error: 'The period ends before it begins: choose a last day on or after the first.',
    path: ['to'],
  })
  .refine(
    (input) => !bothDays(input) || Date.parse(input.to) - Date.parse(input.from) < MAX_REPORT_DAYS * DAY_MS,
    {
      error: `A report covers at most ${MAX_REPORT_DAYS} days: choose a shorter period.`,
      path: ['to'],
    },
  );
export type PeriodReportInput = z.infer<typeof PeriodReportInputSchema>;

const Count = z.number().int().min(0);

/** A count in a section, credited to a reviewer (null: no reviewer's hand). */
export const SectionReviewerCountSchema = z.object({
  section: SectionSchema,
  reviewer: z.string().nullable(),
  count: Count,
});
export type SectionReviewerCount = z.infer<typeof SectionReviewerCountSchema>;

export const SectionTimesSchema = z.object({
  section: SectionSchema,
  entered: Count,
  firstAction: TimeFigureSchema,
  resolution: TimeFigureSchema,
});

export const FOUR_EYES_DECISIONS = ['pending', 'approved', 'rejected', 'cancelled', 'expired'] as const;
export const FourEyesCountSchema = z.object({
  kind: z.enum(['retry', 'exportNames']),
  /** As it stood at the period's end ("approved" includes an approved action since sent). */
  decision: z.enum(FOUR_EYES_DECISIONS),
  count: Count,
});

export const RejectionCountSchema = z.object({
  /** The reason in words; "Reason not known" when the service could not say. */
  reason: z.string(),
  count: Count,
});

export const AuditHeadSchema = z.object({ seq: z.number().int().min(0), chainHash: z.string() });

export const PeriodFiguresSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  timeZone: z.string(),
  /** The first day's midnight and the period's last moment counted (its end, or the store's now). */
  startAt: z.iso.datetime(),
  endAt: z.iso.datetime(),
  opened: z.array(SectionReviewerCountSchema),
  closed: z.array(SectionReviewerCountSchema),
  times: z.array(SectionTimesSchema),
  overdue: z.array(z.object({ section: z.enum(AGEING_SECTIONS), count: Count })),
  fourEyes: z.array(FourEyesCountSchema),
  rejections: z.array(RejectionCountSchema),
  /** Null: the chain had no entry by the period's end. */
  auditHead: AuditHeadSchema.nullable(),
});
export type PeriodFigures = z.infer<typeof PeriodFiguresSchema>;

/** The report's file: text for CSV and JSON Lines, base64 for the PDF; `count` its rows or its pages. */
export const PeriodReportFileSchema = ExportFileSchema.extend({ encoding: z.literal('base64').optional() });
export type PeriodReportFile = z.infer<typeof PeriodReportFileSchema>;

export const periodReportChannels = {
  /** A lead's: the team's figures over the period, as a file (its production audited). */
  'report.period': { input: PeriodReportInputSchema, output: PeriodReportFileSchema },
} as const;
export type PeriodReportChannel = keyof typeof periodReportChannels;
