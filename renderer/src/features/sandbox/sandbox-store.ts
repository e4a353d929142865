import { create } from 'zustand';
import type { SandboxFault, SandboxPanel } from '#contract/sandbox-panel.ts';
import { api } from '#renderer/api.ts';

interface SandboxState {
  panel: SandboxPanel | null;
  /** What the panel is doing now; the other controls wait for it. */
  busy: 'loading' | 'reviews' | 'fault' | null;
  /** What the last action did, in words (a polite live region reads it). */
  done: string | null;
  problem: string | null;
  load(): Promise<void>;
  finishReviews(): Promise<void>;
  /** null clears every fault. */
  setFault(kind: SandboxFault | null): Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useSandboxStore = create<SandboxState>((set, get) => {
  const run = async (
    busy: NonNullable<SandboxState['busy']>,
    action: () => Promise<SandboxPanel>,
    done: string,
  ) => {
    if (get().busy) return;
    set({ busy, problem: null, done: null });
    try {
      set({ panel: await action(), done });
    } catch (error) {
      set({ problem: messageOf(error) });
    } finally {
      set({ busy: null });
    }
  };
  return {
    panel: null,
    busy: null,
    done: null,
    problem: null,
    load: () => run('loading', () => api.sandbox.panel(), ''),
    finishReviews: () =>
      run(
        'reviews',
        () => api.sandbox.finishReviews(),
        'The sandbox’s clock moved on: its pending reviews are finished, and their events are on their way.',
      ),
    setFault: (kind) =>
      run(
        'fault',
        () => api.sandbox.setFault({ kind }),
        kind ? 'The fault is on: half of the service’s requests fail this way.' : 'Faults cleared.',
      ),
  };
});
