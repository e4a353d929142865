// The trends a solo desk counts from its own journal (trends-sql.ts): the days of the range in the desk's time
// zone, made here (SQLite knows no time zones), read in one snapshot, the percentiles finished here as
// PostgreSQL's percentile_cont gives them, so a solo desk's figures are the team store's for the same log.

import { TERMINAL_STATUSES } from '#contract/statuses.ts';
import { NOBODYS_ACTION, NOT_A_FIRST_ACTION } from '#contract/team-overview.ts';
import {
  BACKLOG_SECTIONS,
  type BacklogPoint,
  type Trends,
  type TrendsQuery,
  type WeekTimes,
} from '#contract/trends.ts';
import { addDays, mondayOf, startOfDay } from '#main/ground/calendar.ts';
import { percentileCont } from '#main/ground/percentile.ts';
import type { Statements } from './db.ts';
import type { Clock } from './time.ts';
import { trendsOf } from './trends-points.ts';
import { BACKLOG, CLOSED_PER_DAY, OVERDUE_PER_DAY, VISITS_PER_WEEK } from './trends-sql.ts';

interface JournalTrends {
  read(query: TrendsQuery): Trends;
}

const HOUR_MS = 3_600_000;
const STATUS_SECTIONS = BACKLOG_SECTIONS.filter((section) => section !== 'other');

interface RangeDay {
  day: string;
  from: string;
  end: string;
  retryDue: string;
  documentDue: string;
}

/** The days from `from` to `to`, each from its midnight to the next, cut at `now`. */
function rangeDays(query: TrendsQuery, now: Date): RangeDay[] {
  const days: RangeDay[] = [];
  for (let day = query.from; day <= query.to; day = addDays(day, 1)) {
    const end = Math.min(startOfDay(addDays(day, 1), query.timeZone).getTime(), now.getTime());
    days.push({
      day,
      from: startOfDay(day, query.timeZone).toISOString(),
      end: new Date(end).toISOString(),
      retryDue: new Date(end - query.targets.retry * HOUR_MS).toISOString(),
      documentDue: new Date(end - query.targets.document * HOUR_MS).toISOString(),
    });
  }
  return days;
}

/** The range's weeks: from each Monday (or the range's first day), from its first day's start to its last's end. */
function rangeWeeks(days: readonly RangeDay[], first: string) {
  const weeks = new Map<string, { week: string; from: string; to: string }>();
  for (const { day, from, end } of days) {
    const week = mondayOf(day) > first ? mondayOf(day) : first;
    const known = weeks.get(week);
    if (known) known.to = end;
    else weeks.set(week, { week, from, to: end });
  }
  return [...weeks.values()];
}

interface VisitRow {
  week: string;
  entered: string;
  first_at: string | null;
  first_actor: string | null;
  left_at: string | null;
  resolver: string | null;
}

export function journalTrends(sql: Statements, clock: Clock): JournalTrends {
  return {
    read(query) {
      const now = clock();
      const days = rangeDays(query, now);
      const weeks = rangeWeeks(days, query.from);
      const base = { days: JSON.stringify(days) };
      const terminal = JSON.stringify(TERMINAL_STATUSES);
      const nobody = JSON.stringify(NOBODYS_ACTION);
      // One snapshot: the statements run one after another, synchronously, on main's one connection to the
      // journal (writers included), so no write can come between them.
      const backlog = sql.all<BacklogPoint>(BACKLOG, {
        ...base,
        terminal,
        sections: JSON.stringify(STATUS_SECTIONS),
      });
      const closed = sql.all<{ day: string; login: string | null; count: number }>(CLOSED_PER_DAY, {
        ...base,
        terminal,
        nobody,
        reviewer: query.reviewer,
      });
      const visits = sql.all<VisitRow>(VISITS_PER_WEEK, {
        weeks: JSON.stringify(weeks),
        now: now.toISOString(),
        terminal,
        nobody,
        notFirst: JSON.stringify([...NOT_A_FIRST_ACTION, ...NOBODYS_ACTION]),
        reviewer: query.reviewer,
      });
      const overdue = sql.all<{ day: string; count: number }>(OVERDUE_PER_DAY, base);
      return trendsOf({
        scope: query.scope,
        reviewer: query.reviewer,
        at: now.toISOString(),
        timeZone: query.timeZone,
        days: days.map((day) => day.day),
        backlog,
        closed: closed.map(({ day, login, count }) => ({ day, reviewer: login, count })),
        times: weeks.map(({ week }) => timesOf(week, visits, query.scope === 'mine' ? query.reviewer : null)),
        overdue,
        targets: query.targets,
      });
    },
  };
}

/** A week's figures from its visits: `mine`, the reviewer whose first actions and resolutions count (null: all). */
function timesOf(week: string, visits: readonly VisitRow[], mine: string | null): WeekTimes {
  const ofWeek = visits.filter((visit) => visit.week === week);
  const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;
  const first = ofWeek.flatMap((v) =>
    v.first_at !== null && (mine === null || v.first_actor === mine) ? [seconds(v.entered, v.first_at)] : [],
  );
  const resolution = ofWeek.flatMap((v) =>
    v.left_at !== null && (mine === null || v.resolver === mine) ? [seconds(v.entered, v.left_at)] : [],
  );
  return { weekFrom: week, firstAction: figure(first), resolution: figure(resolution) };
}

const figure = (values: number[]) => ({
  count: values.length,
  medianSeconds: percentileCont(values, 0.5),
  p90Seconds: percentileCont(values, 0.9),
});
