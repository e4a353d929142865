import { Fragment } from 'react';
import { type Progress, ProgressSchema } from '#contract/customers.ts';
import { type Job, useJobStore } from './job-store.ts';

const RUNNING: Record<Job, string> = {
  reconcile: 'Checking customers with the service',
  import: 'Importing customers from the service',
  outbox: 'Sending drafts to the service',
  'catch-up': 'Catching up on events missed while Vetted was closed',
};

const count = (n: number, noun: string) => (n === 1 ? `1 ${noun}` : `${n} ${noun}s`);
const FINISHED: Record<Job, (done: number) => string> = {
  reconcile: (done) => `Checked ${count(done, 'customer')} with the service.`,
  import: (done) => `Imported ${count(done, 'customer')} from the service.`,
  outbox: (done) => `Sent ${count(done, 'draft')} to the service.`,
  'catch-up': (done) => `Caught up on ${count(done, 'missed event')}.`,
};

const JOBS = ProgressSchema.shape.job.options;

/** The long jobs (start-up reconcile, Refresh all, import, outbox, catch-up): a bar while they run, a line when done. */
export function JobProgress() {
  const jobs = useJobStore((state) => state.jobs);
  const problem = useJobStore((state) => state.problem);
  const running = JOBS.flatMap((job) => (jobs[job] && !jobs[job].finished ? [jobs[job]] : []));
  const finished = JOBS.flatMap((job) => (jobs[job]?.finished ? [jobs[job]] : []));
  return (
    <div className="queue-jobs">
      {running.map((progress) => (
        <JobBar key={progress.job} progress={progress} />
      ))}
      <p className="queue-jobs-done" aria-live="polite">
        {/* One element per job: each line reads (and is found) on its own, whichever other job also finished. */}
        {finished.map((progress, i) => (
          <Fragment key={progress.job}>
            {i > 0 && ' '}
            <span>{progress.message ?? FINISHED[progress.job](progress.done)}</span>
          </Fragment>
        ))}
      </p>
      {problem && <p role="alert">{problem}</p>}
    </div>
  );
}

function JobBar({ progress }: { progress: Progress }) {
  const known = progress.total !== null && progress.total > 0;
  return (
    <div className="queue-job">
      <span>{RUNNING[progress.job]}</span>
      <progress
        aria-label={RUNNING[progress.job]}
        max={known ? (progress.total ?? undefined) : undefined}
        value={known ? progress.done : undefined}
      />
      <span>{known ? `${progress.done} of ${progress.total}` : `${progress.done} so far`}</span>
      {progress.message && <span className="hint">{progress.message}</span>}
    </div>
  );
}
