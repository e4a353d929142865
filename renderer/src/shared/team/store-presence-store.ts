import { create } from 'zustand';
import { STORE_AWAY_NOTICE_AFTER_MS, type StorePresence } from '#contract/store-presence.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '../data/watch.ts';

/** How long "the store answers again" stays once it does: long enough to read, then out of the way. */
export const STORE_BACK_NOTICE_MS = 6_000;

/** What the main screen says: nothing, that the store has been away for `forMs`, or that it is back. */
export type StoreNotice = { kind: 'away'; forMs: number } | { kind: 'back' } | null;

interface StorePresenceState {
  awaySince: number | null;
  notice: StoreNotice;
  /** Asks main where the store stands now (on start, and each time the notice is watched again). */
  load(): Promise<void>;
  /** While the notice is on screen: follows main's changes, and the clock for how long it has been. */
  watch(): () => void;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** When the words for `forMs` next change: each second for the first minute, then each minute. */
function nextChangeIn(forMs: number): number {
  const step = forMs < MINUTE ? SECOND : MINUTE;
  return step - (forMs % step);
}

export const useStorePresenceStore = create<StorePresenceState>((set, get) => {
  // One timer at a time, only while watched: until the notice shows, then to its next change of words.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const later = (ms: number, run: () => void) => {
    stopTimer();
    timer = setTimeout(run, Math.max(0, ms));
  };

  /** The away notice from the threshold on, its time kept up to date by one timer (only this store changes). */
  const followAway = (awaySince: number) => {
    const forMs = Date.now() - awaySince;
    if (forMs < STORE_AWAY_NOTICE_AFTER_MS) {
      later(STORE_AWAY_NOTICE_AFTER_MS - forMs, () => followAway(awaySince));
      return;
    }
    set({ notice: { kind: 'away', forMs } });
    later(nextChangeIn(forMs), () => followAway(awaySince));
  };

  const apply = ({ awaySince }: StorePresence) => {
    const shown = get().notice;
    set({ awaySince });
    if (awaySince !== null) {
      // Gone again: "back" no longer holds; the away notice waits for the threshold as before.
      if (shown?.kind === 'back') set({ notice: null });
      followAway(awaySince);
      return;
    }
    // Back: said briefly, only when its absence was said (a gap of seconds passes silently both ways).
    if (shown?.kind === 'away') {
      set({ notice: { kind: 'back' } });
      later(STORE_BACK_NOTICE_MS, () => set({ notice: null }));
      return;
    }
    // Nothing said yet: nothing to wait for. A "back" on screen keeps its few seconds.
    if (shown === null) stopTimer();
  };

  // Changes heard from main: an answer to `load` asked before the latest of them is older than it.
  let heard = 0;
  const hear = (presence: StorePresence) => {
    heard++;
    apply(presence);
  };

  return {
    awaySince: null,
    notice: null,
    async load() {
      const before = heard;
      try {
        const presence = await api.team.presence();
        if (heard === before) apply(presence);
      } catch {
        // Main did not answer: its next change is pushed all the same.
      }
    },
    watch: sharedWatch(() => {
      void get().load();
      return [
        api.on('team.presence', hear),
        () => {
          stopTimer();
          set({ notice: null });
        },
      ];
    }),
  };
});
