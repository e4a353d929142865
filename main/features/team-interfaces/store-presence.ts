// Whether the team store answers this desk, as the main screen says it. A team desk knows it from its live
// session with the store (main/team/store/store-presence.ts); a solo desk has no store, so never loses one.
import type { StorePresence } from '#contract/store-presence.ts';

export interface StorePresenceSource {
  current(): StorePresence;
  /** Hears each change (away, or answering again), never the same state twice; returns what stops it. */
  watch(listener: (presence: StorePresence) => void): () => void;
}

/** A solo desk's: there is no team store to lose. */
export const noTeamStore: StorePresenceSource = {
  current: () => ({ awaySince: null }),
  watch: () => () => undefined,
};
