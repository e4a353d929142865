// The lead's Team screen: the figures of a whole team, read from where the team keeps its work. A concern that
// differs between a solo desk (it has no team: main/variant/local.ts says so) and a team's desk (the team
// store computes them: main/team/claims/team-overview.ts). The channel is a lead's: a reviewer is refused in
// words before the store is asked.

import { dueBefore } from '#main/data/journal/index.ts';
import { deskTimeZone } from '#main/ground/calendar.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { type Roles, requireLead, type TeamOverviewSource } from '../team-interfaces/claims.ts';

export interface TeamOverviewFeatureOptions {
  overview: TeamOverviewSource;
  roles: Roles;
  /** The time zone of "today" and "this week": this computer's unless a test names one. */
  timeZone?: string;
}

export function teamOverviewFeature(
  context: DeskContext,
  options: TeamOverviewFeatureOptions,
): Feature<'team.overview'> {
  const timeZone = options.timeZone ?? deskTimeZone();
  return {
    handlers: {
      async 'team.overview'() {
        await requireLead(options.roles, 'viewTeam');
        const { ageingTargets } = context.settings.get();
        // "Now" is the team store's (its clock, not this desk's): the figures read the same on every desk.
        const figures = await options.overview.read({
          timeZone,
          dueAt: (now) => dueBefore(ageingTargets, now),
        });
        return { ...figures, targets: { ...ageingTargets } };
      },
    },
  };
}
