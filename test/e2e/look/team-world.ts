import type { Approval } from '#contract/approvals.ts';
import { type Claim, caseLink } from '#contract/claims.ts';
import { DEFAULT_AGEING_TARGETS } from '#contract/queue-view.ts';
import { allowedTo, type TeamRole } from '#contract/roles.ts';
import type { TeamOverview } from '#contract/team-overview.ts';
import type { Handlers } from '#main/ground/serve.ts';
import { trendsWorld } from './trends-world.ts';
import { ago, customerDetail, NOW, PEOPLE } from './world.ts';

/**
 * The look's world as a team's desk sees it (look-team.spec.ts): the same customers, now held by the team's
 * reviewers. Dana, a reviewer, holds Aleksandra's case (a document to upload) and Jean-Baptiste's, whose
 * one-time retry waits for a lead's approval (four eyes); Sam holds Maria's; Lee is the lead. Two hubs, one
 * running, are listed apart. Every time is fixed around NOW, as in world.ts.
 */
export type TeamView = 'reviewer' | 'lead';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TEAM_ID = '3f6c2a1e-8b4d-4c7e-9a2f-5d1b7e3c9a40';

const idOf = (name: string): string => {
  const found = PEOPLE.find((who) => who.name === name);
  if (!found) throw new Error(`No ${name} in the look's world.`);
  return found.id;
};
export const HELD_BY_ANOTHER = idOf('Maria Fernández-López');
export const HELD_BY_ME = idOf('Aleksandra Wojciechowska');
export const FOUR_EYES = idOf('Jean-Baptiste Moreau');

const claim = (customerId: string, holder: string, me: string, since: number): Claim => ({
  customerId,
  holder,
  mine: holder === me,
  since: ago(since),
  how: 'take',
  by: holder,
  note: null,
});

const HOLDERS: Record<string, [string, number]> = {
  [HELD_BY_ANOTHER]: ['sam', 25 * MINUTE],
  [HELD_BY_ME]: ['dana', 2 * HOUR],
  [FOUR_EYES]: ['dana', 3 * MINUTE],
};

function approval(me: string, role: TeamRole): Approval {
  return {
    id: '0b7d9c2e-4a6f-4e1b-8c3d-2f5a7b9e1c60',
    kind: 'retry',
    customerId: FOUR_EYES,
    maker: 'dana',
    mine: me === 'dana',
    requestedAt: ago(2 * MINUTE),
    expiresAt: new Date(NOW + 24 * HOUR - 2 * MINUTE).toISOString(),
    state: 'pending',
    checker: null,
    decidedAt: null,
    note: null,
    outcome: null,
    canDecide: role === 'lead' && me !== 'dana',
  };
}

function overview(me: string): Omit<TeamOverview, 'targets'> & Pick<TeamOverview, 'targets'> {
  const member = (login: string, role: TeamRole, desks: number, counts: number[]) => ({
    login,
    role,
    me: login === me,
    member: true,
    desks,
    hubs: 0,
    holding: counts[0] ?? 0,
    overdue: counts[1] ?? 0,
    closedToday: counts[2] ?? 0,
    closedThisWeek: counts[3] ?? 0,
  });
  const time = (count: number, median: number | null, p90: number | null) => ({
    count,
    medianSeconds: median,
    p90Seconds: p90,
  });
  return {
    at: ago(0),
    timeZone: 'UTC',
    todayFrom: '2026-11-27T00:00:00.000Z',
    weekFrom: '2026-11-23T00:00:00.000Z',
    figuresFrom: ago(30 * 24 * HOUR),
    members: [
      member('dana', 'reviewer', 1, [2, 1, 3, 14]),
      member('lee', 'lead', 1, [0, 0, 1, 6]),
      member('sam', 'reviewer', 0, [1, 0, 2, 9]),
    ],
    hubs: [
      { login: 'hub', running: 1 },
      { login: 'hub2', running: 0 },
    ],
    closed: { today: 7, thisWeek: 31 },
    sections: [
      {
        section: 'retry',
        entered: 18,
        firstAction: time(17, 1260, 5400),
        resolution: time(15, 20_100, 86_400),
      },
      {
        section: 'document',
        entered: 25,
        firstAction: time(22, 2460, 9000),
        resolution: time(19, 41_000, 151_000),
      },
      {
        section: 'review',
        entered: 21,
        firstAction: time(0, null, null),
        resolution: time(20, 7200, 30_000),
      },
    ],
    targets: { ...DEFAULT_AGEING_TARGETS },
  };
}

/** What a team's desk answers beyond the solo world: `base` is that world, whose queue gains the holders. */
export function teamWorld(view: TeamView, base: Partial<Handlers>): Partial<Handlers> {
  const me = view === 'lead' ? 'lee' : 'dana';
  const role: TeamRole = view;
  const claimOf = (customerId: string) => {
    const held = HOLDERS[customerId];
    return held ? claim(customerId, held[0], me, held[1]) : null;
  };
  const waiting = approval(me, role);
  return {
    'team.me': () => ({ mode: 'team', reviewer: me, role, claims: true, can: allowedTo(role) }),
    'team.status': () => ({
      mode: 'team',
      team: {
        teamId: TEAM_ID,
        reviewer: me,
        host: 'db.example.org',
        port: 5432,
        database: 'vetted',
        sslmode: 'verify-full',
      },
      store: 'connected',
      hub: 'listening',
      restartNeeded: false,
    }),
    'team.settings': () => ({
      claimIdleMinutes: 30,
      fourEyes: { retry: true, exportNames: false, expiryHours: 24 },
      lockIdleMaxMinutes: 15,
    }),
    'team.overview': () => overview(me),
    ...trendsWorld(me),
    'queue.window': async (input, context) => {
      const answer = await base['queue.window']!(input, context);
      return {
        ...answer,
        rows: answer.rows.map((row) => (HOLDERS[row.id] ? { ...row, claimedBy: HOLDERS[row.id]![0] } : row)),
      };
    },
    // A reviewer holding a case may act on it; one held by someone else is refused its actions by the
    // renderer itself (withClaim), as main would refuse them.
    'customers.get': ({ id }) => customerDetail(id),
    'claims.get': ({ customerId }) => ({ customerId, claim: claimOf(customerId) }),
    'claims.reviewers': () =>
      (['dana', 'lee', 'sam'] as const).map((login) => ({
        login,
        role: login === 'lee' ? ('lead' as const) : ('reviewer' as const),
        me: login === me,
      })),
    'claims.counts': () => ({
      holders: [
        {
          holder: null,
          mine: false,
          waiting: { retry: 0, document: 1, review: 1 },
          overdue: { retry: 0, document: 0, review: 0 },
          held: 0,
        },
        {
          holder: 'dana',
          mine: me === 'dana',
          waiting: { retry: 1, document: 1, review: 0 },
          overdue: { retry: 0, document: 1, review: 0 },
          held: 2,
        },
        {
          holder: 'sam',
          mine: false,
          waiting: { retry: 1, document: 0, review: 0 },
          overdue: { retry: 1, document: 0, review: 0 },
          held: 1,
        },
      ],
      targets: { ...DEFAULT_AGEING_TARGETS },
      at: ago(0),
    }),
    'case.link': ({ customerId }) => ({ customerId, link: caseLink(customerId), address: null }),
    'approvals.required': () => ({ retry: true, exportNames: false }),
    'approvals.list': () => [waiting],
    'approvals.forCase': ({ customerId }) => ({ approval: customerId === FOUR_EYES ? waiting : null }),
    'approvals.get': () => ({
      ...waiting,
      fields: [
        { label: 'Name', value: 'Jean-Baptiste Moreau' },
        { label: 'Date of birth', value: '1984-03-12' },
        { label: 'SSN', value: '•••-••-4821' },
        { label: 'Address', value: '41 Rue des Lilas, Springfield, IL 62704' },
      ],
      ssnCheck: 'unchecked',
    }),
  };
}
