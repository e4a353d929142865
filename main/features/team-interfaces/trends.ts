// Trends (contract/trends.ts): counted by the store that keeps the log, so the composition chooses the source —
// the team store's SQL on a team's desk (main/team/claims/), the desk's journal when solo (main/variant/local.ts).
// The trends feature checks the role and fills in the desk's settings; a source only counts.
import type { Trends, TrendsQuery } from '#contract/trends.ts';

export type { TrendsQuery };

export interface TrendsSource {
  /** "team" on a solo desk is refused in words (refusal.soloDesk); the role is the feature's to check. */
  read(query: TrendsQuery): Promise<Trends>;
}
