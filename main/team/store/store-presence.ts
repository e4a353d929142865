// Since when the team store has been away from this desk, from what the desk already watches: its one session
// that always stays open, the replica's LISTEN (journal/change-listener.ts). That session is asked `SELECT 1`
// every heartbeat (silence.ts), so it is lost within 22 s of a silent network and at once when the store stops
// or fails over, and it connects again, backing off up to 15 s, as soon as the store answers. No probe of its
// own: the listener's loss and its listening again are the two signals. The pool's failures are not used: a
// statement fails for many reasons, and its connection is only ever opened on demand.
import type { StorePresence } from '#contract/store-presence.ts';
import type { StorePresenceSource } from '#main/features/team-interfaces/store-presence.ts';

export interface StorePresenceTracker extends StorePresenceSource {
  /** The session with the store was lost, or a new one could not be opened: away from now, if not already. */
  lost(): void;
  /** A session with the store is listening: it answers. */
  answered(): void;
}

/** `now`: epoch ms (the desk's clock, injected by tests). */
export function trackStorePresence(now: () => number): StorePresenceTracker {
  let awaySince: number | null = null;
  const listeners = new Set<(presence: StorePresence) => void>();
  const tell = () => {
    const presence = { awaySince };
    for (const listener of listeners) listener(presence);
  };
  return {
    current: () => ({ awaySince }),
    watch(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    lost() {
      // Each failed reconnect says lost again: the store has been away since the first.
      if (awaySince !== null) return;
      awaySince = now();
      tell();
    },
    answered() {
      if (awaySince === null) return;
      awaySince = null;
      tell();
    },
  };
}
