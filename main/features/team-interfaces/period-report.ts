// The period report's figures (contract/period-report.ts): counted by the team store in SQL
// (main/team/report/), refused by a solo desk, which has no team (main/variant/local.ts). The report feature
// checks the role, asks the service for the rejected documents' reasons, and draws the file.
import type { PeriodFigures } from '#contract/period-report.ts';
import type { TrendsQuery } from '#contract/trends.ts';

/** A period as the trends' ranges are asked for (the first and last days, the time zone, the targets). */
export type PeriodQuery = Omit<TrendsQuery, 'scope' | 'reviewer'>;

/** The store's figures: every one but the rejections' reasons, which only the service knows. */
export type StoreFigures = Omit<PeriodFigures, 'rejections'> & {
  /** The documents the service rejected in the period (its "document rejected" events), oldest first. */
  rejectedDocuments: string[];
};

export interface PeriodFiguresSource {
  /** Refused in words (refusal.soloDesk) on a solo desk; the role is the feature's to check. */
  read(query: PeriodQuery): Promise<StoreFigures>;
}
