// The trends on a team's desk: the team store counts every series (team-trends-sql.ts) in one read-only
// snapshot, by its own clock, so the charts agree with one another and with the Team screen; this file asks,
// checks the rows with zod and hands them to trendsOf, which fills in the zeros.
import type pg from 'pg';
import { z } from 'zod';
import { TERMINAL_STATUSES } from '#contract/statuses.ts';
import { NOBODYS_ACTION, NOT_A_FIRST_ACTION } from '#contract/team-overview.ts';
import { BACKLOG_SECTIONS, BacklogSectionSchema, type Trends } from '#contract/trends.ts';
import { trendsOf } from '#main/data/journal/trends-points.ts';
import type { TrendsQuery, TrendsSource } from '#main/features/team-interfaces/trends.ts';
import { parseRows } from '../journal/rows.ts';
import type { ConnectionTarget } from '../store/connection-error.ts';
import { Count, inSnapshot } from './snapshot.ts';
import { BACKLOG, CLOSED_PER_DAY, OVERDUE_PER_DAY, TIMES_PER_WEEK, TREND_DAYS } from './team-trends-sql.ts';

const Seconds = z.number().nullable();
const Day = z.string();
const DaySchema = z.object({ day: Day });
const BacklogSchema = z.object({ day: Day, section: BacklogSectionSchema, count: Count });
const ClosedSchema = z.object({ day: Day, login: z.string().nullable(), count: Count });
const OverdueSchema = z.object({ day: Day, count: Count });
const WeekSchema = z.object({
  week_from: Day,
  first_count: Count,
  first_median: Seconds,
  first_p90: Seconds,
  resolution_count: Count,
  resolution_median: Seconds,
  resolution_p90: Seconds,
});
const HubSchema = z.object({ login: z.string() });

/** The open sections named after their status; every other open status is counted as 'other'. */
const STATUS_SECTIONS = BACKLOG_SECTIONS.filter((section) => section !== 'other');

export interface TeamTrendsOptions {
  pool: pg.Pool;
  target: ConnectionTarget;
}

export function teamTrends({ pool, target }: TeamTrendsOptions): TrendsSource {
  return {
    async read(query) {
      return inSnapshot(pool, target, (client, now) => readTrends(client, now, query));
    },
  };
}

async function readTrends(client: pg.ClientBase, now: Date, query: TrendsQuery): Promise<Trends> {
  const at = now.toISOString();
  const range = [query.from, query.to, query.timeZone, at];
  const rows = async <T>(schema: z.ZodType<T>, table: string, sql: string, params: unknown[]) =>
    parseRows(schema, table, (await client.query(sql, [...range, ...params])).rows);
  const mine = query.scope === 'mine' ? query.reviewer : null;

  const days = (await rows(DaySchema, 'days', TREND_DAYS, [])).map((row) => row.day);
  const backlog = await rows(BacklogSchema, 'status_history', BACKLOG, [TERMINAL_STATUSES, STATUS_SECTIONS]);
  const closed = await rows(ClosedSchema, 'status_history', CLOSED_PER_DAY, [
    TERMINAL_STATUSES,
    NOBODYS_ACTION,
  ]);
  const weeks = await rows(WeekSchema, 'status_history', TIMES_PER_WEEK, [
    TERMINAL_STATUSES,
    [...NOT_A_FIRST_ACTION, ...NOBODYS_ACTION],
    NOBODYS_ACTION,
    mine,
  ]);
  const overdue = await rows(OverdueSchema, 'claims', OVERDUE_PER_DAY, [
    mine,
    JSON.stringify({ retry: query.targets.retry, document: query.targets.document }),
  ]);
  // A hub is not a person: what it closed counts as nobody's, as in the Team screen's totals.
  const hubs = new Set(
    parseRows(HubSchema, 'hubs', (await client.query('SELECT * FROM vetted.team_hubs()')).rows).map(
      (hub) => hub.login,
    ),
  );
  return trendsOf({
    scope: query.scope,
    reviewer: query.reviewer,
    at,
    timeZone: query.timeZone,
    days,
    backlog,
    closed: closed.map(({ day, login, count }) => ({
      day,
      reviewer: login !== null && hubs.has(login) ? null : login,
      count,
    })),
    times: weeks.map((week) => ({
      weekFrom: week.week_from,
      firstAction: {
        count: week.first_count,
        medianSeconds: week.first_median,
        p90Seconds: week.first_p90,
      },
      resolution: {
        count: week.resolution_count,
        medianSeconds: week.resolution_median,
        p90Seconds: week.resolution_p90,
      },
    })),
    overdue,
    targets: query.targets,
  });
}
