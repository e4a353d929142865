import { create } from 'zustand';
import { VettedError } from '#contract/errors.ts';
import type { LockState } from '#contract/lock.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface LockStoreState {
  /** null until main has answered. */
  state: LockState | null;
  busy: boolean;
  /** A refused unlock (or arming), in main's words. */
  error: string | null;
  load(): Promise<void>;
  /** Whether the secret opened the desk; never kept here, only passed on to main. */
  unlock(secret: string): Promise<boolean>;
  lockNow(reason: 'idle' | 'key'): Promise<void>;
  /** Sets (or changes, with the one before) the lock secret: the lock is armed from then on. */
  arm(secret: string, current?: string): Promise<boolean>;
  configure(patch: { idleMinutes?: number; key?: string | null }): Promise<boolean>;
  /** Main's `lock.changed`: locked, unlocked, a wrong attempt, the settings changed. */
  watch(): () => void;
}

export const useLockStore = create<LockStoreState>((set, get) => {
  /** Runs a call that answers the lock's state; a refusal is kept in words. */
  const answer = async (call: () => Promise<LockState>): Promise<boolean> => {
    if (get().busy) return false;
    set({ busy: true, error: null });
    try {
      set({ state: await call() });
      return true;
    } catch (error) {
      set({ error: error instanceof VettedError ? error.message : messageOf(error) });
      return false;
    } finally {
      set({ busy: false });
    }
  };
  return {
    state: null,
    busy: false,
    error: null,
    async load() {
      // Asked at boot too, where a vault still locked refuses it: the gate's own asking starts afresh.
      set({ error: null });
      try {
        set({ state: await api.lock.state() });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    unlock: (secret) => answer(() => api.lock.unlock({ secret })),
    async lockNow(reason) {
      try {
        set({ state: await api.lock.now({ reason }) });
      } catch {
        // Unarmed: nothing would open it again, so it stays open (Settings says to set a secret).
      }
    },
    arm: (secret, current) =>
      answer(() => api.lock.arm(current === undefined ? { secret } : { secret, current })),
    configure: (patch) => answer(() => api.lock.configure(patch)),
    watch: sharedWatch(() =>
      api.on('lock.changed', (state) =>
        // A refusal from the last time it was locked is not shown the next time.
        set(state.locked && !get().state?.locked ? { state, error: null } : { state }),
      ),
    ),
  };
});
