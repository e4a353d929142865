import { describeError, type Logger } from '#main/ground/log/logger.ts';

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
  next(busy: ReadonlySet<string>): Promise<Job | undefined>;
  /** When the earliest backoff ends, to pump again then. */
  nextAttemptAt(): Promise<string | null>;
  now(): Date;
  log: Logger;
  /** After every turn: the outbox tells whoever waits that it has settled. */
  afterTurn(busy: ReadonlySet<string>): Promise<void>;
}

/** The pump: at most `concurrency` jobs at a time, and a timer for the next backoff to end. */
export function createPump(options: PumpOptions) {
  const { signal } = options;
  /** Drafts with a job running, or whose outcome is not written yet: never picked twice. */
  const busy = new Set<string>();
  const tasks = new Set<Promise<void>>();
  let slotsInUse = 0;
  let timer: NodeJS.Timeout | undefined;
  /** One turn at a time (picking a job reads the journal); a pump asked for meanwhile makes one more. */
  let turning: Promise<void> | null = null;
  let again = false;

  function pump(): void {
    if (turning) {
      again = true;
      return;
    }
    turning = turns()
      .catch((error: unknown) => {
        if (!signal.aborted) options.log.error('outbox: the pump failed', describeError(error));
      })
      .finally(() => {
        turning = null;
      });
  }

  async function turns(): Promise<void> {
    do {
      again = false;
      if (signal.aborted || !options.canSend()) return;
      while (slotsInUse < options.concurrency) {
        const job = await options.next(busy);
        if (!job || signal.aborted) break;
        start(job);
      }
      await scheduleNext();
      await options.afterTurn(busy);
    } while (again);
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

  async function scheduleNext(): Promise<void> {
    const next = await options.nextAttemptAt();
    clearTimeout(timer);
    timer = undefined;
    if (!next || signal.aborted) return;
    timer = setTimeout(pump, Math.max(0, Date.parse(next) - options.now().getTime()));
    timer.unref();
  }

  return {
    pump,
    busy: busy as ReadonlySet<string>,
    /** Stops the timer and waits for the jobs running (the signal has told them to stop). */
    async close(): Promise<void> {
      await turning;
      clearTimeout(timer);
      await Promise.allSettled([...tasks]);
    },
  };
}
