// The trends as the team store counts them (main/team/claims/team-trends.ts), on the shared trends world
// (test/support/trends-world.ts) read at its fixed moment (the store's `vetted.now`): each series day by day in
// New York across the end of daylight saving time, "team" against "mine", an empty range (zeros, not missing
// points) — and the same world in a solo desk's journal giving the very same figures.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trends } from '#contract/trends.ts';
import type { SqliteJournal } from '#main/data/journal/index.ts';
import type { TrendsQuery } from '#main/features/team-interfaces/trends.ts';
import { startOfDay } from '#main/ground/calendar.ts';
import { teamTrends } from '#main/team/claims/team-trends.ts';
import { teamClientConfig } from '#main/team/store/pool.ts';
import {
  type ClaimsReviewer,
  type ClaimsTeam,
  reviewersAndALead,
} from '#test/support/team/claims-support.ts';
import {
  type Names,
  TRENDS_EXPECTED,
  TRENDS_NOW,
  TRENDS_TARGETS,
  TRENDS_WEEK,
  TRENDS_ZONE,
  trendsInJournal,
  trendsInTeam,
} from '#test/support/trends-world.ts';
import { acted, customerWithHistory } from './overview-support.ts';

let team: ClaimsTeam;
let lee: ClaimsReviewer;
let names: Names;
let pool: pg.Pool;
let journal: SqliteJournal;

beforeAll(async () => {
  const world = await reviewersAndALead();
  team = world.team;
  lee = world.lee;
  names = await trendsInTeam(world.team, { ana: world.ana, ben: world.ben, lee });
  // The lead's sessions read at the world's moment: the trends follow the store's clock, never a desk's.
  pool = new pg.Pool({
    ...teamClientConfig(lee.connection, lee.password),
    options: `-c vetted.now=${TRENDS_NOW}`,
    max: 2,
  });
  journal = await trendsInJournal(names);
});
afterAll(async () => {
  await pool?.end();
  await journal?.close();
});

const ask = (scope: 'team' | 'mine', range = TRENDS_WEEK): TrendsQuery => ({
  scope,
  ...range,
  reviewer: names.ana,
  targets: TRENDS_TARGETS,
  timeZone: TRENDS_ZONE,
});
const read = (scope: 'team' | 'mine', range = TRENDS_WEEK) =>
  teamTrends({ pool, target: lee.connection }).read(ask(scope, range));

const series = (trends: Trends, section: string) =>
  trends.backlog.filter((point) => point.section === section).map((point) => point.count);
const closedBy = (trends: Trends, reviewer: string | null) =>
  trends.closed.filter((point) => point.reviewer === reviewer).map((point) => point.count);

describe('the team’s trends over a week in New York', () => {
  it('has every day of the range, read at the store’s moment', async () => {
    const trends = await read('team');
    expect(trends).toMatchObject({
      scope: 'team',
      reviewer: names.ana,
      at: TRENDS_NOW,
      timeZone: TRENDS_ZONE,
      days: TRENDS_EXPECTED.days,
      targets: TRENDS_TARGETS,
    });
  });

  it('counts the backlog per section at each day’s end, the 25-hour Sunday included', async () => {
    const trends = await read('team');
    expect(trends.backlog).toHaveLength(7 * 5);
    for (const [section, counts] of Object.entries(TRENDS_EXPECTED.backlog)) {
      expect(series(trends, section), section).toEqual(counts);
    }
  });

  it('credits each closing to the last reviewer who acted, on the day it happened in New York', async () => {
    const trends = await read('team');
    // c-flip on the 29th (nobody), c-lead on the 30th (lee), c-retry at 23:30 on Sunday the 1st (04:30 UTC on
    // the 2nd) and c-kba on the 3rd (ana's entry 400 ms after the status it caused).
    expect(closedBy(trends, names.ana)).toEqual([0, 0, 0, 1, 0, 1, 0]);
    expect(closedBy(trends, names.lee)).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect(closedBy(trends, null)).toEqual([1, 0, 0, 0, 0, 0, 0]);
    expect(trends.closed).toHaveLength(7 * 3);
    expect(trends.closed.slice(0, 3).map((point) => point.reviewer)).toEqual([
      ...[names.ana, names.lee].sort((a, b) => a.localeCompare(b)),
      null,
    ]);
  });

  it('gives the times per week from Monday, the first week cut by the range, as percentile_cont does', async () => {
    const trends = await read('team');
    expect(trends.times).toEqual([
      {
        // Visits begun Thursday to Sunday: first actions after 300 s (c-kba, unverified), 600 s (c-doc: its
        // creation is no first action) and 1 h (c-kba, kba); c-flip's retry never acted on. Resolved after 1 h
        // (c-flip), 2 days (c-kba unverified) and 3 days (c-kba kba); c-doc still waiting.
        weekFrom: '2026-10-29',
        firstAction: { count: 3, medianSeconds: 600, p90Seconds: 600 + 0.8 * 3000 },
        resolution: { count: 3, medianSeconds: 172_800, p90Seconds: 172_800 + 0.8 * 86_400 },
      },
      {
        // c-late: acted on after 30 minutes, verified only after now.
        weekFrom: '2026-11-02',
        firstAction: { count: 1, medianSeconds: 1800, p90Seconds: 1800 },
        resolution: { count: 0, medianSeconds: null, p90Seconds: null },
      },
    ]);
  });

  it('counts the overdue cases at each day’s end against the targets', async () => {
    // c-retry overdue from the 29th until closed on the 1st; c-gone until gone on the 2nd; c-doc from the 1st.
    expect((await read('team')).overdue).toEqual(TRENDS_EXPECTED.overdue.all);
  });
});

describe('a reviewer’s own trends', () => {
  it('keeps her closings, her first actions and resolutions, and the overdue cases she held', async () => {
    const trends = await read('mine');
    expect(trends.scope).toBe('mine');
    expect(trends.closed.map((point) => point.reviewer)).toEqual(Array(7).fill(names.ana));
    expect(closedBy(trends, names.ana)).toEqual([0, 0, 0, 1, 0, 1, 0]);
    expect(trends.times.map((week) => [week.firstAction, week.resolution])).toEqual([
      [
        { count: 1, medianSeconds: 3600, p90Seconds: 3600 },
        { count: 1, medianSeconds: 259_200, p90Seconds: 259_200 },
      ],
      [
        { count: 1, medianSeconds: 1800, p90Seconds: 1800 },
        { count: 0, medianSeconds: null, p90Seconds: null },
      ],
    ]);
    // Held from the audit log's claim entries: c-gone until she released it on the 31st, c-retry until it
    // closed, c-doc once the lead reassigned it to her on the 2nd (ben held it on the 1st).
    expect(trends.overdue).toEqual(TRENDS_EXPECTED.overdue.ana);
    // The backlog is the queue's, whoever asks.
    expect(trends.backlog).toEqual((await read('team')).backlog);
  });
});

describe('a range with nothing in it', () => {
  it('has a zero for every day and section, not a missing point', async () => {
    const range = { from: '2026-09-01', to: '2026-09-07' };
    const team = await read('team', range);
    expect(team.days).toHaveLength(7);
    expect(team.backlog).toHaveLength(7 * 5);
    expect(team.backlog.every((point) => point.count === 0)).toBe(true);
    expect(team.overdue).toEqual(team.days.map((day) => ({ day, count: 0 })));
    expect(team.closed).toEqual([]);
    // Tuesday the 1st to Sunday the 6th, then Monday the 7th.
    const none = { count: 0, medianSeconds: null, p90Seconds: null };
    expect(team.times).toEqual([
      { weekFrom: '2026-09-01', firstAction: none, resolution: none },
      { weekFrom: '2026-09-07', firstAction: none, resolution: none },
    ]);
    const mine = await read('mine', range);
    expect(mine.closed).toEqual(mine.days.map((day) => ({ day, reviewer: names.ana, count: 0 })));
  });
});

describe('a hub’s entries', () => {
  it('credit its closings to nobody: a hub is not a person', async () => {
    // Mid-September, outside every other range read here (this customer is the team store's only).
    const hub = await team.reviewer('hub', 'add-hub');
    await customerWithHistory(team, 'k-hub', [
      ['document', '2026-09-15T14:00:00.000Z'],
      ['verified', '2026-09-15T16:00:00.000Z'],
    ]);
    await acted(hub, 'k-hub', 'note.add', '2026-09-15T15:00:00.000Z');
    const trends = await read('team', { from: '2026-09-15', to: '2026-09-15' });
    expect(trends.closed).toEqual([{ day: '2026-09-15', reviewer: null, count: 1 }]);
  });
});

describe('the same world on a solo desk’s journal', () => {
  it('gives the very same figures as the team store', async () => {
    const team = await read('mine');
    const solo = await journal.trends.read(ask('mine'));
    // A solo desk has no claims: its reviewer holds every case, so its overdue cases are the team's all.
    expect(solo).toEqual({ ...team, overdue: TRENDS_EXPECTED.overdue.all });
    const teamWide = await read('team');
    expect(solo.overdue).toEqual(teamWide.overdue);
  });

  it('agrees on an empty range and on the whole month', async () => {
    for (const range of [
      { from: '2026-09-01', to: '2026-09-07' },
      { from: '2026-10-06', to: '2026-11-04' },
    ]) {
      const team = await read('mine', range);
      expect(await journal.trends.read(ask('mine', range))).toEqual({
        ...team,
        overdue: (await read('team', range)).overdue,
      });
    }
  });
});

describe('a day’s start', () => {
  it('is the same moment in TypeScript (a solo desk) as in PostgreSQL (the team store)', async () => {
    const days: [string, string][] = [
      ['2026-11-01', 'America/New_York'],
      ['2026-11-02', 'America/New_York'],
      ['2026-03-08', 'America/New_York'],
      ['2026-03-09', 'America/New_York'],
      // Midnight skipped, then shown twice (Chile changes its clocks at 00:00).
      ['2026-09-06', 'America/Santiago'],
      ['2026-04-05', 'America/Santiago'],
      ['2026-07-01', 'Asia/Kolkata'],
    ];
    for (const [day, zone] of days) {
      const { rows } = await pool.query('SELECT $1::date::timestamp AT TIME ZONE $2 AS start', [day, zone]);
      expect(startOfDay(day, zone), `${day} in ${zone}`).toEqual(rows[0].start);
    }
  });
});
