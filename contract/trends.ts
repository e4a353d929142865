import { z } from 'zod';
import type { Section } from './queue.ts';
import { type AgeingTargets, AgeingTargetsSchema } from './queue-view.ts';
import { TimeFigureSchema } from './team-overview.ts';

/**
 * Trends (#39): how the queue moved over a range of days, as the Team screen's charts (a lead's, the team's) and
 * a reviewer's "My work" (their own, solo or in a team). Every figure is counted by the store that keeps the log
 * — the team store in SQL on a team's desk, the desk's journal in SQL when solo — from one snapshot of the status
 * history, the audit log and the claims, by the definitions of the Team screen's figures (team-overview.ts):
 *
 * - **Days** are the desk's calendar days in its time zone (`timeZone`), the last `days` of them up to today
 *   (today included, counted up to `at`). A day's figure is taken at its end (today's: at `at`).
 * - **Backlog**: the cases in each open section at the day's end — a customer's section from its status then
 *   (the queue's sections; statuses the queue does not know are `other`), terminal statuses (verified, suspended,
 *   deactivated) and customers gone by then left out.
 * - **Closed**: closings (a status history entering a terminal status from one that was not) during the day, each
 *   credited to the reviewer whose audit entry on that customer came last by then (team-overview.ts' "Closed");
 *   `reviewer` null: nobody acted on it. In "mine" only this desk's reviewer's closings.
 * - **Times**: per week (weeks start on Monday in the desk's time zone; the first week of the range may be cut
 *   short by the range's start), the time to first action and to resolution of the visits that started that week
 *   (team-overview.ts' "Time to first action"), median and 90th percentile. In "mine", the visits whose first
 *   action was this reviewer's (time to first action) or that this reviewer resolved (time to resolution: the
 *   last audit entry on the customer before the next status was theirs).
 * - **Overdue**: at each day's end, the open cases that had waited in their ageing section (retry, document,
 *   review) past its target (`targets`, this desk's Settings → Ageing targets). In "mine", the cases this reviewer
 *   held at the day's end (claims' history: taken and not yet released, expired or taken over by then). The
 *   claims table keeps only who holds a case now, so the history is the audit log's claim entries (a take or a
 *   take-over is its actor's, a reassignment its "to" login's, a release or an expiry nobody's); a claim idle
 *   past its time is held until the store records its expiry. A solo desk has no claims: its reviewer holds
 *   every case, so its "mine" counts them all. As the backlog, a document in review counts against "document".
 */

export const TREND_RANGES = [7, 30, 90] as const;
export const TrendRangeSchema = z.union([z.literal(7), z.literal(30), z.literal(90)]);
export type TrendRange = z.infer<typeof TrendRangeSchema>;

/** Whose work: the team's (a lead's, on a team's desk only) or this desk's reviewer's own. */
export const TrendScopeSchema = z.enum(['team', 'mine']);
export type TrendScope = z.infer<typeof TrendScopeSchema>;

export const TrendsInputSchema = z.strictObject({ days: TrendRangeSchema, scope: TrendScopeSchema });
export type TrendsInput = z.infer<typeof TrendsInputSchema>;

/** A calendar day in the desk's time zone, `YYYY-MM-DD`. */
export const TrendDaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD');

/**
 * The sections a backlog is counted in: the open ones (never drafts, never a terminal status). The status history
 * records statuses, not pending uploads, so a document in review is counted with "Needs document" (and against
 * its target), as the Team screen's figures count it.
 */
export const BACKLOG_SECTIONS = [
  'retry',
  'document',
  'kba',
  'unverified',
  'other',
] as const satisfies readonly Section[];
export const BacklogSectionSchema = z.enum(BACKLOG_SECTIONS);

export const BacklogPointSchema = z.object({
  day: TrendDaySchema,
  section: BacklogSectionSchema,
  count: z.number().int().min(0),
});

export const ClosedPointSchema = z.object({
  day: TrendDaySchema,
  /** Null: closed with no reviewer's entry on the case. */
  reviewer: z.string().nullable(),
  count: z.number().int().min(0),
});

export const WeekTimesSchema = z.object({
  /** The week's Monday (or the range's first day, if later). */
  weekFrom: TrendDaySchema,
  firstAction: TimeFigureSchema,
  resolution: TimeFigureSchema,
});

export const OverduePointSchema = z.object({ day: TrendDaySchema, count: z.number().int().min(0) });

export const TrendsSchema = z.object({
  scope: TrendScopeSchema,
  /** Whose work "mine" is: this desk's reviewer (the OS user when solo). */
  reviewer: z.string(),
  /** When they were read: by the store's clock on a team's desk. */
  at: z.iso.datetime(),
  timeZone: z.string(),
  /** Every day of the range, oldest first: each series has a point per day (zeros included) in this order. */
  days: z.array(TrendDaySchema),
  /** A point per day and open section. */
  backlog: z.array(BacklogPointSchema),
  /** A point per day and reviewer who closed anything in the range (a day they closed nothing counts 0). */
  closed: z.array(ClosedPointSchema),
  /** A row per week of the range, oldest first. */
  times: z.array(WeekTimesSchema),
  /** A point per day. */
  overdue: z.array(OverduePointSchema),
  targets: AgeingTargetsSchema,
});
export type Trends = z.infer<typeof TrendsSchema>;
export type BacklogPoint = z.infer<typeof BacklogPointSchema>;
export type ClosedPoint = z.infer<typeof ClosedPointSchema>;
export type WeekTimes = z.infer<typeof WeekTimesSchema>;
export type OverduePoint = z.infer<typeof OverduePointSchema>;

/**
 * What a desk asks the store that keeps the log (main/features/trends asks; the team store or the solo journal
 * counts): the channel's input turned into days and filled in with this desk's reviewer, targets and time zone.
 */
export interface TrendsQuery {
  scope: TrendScope;
  /**
   * The range's first and last days (YYYY-MM-DD in `timeZone`), both included: the last N days, or a report's
   * period. A day not over yet is counted up to the store's now.
   */
  from: string;
  to: string;
  /** Whose work "mine" is: this desk's reviewer. */
  reviewer: string;
  /** This desk's ageing targets: what "overdue" is measured against. */
  targets: AgeingTargets;
  /** The desk's time zone (IANA): what a day is. */
  timeZone: string;
}

export const trendsChannels = {
  /**
   * The trends over the last `days`: "team" is a lead's on a team's desk (refused in words to a reviewer and to a
   * solo desk, which has no team); "mine" is anyone's.
   */
  'trends.read': { input: TrendsInputSchema, output: TrendsSchema },
} as const;
export type TrendsChannel = keyof typeof trendsChannels;
