// The trends put together from what a store counted (the team store's SQL, or the journal's): every series
// gets a point for every day of the range, zeros included, in the contract's order — so a chart never has
// to guess what a missing point means, and both stores' answers compare point for point.
import {
  BACKLOG_SECTIONS,
  type BacklogPoint,
  type ClosedPoint,
  type OverduePoint,
  type TrendScope,
  type Trends,
  type WeekTimes,
} from '#contract/trends.ts';

/** What a store counted: only the non-zero points of the per-day series. */
export interface CountedTrends {
  scope: TrendScope;
  reviewer: string;
  at: string;
  timeZone: string;
  days: string[];
  backlog: BacklogPoint[];
  closed: ClosedPoint[];
  times: WeekTimes[];
  overdue: OverduePoint[];
  targets: Trends['targets'];
}

export function trendsOf(counted: CountedTrends): Trends {
  const { days } = counted;
  const count = new Map<string, number>();
  for (const { day, section, count: n } of counted.backlog) count.set(`${day} ${section}`, n);
  const closedBy = new Map<string | null, Map<string, number>>();
  // "Mine" always draws this reviewer's line, even through a range they closed nothing in.
  if (counted.scope === 'mine') closedBy.set(counted.reviewer, new Map());
  for (const { day, reviewer, count: n } of counted.closed) {
    if (counted.scope === 'mine' && reviewer !== counted.reviewer) continue;
    const byDay = closedBy.get(reviewer) ?? new Map<string, number>();
    byDay.set(day, (byDay.get(day) ?? 0) + n);
    closedBy.set(reviewer, byDay);
  }
  const reviewers = [...closedBy.keys()].sort(byLogin);
  const overdue = new Map(counted.overdue.map((point) => [point.day, point.count]));
  return {
    ...counted,
    backlog: days.flatMap((day) =>
      BACKLOG_SECTIONS.map((section) => ({ day, section, count: count.get(`${day} ${section}`) ?? 0 })),
    ),
    closed: days.flatMap((day) =>
      reviewers.map((reviewer) => ({ day, reviewer, count: closedBy.get(reviewer)?.get(day) ?? 0 })),
    ),
    overdue: days.map((day) => ({ day, count: overdue.get(day) ?? 0 })),
  };
}

/** Logins in order, nobody's closings last. */
function byLogin(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a.localeCompare(b);
}
