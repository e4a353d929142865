// Trends (#39): how the queue moved over the last 7, 30 or 90 days, counted by the store that keeps the log —
// the team store's SQL on a team's desk, the desk's journal when solo: the composition hands this feature one
// TrendsSource and it never asks which. Here: the role ("team" is a lead's), this desk's reviewer, its ageing
// targets and time zone, and which days "the last N" are by the desk's clock.
import type { TrendRange, TrendsChannel } from '#contract/trends.ts';
import { addDays, dayOf, deskTimeZone } from '#main/ground/calendar.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { type Roles, requireLead } from '../team-interfaces/claims.ts';
import type { TrendsSource } from '../team-interfaces/trends.ts';

export interface TrendsFeatureOptions {
  source: TrendsSource;
  roles: Roles;
  /** Which day it is: the system clock unless a test names one. */
  clock?: () => Date;
  /** What a day is: this computer's time zone unless a test names one. */
  timeZone?: string;
}

/** The last `days` days up to today in `timeZone` (today included), as the first and last. */
export function lastDays(days: TrendRange, now: Date, timeZone: string): { from: string; to: string } {
  const to = dayOf(now, timeZone);
  return { from: addDays(to, 1 - days), to };
}

export function trendsFeature(context: DeskContext, options: TrendsFeatureOptions): Feature<TrendsChannel> {
  const clock = options.clock ?? (() => new Date());
  const timeZone = options.timeZone ?? deskTimeZone();
  return {
    handlers: {
      async 'trends.read'({ days, scope }) {
        const { reviewer } = await (scope === 'team'
          ? requireLead(options.roles, 'viewTeam')
          : options.roles.me());
        const { ageingTargets } = context.settings.get();
        return options.source.read({
          scope,
          ...lastDays(days, clock(), timeZone),
          reviewer,
          targets: { ...ageingTargets },
          timeZone,
        });
      },
    },
  };
}
