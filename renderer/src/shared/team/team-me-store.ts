import { useEffect } from 'react';
import { create } from 'zustand';
import type { TeamMe } from '#contract/roles.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch, useWatch } from '../data/watch.ts';

interface TeamMeState {
  /** Who acts at this desk, their role and whether cases are claimed here; null until main answers. */
  me: TeamMe | null;
  /** Asks main once (again after a failure); later changes arrive as `team.me`. */
  ensure(): Promise<void>;
  watch(): () => void;
}

let asking: Promise<void> | null = null;

/**
 * This desk's reviewer as main says (team.me): the renderer follows it and never guesses the mode. A solo
 * desk answers `claims: false` and every lead action allowed, so nothing of claims or roles shows there.
 */
export const useTeamMeStore = create<TeamMeState>((set, get) => ({
  me: null,
  ensure() {
    if (get().me) return Promise.resolve();
    asking ??= api.team
      .me()
      .then((me) => set({ me }))
      .catch(() => {
        // Nothing of claims shows until main answers; the next screen that needs it asks again.
      })
      .finally(() => {
        asking = null;
      });
    return asking;
  },
  watch: sharedWatch(() => api.on('team.me', (me) => set({ me }))),
}));

/** This desk's reviewer while the component is on screen (asked for once, then followed live). */
export function useTeamMe(): TeamMe | null {
  useWatch(useTeamMeStore.getState().watch);
  useEffect(() => {
    void useTeamMeStore.getState().ensure();
  }, []);
  return useTeamMeStore((state) => state.me);
}

/** Whether cases are claimed on this desk (a team's): what the claims' controls are shown by. */
export const useClaimsShown = () => useTeamMe()?.claims === true;
