import { create } from 'zustand';
import { VettedError } from '#contract/errors.ts';
import type { TrendRange, TrendScope, Trends } from '#contract/trends.ts';
import { api } from '#renderer/api.ts';

/** The range a panel opens on: a month, long enough for a trend, short enough to read day by day. */
const DEFAULT_RANGE: TrendRange = 30;

/** One panel's trends: the Team screen's ("team") or My work's ("mine"). */
export interface TrendsView {
  days: TrendRange;
  trends: Trends | null;
  /** Main's refusal or failure, in its words. */
  problem: string | null;
  /** Up while main is asked; what is shown stays until its answer replaces it. */
  reading: boolean;
}

interface TrendsState {
  views: Record<TrendScope, TrendsView>;
  /** Reads a scope's trends over `days` (its range so far when not given). */
  load(scope: TrendScope, days?: TrendRange): Promise<void>;
}

const EMPTY: TrendsView = { days: DEFAULT_RANGE, trends: null, problem: null, reading: false };

const messageOf = (error: unknown) =>
  error instanceof VettedError ? error.message : 'The trends could not be read.';

export const useTrendsStore = create<TrendsState>((set, get) => {
  // The last read asked for each scope: a slower answer to an earlier range never replaces a later one's.
  const latest: Record<TrendScope, number> = { team: 0, mine: 0 };
  const patch = (scope: TrendScope, change: Partial<TrendsView>) =>
    set((state) => ({ views: { ...state.views, [scope]: { ...state.views[scope], ...change } } }));
  return {
    views: { team: EMPTY, mine: EMPTY },
    async load(scope, days = get().views[scope].days) {
      const asked = ++latest[scope];
      patch(scope, { days, reading: true });
      try {
        const trends = await api.trends.read({ scope, days });
        if (asked === latest[scope]) patch(scope, { trends, problem: null, reading: false });
      } catch (error) {
        if (asked === latest[scope]) patch(scope, { problem: messageOf(error), reading: false });
      }
    },
  };
});
