import { create } from 'zustand';
import { isOverdue, type Overdue } from '#contract/queue-view.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

interface OverdueState {
  overdue: Overdue | null;
  /** Main's clock minus this page's when main last answered: ageing is measured by main's time. */
  skewMs: number;
  watch(): () => void;
  load(): Promise<void>;
  /** Whether a case of `section` that entered it at `since` is overdue at `now` (this page's clock). */
  isOverdue(section: string, since: string, now: number): boolean;
}

export const useOverdueStore = create<OverdueState>((set, get) => {
  const received = (overdue: Overdue) => set({ overdue, skewMs: Date.parse(overdue.at) - Date.now() });
  return {
    overdue: null,
    skewMs: 0,
    watch: sharedWatch(() => api.on('queue.overdue', received)),
    async load() {
      try {
        received(await api.queue.overdue());
      } catch {
        // The marks wait for main's next report; the queue itself does not depend on them.
      }
    },
    isOverdue: (section, since, now) => isOverdue(section, since, now + get().skewMs, get().overdue?.targets),
  };
});
