// Trends (contract/trends.ts): counted by the store that keeps the log, so the composition chooses the source —
// the team store's SQL on a team's desk (main/team/claims/), the desk's journal when solo (main/variant/local.ts).
// The trends feature checks the role and fills in the desk's settings; a source only counts.
import type { AgeingTargets } from '#contract/queue-view.ts';
import type { TrendScope, Trends } from '#contract/trends.ts';

export interface TrendsQuery {
  scope: TrendScope;
  /** The range's first and last days (YYYY-MM-DD in `timeZone`), both included: the last N days, or a report's period. A day not over yet is counted up to the store's now. */
  from: string;
  to: string;
  /** Whose work "mine" is: this desk's reviewer. */
  reviewer: string;
  /** This desk's ageing targets: what "overdue" is measured against. */
  targets: AgeingTargets;
  /** The desk's time zone (IANA): what a day is. */
  timeZone: string;
}

export interface TrendsSource {
  /** "team" on a solo desk is refused in words (refusal.soloDesk); the role is the feature's to check. */
  read(query: TrendsQuery): Promise<Trends>;
}
