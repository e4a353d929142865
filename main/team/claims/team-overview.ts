// The lead's Team screen on a team's desk: the store computes every figure (team-overview-sql.ts) in one
// read-only snapshot, so the counts agree with one another; this file only asks, checks the rows with zod
// and puts them together by login. Reviewers may read everything these statements read (the audit log, the
// claims, the status history, the server's list of sessions): the Team screen is a lead's view of what the
// team can already see, so the desk refuses a reviewer and the store needs no rule of its own.
import type pg from 'pg';
import { z } from 'zod';
import { SECTIONS, type Section, sectionOf } from '#contract/queue.ts';
import { TERMINAL_STATUSES } from '#contract/statuses.ts';
import {
  DESK_LISTENER_NAME,
  FIGURES_DAYS,
  HUB_LISTENER_NAME,
  NOBODYS_ACTION,
  NOT_A_FIRST_ACTION,
  type SectionFigures,
  type TeamMemberFigures,
  type TeamOverview,
} from '#contract/team-overview.ts';
import type { OverviewAsk, TeamOverviewSource } from '#main/features/team-interfaces/claims.ts';
import { PgTime, parseRow, parseRows } from '../journal/rows.ts';
import type { ConnectionTarget } from '../store/connection-error.ts';
import { Count, inSnapshot } from './snapshot.ts';
import { BOUNDARIES, CLOSED, HOLDING, ONLINE, SECTIONS as SECTION_FIGURES } from './team-overview-sql.ts';

const DAY_MS = 86_400_000;

/** The statuses that are a section's own name (the rest of the non-terminal ones are "Other"). */
const STATUS_SECTIONS = SECTIONS.filter(
  (section) => sectionOf(section) === section && !(TERMINAL_STATUSES as readonly string[]).includes(section),
);

const Seconds = z.number().nullable();
const BoundariesSchema = z.object({ today_from: PgTime, week_from: PgTime });
const ReviewerSchema = z.object({ login: z.string(), role: z.enum(['reviewer', 'lead']) });
const HubSchema = z.object({ login: z.string() });
const OnlineSchema = z.object({ login: z.string(), desks: Count, hubs: Count });
const HoldingSchema = z.object({ login: z.string(), holding: Count, overdue: Count });
const ClosedSchema = z.object({ login: z.string().nullable(), today: Count, week: Count });
/** A row of SECTIONS (team-overview-sql.ts): a section's visits and their times. */
export const SectionRowSchema = z.object({
  section: z.enum(SECTIONS),
  entered: Count,
  acted: Count,
  resolved: Count,
  first_median: Seconds,
  first_p90: Seconds,
  resolution_median: Seconds,
  resolution_p90: Seconds,
});

export interface TeamOverviewOptions {
  pool: pg.Pool;
  target: ConnectionTarget;
  /** This desk's login (its row is marked `me`). */
  login: string;
}

export function teamOverview({ pool, target, login }: TeamOverviewOptions): TeamOverviewSource {
  return {
    async read(ask) {
      return inSnapshot(pool, target, (client, at) => readFigures(client, at, ask, login));
    },
  };
}

async function readFigures(
  client: pg.ClientBase,
  at: Date,
  ask: OverviewAsk,
  login: string,
): Promise<Omit<TeamOverview, 'targets'>> {
  const rows = async <T>(schema: z.ZodType<T>, table: string, sql: string, params: unknown[] = []) =>
    parseRows(schema, table, (await client.query(sql, params)).rows);
  const now = at.toISOString();
  const figuresFrom = new Date(at.getTime() - FIGURES_DAYS * DAY_MS).toISOString();

  const bounds = parseRow(
    BoundariesSchema,
    'time zone',
    (await client.query(BOUNDARIES, [now, ask.timeZone])).rows,
  );
  const reviewers = await rows(ReviewerSchema, 'reviewers', 'SELECT * FROM vetted.team_reviewers()');
  const hubs = new Set(
    (await rows(HubSchema, 'hubs', 'SELECT * FROM vetted.team_hubs()')).map((h) => h.login),
  );
  const online = await rows(OnlineSchema, 'sessions', ONLINE, [DESK_LISTENER_NAME, HUB_LISTENER_NAME]);
  const holding = await rows(HoldingSchema, 'claims', HOLDING, [JSON.stringify(ask.dueAt(at))]);
  const closed = await rows(ClosedSchema, 'status_history', CLOSED, [
    now,
    bounds.week_from,
    bounds.today_from,
    TERMINAL_STATUSES,
    NOBODYS_ACTION,
  ]);
  const sections = await rows(SectionRowSchema, 'status_history', SECTION_FIGURES, [
    now,
    figuresFrom,
    TERMINAL_STATUSES,
    [...NOT_A_FIRST_ACTION, ...NOBODYS_ACTION],
    STATUS_SECTIONS,
  ]);

  return {
    at: now,
    timeZone: ask.timeZone,
    todayFrom: bounds.today_from,
    weekFrom: bounds.week_from,
    figuresFrom,
    // A hub is not a person: never a member, whatever its sessions or its entries (its closings count in
    // the totals only, as nobody's).
    members: membersOf(
      {
        reviewers,
        online: online.filter((row) => !hubs.has(row.login)),
        holding,
        closed: closed.filter((row) => row.login === null || !hubs.has(row.login)),
      },
      login,
    ),
    hubs: [...hubs].map((hub) => ({
      login: hub,
      running: online.find((row) => row.login === hub)?.hubs ?? 0,
    })),
    closed: {
      today: closed.reduce((sum, row) => sum + row.today, 0),
      thisWeek: closed.reduce((sum, row) => sum + row.week, 0),
    },
    sections: sectionFigures(sections),
  };
}

/** SECTIONS' rows as the contract's figures, in the queue's order of sections. */
export function sectionFigures(rows: readonly z.infer<typeof SectionRowSchema>[]): SectionFigures[] {
  return rows
    .map((row) => ({
      section: row.section,
      entered: row.entered,
      firstAction: { count: row.acted, medianSeconds: row.first_median, p90Seconds: row.first_p90 },
      resolution: {
        count: row.resolved,
        medianSeconds: row.resolution_median,
        p90Seconds: row.resolution_p90,
      },
    }))
    .sort((a, b) => order(a.section) - order(b.section));
}

const order = (section: Section) => SECTIONS.indexOf(section);

/** One row per login the team knows or whose work shows: its reviewers, and anyone online, holding or closing. */
function membersOf(
  figures: {
    reviewers: z.infer<typeof ReviewerSchema>[];
    online: z.infer<typeof OnlineSchema>[];
    holding: z.infer<typeof HoldingSchema>[];
    closed: z.infer<typeof ClosedSchema>[];
  },
  me: string,
): TeamMemberFigures[] {
  const members = new Map<string, TeamMemberFigures>();
  const member = (login: string) => {
    let row = members.get(login);
    if (!row) {
      row = {
        login,
        role: 'reviewer',
        me: login === me,
        member: false,
        desks: 0,
        hubs: 0,
        holding: 0,
        overdue: 0,
        closedToday: 0,
        closedThisWeek: 0,
      };
      members.set(login, row);
    }
    return row;
  };
  for (const { login, role } of figures.reviewers) Object.assign(member(login), { role, member: true });
  for (const { login, desks, hubs } of figures.online) Object.assign(member(login), { desks, hubs });
  for (const { login, holding, overdue } of figures.holding)
    Object.assign(member(login), { holding, overdue });
  for (const { login, today, week } of figures.closed) {
    if (login !== null) Object.assign(member(login), { closedToday: today, closedThisWeek: week });
  }
  return [...members.values()].sort((a, b) => a.login.localeCompare(b.login));
}
