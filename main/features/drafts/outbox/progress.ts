import type { Progress } from '#contract/customers.ts';

export type ProgressTracker = ReturnType<typeof progressTracker>;

/** One progress bar per burst of work: from the first draft queued until none is left queued. */
export function progressTracker(emit: (progress: Progress) => void) {
  const batch = new Set<string>();
  const done = new Set<string>();
  /** Submits still adding drafts: the bar does not finish under them. */
  let adding = 0;
  const report = (message: string | null) => {
    const finished = adding === 0 && done.size >= batch.size;
    emit({ job: 'outbox', done: done.size, total: batch.size, finished, message });
    if (finished) {
      batch.clear();
      done.clear();
    }
  };
  return {
    add(ids: readonly string[]) {
      if (ids.length === 0) return;
      for (const id of ids) {
        batch.add(id);
        done.delete(id);
      }
      report(null);
    },
    settle(id: string) {
      if (!batch.has(id)) return;
      done.add(id);
      report(null);
    },
    waiting(problem: string) {
      if (batch.size > 0) report(problem);
    },
    hold() {
      adding++;
    },
    release() {
      adding--;
      if (batch.size > 0) report(null);
    },
  };
}
