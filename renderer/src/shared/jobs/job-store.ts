import { create } from 'zustand';
import type { Progress } from '#contract/customers.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '../data/watch.ts';

export type Job = Progress['job'];

interface JobState {
  jobs: Partial<Record<Job, Progress>>;
  problem: string | null;
  /** Main's long jobs are followed for as long as the app runs (App watches): a bar never goes stale. */
  watch(): () => void;
  progressed(progress: Progress): void;
  /** Starts an import from the service, or "Refresh all" (a reconcile of every customer). */
  start(job: 'import' | 'reconcile'): Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const NOT_STARTED: Record<'import' | 'reconcile', string> = {
  import: 'The import did not start',
  reconcile: 'Refresh all did not start',
};

/** A job's start answer can arrive after its first events: never let the bar go backwards. */
function laterProgress(known: Progress | undefined, next: Progress): Progress {
  if (known && !known.finished && !next.finished && next.done < known.done) return known;
  return next;
}

export const useJobStore = create<JobState>((set, get) => ({
  jobs: {},
  problem: null,
  watch: sharedWatch(() => api.on('job.progress', (progress) => get().progressed(progress))),
  progressed(progress) {
    set((state) => ({
      jobs: { ...state.jobs, [progress.job]: laterProgress(state.jobs[progress.job], progress) },
    }));
  },
  async start(job) {
    set({ problem: null });
    try {
      get().progressed(await (job === 'import' ? api.customers.import() : api.customers.reconcile()));
    } catch (error) {
      set({ problem: `${NOT_STARTED[job]}: ${messageOf(error)}` });
    }
  },
}));

export const isRunning = (progress: { finished: boolean } | undefined) =>
  progress !== undefined && !progress.finished;
