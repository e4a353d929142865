import { describeError, type Logger } from '../../log.ts';

/** One piece of work on one draft. It releases its slot once the service has answered (see `start`). */
export interface Job {
  id: string;
  run(release: () => void): Promise<void>;
}

export interface PumpOptions {
  concurrency: number;
  signal: AbortSignal;
  canSend(): boolean;
  /** The next job, never for a draft in `busy`; undefined when nothing is to do now. */
  next(busy: ReadonlySet<string>): Job | undefined;
  /** When the earliest backoff ends, to pump again then. */
  nextAttemptAt(): string | null;
  now(): Date;
  log: Logger;
  /** After every turn: the outbox tells whoever waits that it has settled. */
  afterTurn(busy: ReadonlySet<string>): void;
}

/** The pump: at most `concurrency` jobs at a time, and a timer for the next backoff to end. */
export function createPump(options: PumpOptions) {
  const { signal } = options;
  /** Drafts with a job running, or whose outcome is not written yet: never picked twice. */
  const busy = new Set<string>();
  const tasks = new Set<Promise<void>>();
  let slotsInUse = 0;
  let timer: NodeJS.Timeout | undefined;

  function pump(): void {
    if (signal.aborted || !options.canSend()) return;
    while (slotsInUse < options.concurrency) {
      const job = options.next(busy);
      if (!job) break;
      start(job);
    }
    scheduleNext();
    options.afterTurn(busy);
  }

  /**
   * Runs one job in a slot. The job releases its slot as soon as the service has answered, so the next
   * request leaves while the outcome waits for its (shared) write; the draft stays busy until written.
   */
  function start(job: Job): void {
    slotsInUse++;
    busy.add(job.id);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      slotsInUse--;
      pump();
    };
    const task = job
      .run(release)
      .catch((error: unknown) => {
        if (!signal.aborted) options.log.error('outbox: a job failed', describeError(error));
      })
      .finally(() => {
        busy.delete(job.id);
        tasks.delete(task);
        if (released) pump();
        else release();
      });
    tasks.add(task);
  }

  function scheduleNext(): void {
    clearTimeout(timer);
    timer = undefined;
    const next = options.nextAttemptAt();
    if (!next || signal.aborted) return;
    timer = setTimeout(pump, Math.max(0, Date.parse(next) - options.now().getTime()));
    timer.unref();
  }

  return {
    pump,
    busy: busy as ReadonlySet<string>,
    /** Stops the timer and waits for the jobs running (the signal has told them to stop). */
    async close(): Promise<void> {
      clearTimeout(timer);
      await Promise.allSettled([...tasks]);
    },
  };
}
