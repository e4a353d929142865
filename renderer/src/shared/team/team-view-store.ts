import { create } from 'zustand';
import { VettedError } from '#contract/errors.ts';
import type { TeamMe } from '#contract/roles.ts';
import type { TeamOverview } from '#contract/team-overview.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '../data/watch.ts';

/** Claims and queue changes come in bursts (a lead's reassignments, a reconcile): one read after the burst. */
export const CHANGES_SETTLE_MS = 1_000;
/** Nothing pushes a desk coming online or going: while the screen is open, "online" is read again this often. */
export const ONLINE_EVERY_MS = 30_000;

interface TeamViewState {
  /** This desk's reviewer and role (null until main answers). */
  me: TeamMe | null;
  overview: TeamOverview | null;
  /** Main's refusal or failure, in its words. */
  problem: string | null;
  loadMe(): Promise<void>;
  /** Reads the team's figures again. */
  refresh(): Promise<void>;
  /** Follows this desk's role (the administrator's set-role) for as long as the app runs. */
  watchMe(): () => void;
  /** While the Team screen is open: the figures follow claims and queue changes, and "online" the clock. */
  watch(): () => void;
}

const messageOf = (error: unknown) =>
  error instanceof VettedError ? error.message : 'The team’s figures could not be read.';

/** Whether this desk's reviewer sees the Team screen: a lead of a team (a solo desk has no team). */
export const seesTeam = (me: TeamMe | null): boolean => me?.mode === 'team' && me.can.viewTeam === true;

export const useTeamViewStore = create<TeamViewState>((set, get) => {
  // One read at a time; a change heard meanwhile asks for one more after it.
  let reading: Promise<void> | null = null;
  let again = false;
  const read = async () => {
    try {
      set({ overview: await api.team.overview(), problem: null });
    } catch (error) {
      set({ problem: messageOf(error) });
    }
  };
  const refresh = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = read().finally(() => {
      reading = null;
      if (again) {
        again = false;
        void refresh();
      }
    });
    return reading;
  };
  return {
    me: null,
    overview: null,
    problem: null,
    async loadMe() {
      try {
        set({ me: await api.team.me() });
      } catch {
        // Without an answer the Team entry stays hidden; the screen itself says what main says.
      }
    },
    refresh,
    watchMe: sharedWatch(() => api.on('team.me', (me) => set({ me }))),
    watch: sharedWatch(() => {
      let settle: ReturnType<typeof setTimeout> | undefined;
      const soon = () => {
        clearTimeout(settle);
        settle = setTimeout(() => void get().refresh(), CHANGES_SETTLE_MS);
      };
      const every = setInterval(() => void get().refresh(), ONLINE_EVERY_MS);
      return [
        api.on('claims.changed', soon),
        api.on('customer.updated', soon),
        () => {
          clearTimeout(settle);
          clearInterval(every);
        },
      ];
    }),
  };
});
