import { DEFAULT_AGEING_TARGETS } from '#contract/queue-view.ts';
import { BACKLOG_SECTIONS, type TrendRange, type TrendScope, type Trends } from '#contract/trends.ts';

/**
 * Trends as `trends.read` answers them, made up but shaped as the contract says (a point per day and series,
 * zeros included; a row per week from Monday): the renderer's tests and the look's world (the screenshots)
 * draw from it. Every number is a function of the day's index, so the same call gives the same trends.
 */
export interface TrendsSampleOptions {
  scope?: TrendScope;
  days?: TrendRange;
  /** When they were read; the range ends on this instant's day (UTC). */
  at?: string;
  reviewer?: string;
  /** Who closed cases in the range ("team"); "mine" is the reviewer alone. */
  reviewers?: (string | null)[];
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A gentle wave and a trend: plausible counts that differ from day to day and from series to series. */
const wave = (index: number, seed: number, base: number, swing: number) =>
  Math.max(0, Math.round(base + swing * Math.sin((index + seed * 3) / 2.3) + ((index * seed) % 3)));

/** The range's days, oldest first, ending on `at`'s day. */
export function rangeDays(at: string, days: number): string[] {
  const today = Date.parse(`${at.slice(0, 10)}T00:00:00Z`);
  return Array.from({ length: days }, (_, index) => dayOf(today - (days - 1 - index) * DAY_MS));
}

/** The range's weeks: each Monday in it, and the range's first day when that is not one. */
function weekStarts(days: string[]): string[] {
  return days.filter((day, index) => index === 0 || new Date(`${day}T00:00:00Z`).getUTCDay() === 1);
}

export function trendsSample(options: TrendsSampleOptions = {}): Trends {
  const scope = options.scope ?? 'team';
  const at = options.at ?? '2026-11-27T14:30:00.000Z';
  const reviewer = options.reviewer ?? 'lee';
  const reviewers = scope === 'mine' ? [reviewer] : (options.reviewers ?? ['dana', 'lee', 'sam', null]);
  const days = rangeDays(at, options.days ?? 30);
  const sectionBase = { retry: 6, document: 14, kba: 3, unverified: 9, other: 0 } as const;
  const times = (index: number, scale: number) => ({
    count: 10 + index,
    medianSeconds: scale * (2 + (index % 3)),
    p90Seconds: scale * (6 + ((index * 2) % 5)),
  });
  return {
    scope,
    reviewer,
    at,
    timeZone: 'UTC',
    days,
    backlog: days.flatMap((day, index) =>
      BACKLOG_SECTIONS.map((section, seed) => ({
        day,
        section,
        count: section === 'other' ? 0 : wave(index, seed + 1, sectionBase[section], 3),
      })),
    ),
    closed: days.flatMap((day, index) =>
      reviewers.map((who, seed) => ({
        day,
        reviewer: who,
        count: who === null ? (index % 4 === 0 ? 1 : 0) : wave(index, seed + 2, 3, 2),
      })),
    ),
    times: weekStarts(days).map((weekFrom, index) => ({
      weekFrom,
      firstAction: times(index, 1200),
      resolution: index === 1 ? { count: 0, medianSeconds: null, p90Seconds: null } : times(index, 7200),
    })),
    overdue: days.map((day, index) => ({ day, count: wave(index, 5, 2, 2) })),
    targets: { ...DEFAULT_AGEING_TARGETS },
  };
}
