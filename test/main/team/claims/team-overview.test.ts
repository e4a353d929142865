// The Team screen's figures as the team store computes them (main/team/claims/team-overview.ts), on a seeded
// status history and audit log at a fixed moment: medians and 90th percentiles exact on known data, "today"
// and "this week" in the desk's time zone (a day that starts at 04:00 UTC in New York), closings credited
// to the last reviewer who acted, desks online from the sessions they keep open, cases held and overdue; a
// reviewer refused in words before the store is asked; the team's hubs listed apart, never as reviewers.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DESK_LISTENER_NAME, HUB_LISTENER_NAME, type TeamOverview } from '#contract/team-overview.ts';
import { uncheckedAction } from '#main/data/journal/repositories/audit.ts';
import { teamOverviewFeature } from '#main/features/claims/overview.ts';
import type { DeskContext } from '#main/features/feature.ts';
import { teamOverview } from '#main/team/claims/team-overview.ts';
import { teamRoles } from '#main/team/claims/team-roles.ts';
import { teamClientConfig } from '#main/team/store/pool.ts';
import {
  type ClaimsReviewer,
  type ClaimsTeam,
  reviewersAndALead,
  take,
} from '#test/support/team/claims-support.ts';
import { acted, customerWithHistory, plus } from './overview-support.ts';

// Wednesday 11 March 2026, 15:00 UTC: 11:00 in New York (EDT since Sunday the 8th, UTC−4).
const NOW = new Date('2026-03-11T15:00:00.000Z');
const NEW_YORK = 'America/New_York';
const due = {
  retry: '2026-03-10T15:00:00.000Z',
  document: '2026-03-01T09:01:30.000Z',
  review: NOW.toISOString(),
};

let team: ClaimsTeam;
let ana: ClaimsReviewer;
let ben: ClaimsReviewer;
let lee: ClaimsReviewer;

/**
 * The reviewer's pool, its sessions' "now" fixed at NOW (the store's setting `vetted.now`): the figures
 * follow the store's clock, never a desk's. Closed with the file (claims-support's afterAll).
 */
const atNow = new Map<ClaimsReviewer, pg.Pool>();
const fixedPool = (reviewer: ClaimsReviewer) => {
  let pool = atNow.get(reviewer);
  if (!pool) {
    pool = new pg.Pool({
      ...teamClientConfig(reviewer.connection, reviewer.password),
      options: `-c vetted.now=${NOW.toISOString()}`,
      max: 2,
    });
    atNow.set(reviewer, pool);
  }
  return pool;
};
afterAll(async () => {
  for (const pool of atNow.values()) await pool.end();
});

const overviewOf = (reviewer: ClaimsReviewer) =>
  teamOverview({ pool: fixedPool(reviewer), target: reviewer.connection, login: reviewer.name });
const read = (reviewer: ClaimsReviewer, timeZone = NEW_YORK) =>
  overviewOf(reviewer).read({
    timeZone,
    dueAt: (now) => {
      expect(now).toEqual(NOW);
      return due;
    },
  });
const memberOf = (overview: Omit<TeamOverview, 'targets'>, login: string) =>
  overview.members.find((member) => member.login === login);

/** Each describe's figures on a store of their own: ana and ben, reviewers, and lee, a lead. */
const freshTeam = async () => {
  ({ team, ana, ben, lee } = await reviewersAndALead());
};

describe('cases closed today and this week', () => {
  beforeAll(async () => {
    await freshTeam();
    // Around the New York day and week boundaries: today began at 04:00 UTC, the week on Monday 9th, 04:00 UTC.
    const closings: [string, string][] = [
      ['k-today', '2026-03-11T04:00:00.000Z'],
      ['k-yesterday-late', '2026-03-11T03:59:00.000Z'],
      ['k-monday', '2026-03-09T04:00:00.000Z'],
      ['k-sunday-late', '2026-03-09T03:59:00.000Z'],
    ];
    for (const [id, at] of closings) {
      await customerWithHistory(team, id, [
        ['document', plus(at, -3600)],
        ['verified', at],
      ]);
      await acted(ana, id, 'note.add', plus(at, -3000));
    }
    // Ben acted last before k-today closed; a claim's expiry appended after his entry is nobody's action.
    await acted(ben, 'k-today', 'document.upload', plus('2026-03-11T04:00:00.000Z', -600));
    await acted(ana, 'k-today', 'claim.expire', plus('2026-03-11T04:00:00.000Z', -60));
    // Verified, then suspended: one closing, not two. Nobody acted on it: the team's totals only.
    await customerWithHistory(team, 'k-twice', [
      ['retry', '2026-03-10T12:00:00.000Z'],
      ['verified', '2026-03-10T13:00:00.000Z'],
      ['suspended', '2026-03-10T14:00:00.000Z'],
    ]);
    // Closed after the moment asked about: not yet.
    await customerWithHistory(team, 'k-later', [
      ['document', '2026-03-11T14:00:00.000Z'],
      ['verified', '2026-03-11T16:00:00.000Z'],
    ]);
    await acted(ana, 'k-later', 'note.add', '2026-03-11T14:30:00.000Z');
  });

  it('counts from midnight and from Monday midnight in the desk’s time zone, crediting the last actor', async () => {
    const overview = await read(lee);
    expect(overview).toMatchObject({
      timeZone: NEW_YORK,
      todayFrom: '2026-03-11T04:00:00.000Z',
      weekFrom: '2026-03-09T04:00:00.000Z',
      closed: { today: 1, thisWeek: 4 },
    });
    expect(memberOf(overview, ben.name)).toMatchObject({ closedToday: 1, closedThisWeek: 1 });
    expect(memberOf(overview, ana.name)).toMatchObject({ closedToday: 0, closedThisWeek: 2 });
  });

  it('moves the boundaries with the time zone: in UTC the day began four hours earlier', async () => {
    const overview = await read(lee, 'UTC');
    expect(overview).toMatchObject({
      todayFrom: '2026-03-11T00:00:00.000Z',
      weekFrom: '2026-03-09T00:00:00.000Z',
      closed: { today: 2, thisWeek: 5 },
    });
    expect(memberOf(overview, ana.name)).toMatchObject({ closedToday: 1, closedThisWeek: 3 });
  });
});

describe('time to first action and to resolution, per section', () => {
  beforeAll(async () => {
    await freshTeam();
    // Five visits to "Needs retry" in the window: first actions after 60, 120, 180, 240 and 600 s; three
    // resolved (the next status came) after 1, 2 and 4 h.
    const firsts = [60, 120, 180, 240, 600];
    const resolutions = [3600, 7200, 14_400, null, null];
    for (const [i, first] of firsts.entries()) {
      const id = `r-${i}`;
      const entered = `2026-03-0${2 + i}T10:00:00.000Z`;
      const resolved = resolutions[i];
      // r-0's history repeats "retry" half an hour in: the same visit, measured from its start.
      await customerWithHistory(team, id, [
        ['retry', entered],
        ...(i === 0 ? ([['retry', plus(entered, 1800)]] as const) : []),
        ...(resolved ? ([['verified', plus(entered, resolved)]] as const) : []),
      ]);
      // How the case came in is not a first action, nor is a claim's expiry.
      await acted(ana, id, 'customer.create', plus(entered, 1));
      await acted(ben, id, 'claim.expire', plus(entered, 2));
      await acted(i % 2 ? ben : ana, id, 'note.add', plus(entered, first));
      await acted(ana, id, 'customer.retry', plus(entered, first + 30));
    }
    // A visit that began 31 days before is outside the window.
    await customerWithHistory(team, 'r-old', [
      ['retry', '2026-02-08T10:00:00.000Z'],
      ['verified', '2026-02-08T11:00:00.000Z'],
    ]);
    // A document visit with no action yet, then one acted on only after it ended (that action is the next
    // visit's, in "Unverified").
    await customerWithHistory(team, 'd-waiting', [['document', '2026-03-11T09:00:00.000Z']]);
    await customerWithHistory(team, 'd-moved', [
      ['document', '2026-03-10T09:00:00.000Z'],
      ['unverified', '2026-03-10T10:00:00.000Z'],
    ]);
    await acted(ben, 'd-moved', 'note.add', '2026-03-10T10:05:00.000Z');
  });

  it('gives median and 90th percentile exactly, interpolated as percentile_cont does', async () => {
    const { sections, figuresFrom } = await read(lee);
    expect(figuresFrom).toBe('2026-02-09T15:00:00.000Z');
    expect(sections.find((s) => s.section === 'retry')).toEqual({
      section: 'retry',
      entered: 5,
      // 180 s; 240 + 0.6 × (600 − 240)
      firstAction: { count: 5, medianSeconds: 180, p90Seconds: 456 },
      // 2 h; 2 h + 0.8 × (4 h − 2 h)
      resolution: { count: 3, medianSeconds: 7200, p90Seconds: 12_960 },
    });
    expect(sections.find((s) => s.section === 'document')).toEqual({
      section: 'document',
      entered: 2,
      firstAction: { count: 0, medianSeconds: null, p90Seconds: null },
      resolution: { count: 1, medianSeconds: 3600, p90Seconds: 3600 },
    });
    expect(sections.find((s) => s.section === 'unverified')).toMatchObject({
      entered: 1,
      firstAction: { count: 1, medianSeconds: 300 },
      resolution: { count: 0, medianSeconds: null, p90Seconds: null },
    });
    expect(sections.map((s) => s.section)).toEqual(['retry', 'document', 'unverified']);
  });
});

describe('who is online and who holds what', () => {
  beforeAll(freshTeam);

  it('counts each desk’s listening session, not a hub’s nor any other, and every case held and overdue', async () => {
    const sessions = [
      [ana, DESK_LISTENER_NAME],
      [ana, DESK_LISTENER_NAME],
      [ben, HUB_LISTENER_NAME],
      [ben, 'vetted-desk'],
    ] as const;
    const clients: pg.Client[] = [];
    try {
      for (const [who, name] of sessions) {
        const client = new pg.Client(
          teamClientConfig(who.connection, who.password, { applicationName: name }),
        );
        await client.connect();
        clients.push(client);
      }
      await team.addCustomers(2, 'document', 1);
      await take(ana, 'c-1');
      await take(ana, 'c-2');
      // Lee is a reviewer's login like any other: what pg_stat_activity tells him of others' sessions is enough.
      const overview = await read(lee);
      expect(memberOf(overview, ana.name)).toMatchObject({
        desks: 2,
        hubs: 0,
        holding: 2,
        overdue: 1,
        member: true,
      });
      expect(memberOf(overview, ben.name)).toMatchObject({ desks: 0, hubs: 1, holding: 0, overdue: 0 });
      expect(memberOf(overview, lee.name)).toMatchObject({ role: 'lead', me: true });
    } finally {
      for (const client of clients) await client.end();
    }
  });
});

describe('the team’s hubs', () => {
  beforeAll(freshTeam);

  it('lists the hubs apart, running or stopped, never among the reviewers', async () => {
    const running = await team.reviewer('hub', 'add-hub');
    const stopped = await team.reviewer('standby', 'add-hub');
    const client = new pg.Client(
      teamClientConfig(running.connection, running.password, { applicationName: HUB_LISTENER_NAME }),
    );
    await client.connect();
    // The hub's entry came last before a closing: the team's totals count it, no member row does.
    await customerWithHistory(team, 'k-hub', [
      ['document', '2026-03-11T10:00:00.000Z'],
      ['verified', '2026-03-11T12:00:00.000Z'],
    ]);
    await acted(running, 'k-hub', uncheckedAction('customer.refresh'), '2026-03-11T11:00:00.000Z');
    try {
      const overview = await read(lee);
      expect(overview.closed).toEqual({ today: 1, thisWeek: 1 });
      const byLogin = (a: { login: string }, b: { login: string }) => a.login.localeCompare(b.login);
      expect([...overview.hubs].sort(byLogin)).toEqual(
        [
          { login: running.name, running: 1 },
          { login: stopped.name, running: 0 },
        ].sort(byLogin),
      );
      expect(overview.members.map((member) => member.login)).toEqual(
        [ana.name, ben.name, lee.name].sort((a, b) => a.localeCompare(b)),
      );
    } finally {
      await client.end();
    }
  });
});

describe('a lead’s view', () => {
  beforeAll(freshTeam);

  const feature = (reviewer: ClaimsReviewer) => {
    const overview = overviewOf(reviewer);
    const read = vi.spyOn(overview, 'read');
    const context = { settings: { get: () => ({ ageingTargets: { retry: 24, document: 48, review: 72 } }) } };
    const handlers = teamOverviewFeature(context as unknown as DeskContext, {
      overview,
      roles: teamRoles(reviewer.store, reviewer.name),
      timeZone: NEW_YORK,
    }).handlers;
    return { handlers, read };
  };

  it('refuses a reviewer in words, before the store is asked for a figure', async () => {
    const { handlers, read } = feature(ben);
    await expect(handlers['team.overview'](undefined, { host: 'browser' })).rejects.toMatchObject({
      code: 'LeadOnly',
      message: expect.stringContaining('Only a lead can see the Team screen'),
    });
    expect(read).not.toHaveBeenCalled();
  });

  it('answers a lead, with the targets overdue was measured against', async () => {
    const { handlers } = feature(lee);
    const overview = await handlers['team.overview'](undefined, { host: 'browser' });
    expect(overview).toMatchObject({
      at: NOW.toISOString(),
      targets: { retry: 24, document: 48, review: 72 },
    });
  });
});
