import { z } from 'zod';
import { SectionSchema } from './queue.ts';
import { AgeingTargetsSchema } from './queue-view.ts';
import { TeamRoleSchema } from './roles.ts';

/**
 * The lead's Team screen (#28): who is online, who holds what, what each reviewer closed, how long cases wait
 * for a first action and for their resolution in each section, and what is overdue. A lead's view
 * (`viewTeam` in roles.ts); a solo desk has no team and says so.
 *
 * Every figure is computed by the team store, in SQL, from what it already keeps (the audit log's chain, the
 * customers and their status history, the claims, the server's own list of sessions): nothing is counted a
 * second time on the side, so no figure can drift from the log it comes from. The definitions:
 * - **Online**: a desk is online while its change listener (the one session every running desk keeps open
 *   on the team store, `vetted-desk-replica-listener`) is connected: PostgreSQL's pg_stat_activity, read
 *   at the moment of asking. A hub's sessions are not desks; they are counted apart (`hubs`).
 * - **Holding**: the cases whose claim this reviewer holds now (a claim past its idle time is not held).
 * - **Overdue**: of those, the ones that have waited in their section past the ageing target this desk
 *   sets (Settings → Ageing targets), as the queue counts them.
 * - **Closed**: a case is closed when its status history reaches a terminal status (TERMINAL_STATUSES in
 *   statuses.ts: verified, suspended, deactivated) from one that was not. It is the closing of the reviewer
 *   whose audit entry on that customer came last at or before that moment (a claim's expiry is nobody's
 *   entry); a case no reviewer touched is closed by nobody and counts only in the team's totals.
 * - **Today** and **this week**: from midnight, and from Monday midnight, in this desk's time zone (the lead's
 *   computer's), up to now.
 * - **Time to first action**: a visit to a section starts when the status history enters a status that is
 *   not terminal; its first action is the first audit entry on that customer after that moment and before it
 *   left the section, other than how a case comes into the queue (NOT_A_FIRST_ACTION). **Time to
 *   resolution** is how long the visit lasted, for visits that have ended (the next status). Both are the
 *   median and the 90th percentile (PostgreSQL's percentile_cont: interpolated between the two nearest) of
 *   the visits that started in the last FIGURES_DAYS days. The history records statuses, not pending
 *   uploads: a document in review is counted with "Needs document".
 */

/** How far back the time-to-first-action and time-to-resolution figures look. */
export const FIGURES_DAYS = 30;

/** Audit actions that are not a reviewer's first action in a section: how a case came into the queue. */
export const NOT_A_FIRST_ACTION = ['customer.create', 'customer.add', 'customers.import'] as const;

/** Audit entries no reviewer's hand made: a claim ended by the store's sweep. Never anyone's action. */
export const NOBODYS_ACTION = ['claim.expire', 'audit.chain'] as const;

/** The application name of a desk's change listener: what "online" looks for. */
export const DESK_LISTENER_NAME = 'vetted-desk-replica-listener';
/** A hub's: a hub logs in as a member of the reviewers' group too, and is told apart by it. */
export const HUB_LISTENER_NAME = 'vetted-hub-replica-listener';

/** Median and 90th percentile, in seconds, of `count` measured times; null when none was measured. */
export const TimeFigureSchema = z.object({
  count: z.number().int().min(0),
  medianSeconds: z.number().min(0).nullable(),
  p90Seconds: z.number().min(0).nullable(),
});
export type TimeFigure = z.infer<typeof TimeFigureSchema>;

export const TeamMemberFiguresSchema = z.object({
  login: z.string(),
  role: TeamRoleSchema,
  /** This desk's reviewer. */
  me: z.boolean(),
  /** Whether the login is (still) one of the team's reviewers; a removed one may still hold or have closed cases. */
  member: z.boolean(),
  /** Desks connected now under this login. */
  desks: z.number().int().min(0),
  /** Hubs running now under this login (a hub's login is a member of the team like a reviewer's). */
  hubs: z.number().int().min(0),
  holding: z.number().int().min(0),
  overdue: z.number().int().min(0),
  closedToday: z.number().int().min(0),
  closedThisWeek: z.number().int().min(0),
});
export type TeamMemberFigures = z.infer<typeof TeamMemberFiguresSchema>;

/** A hub of the team (marked by the administrator, `add-hub`): not a person, so listed apart from the reviewers. */
export const TeamHubSchema = z.object({
  login: z.string(),
  /** Hubs running now under this login (a standby under the same login counts too). */
  running: z.number().int().min(0),
});
export type TeamHub = z.infer<typeof TeamHubSchema>;

export const SectionFiguresSchema = z.object({
  section: SectionSchema,
  /** Visits to the section that started in the window. */
  entered: z.number().int().min(0),
  firstAction: TimeFigureSchema,
  resolution: TimeFigureSchema,
});
export type SectionFigures = z.infer<typeof SectionFiguresSchema>;

export const TeamOverviewSchema = z.object({
  /** When the figures were read: on a team's desk, by the team store's clock (every desk shows the same). */
  at: z.iso.datetime(),
  /** The time zone "today" and "this week" are counted in. */
  timeZone: z.string(),
  todayFrom: z.iso.datetime(),
  weekFrom: z.iso.datetime(),
  /** Where the section figures' window starts (FIGURES_DAYS before `at`). */
  figuresFrom: z.iso.datetime(),
  /** The team's reviewers (and anyone else holding or having closed a case), by login; never a marked hub. */
  members: z.array(TeamMemberFiguresSchema),
  /** The team's hubs, running or stopped. */
  hubs: z.array(TeamHubSchema),
  /** Cases closed, by anyone or nobody. */
  closed: z.object({ today: z.number().int().min(0), thisWeek: z.number().int().min(0) }),
  sections: z.array(SectionFiguresSchema),
  /** The ageing targets "overdue" was measured against (this desk's). */
  targets: AgeingTargetsSchema,
});
export type TeamOverview = z.infer<typeof TeamOverviewSchema>;

export const teamOverviewChannels = {
  /** A lead's: the team now (refused in words to a reviewer; a solo desk has no team). */
  'team.overview': { input: z.undefined(), output: TeamOverviewSchema },
} as const;
