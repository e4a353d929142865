/**
 * Group commit, the one mechanism both writers use: the journal syncs every commit to disk, and that sync, not
 * the work, would otherwise set the pace. Writes asked for close together share one commit; one group commits
 * at a time, and writes asked for meanwhile form the next one (under load, one fsync serves many writes).
 * A write asked for `now` goes as soon as the committer is free, after this turn's I/O callbacks so that
 * requests read together go together; one asked for `soon` waits up to `soonMs` for company, or until
 * `maxGroup` have gathered. `commit` runs each write in its own savepoint: one that fails fails alone.
 */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: Error };

export interface GroupCommitOptions<W, R> {
  /** Commits a group, answering for each write in order. */
  commit(group: W[]): Promise<Outcome<R>[]>;
  soonMs: number;
  maxGroup?: number;
}

export interface GroupCommit<W, R> {
  write(write: W, when?: 'now' | 'soon'): Promise<R>;
  /** Resolves once everything asked for so far is committed. */
  flush(): Promise<void>;
  /** From now on every write fails with `error`, and so do those not committed yet. */
  refuse(error: Error): void;
  /** Groups committed, writes in them, and time spent committing them: how grouping works under load. */
  readonly stats: { commits: number; writes: number; committingMs: number };
}

interface Pending<W, R> {
  write: W;
  resolve(value: R): void;
  reject(error: Error): void;
}

/** Writes gathered for one commit, and a promise settled once that commit is over (flush waits on it). */
class Group<W, R> {
  readonly items: Pending<W, R>[] = [];
  readonly over: Promise<void>;
  end!: () => void;
  constructor() {
    this.over = new Promise((resolve) => {
      this.end = resolve;
    });
  }
}

export function createGroupCommit<W, R>(options: GroupCommitOptions<W, R>): GroupCommit<W, R> {
  const stats = { commits: 0, writes: 0, committingMs: 0 };
  const maxGroup = options.maxGroup ?? Number.POSITIVE_INFINITY;
  let waiting = new Group<W, R>();
  let committing: Group<W, R> | null = null;
  let scheduled: NodeJS.Immediate | null = null;
  let soon: NodeJS.Timeout | null = null;
  let refusal: Error | null = null;

  const unschedule = () => {
    if (scheduled) clearImmediate(scheduled);
    if (soon) clearTimeout(soon);
    scheduled = null;
    soon = null;
  };

  const settle = (group: Group<W, R>, outcomes: readonly Outcome<R>[]) => {
    group.items.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) pending.resolve(outcome.value);
      else pending.reject(outcome?.error ?? new Error('Not written.'));
    });
  };

  /** The waiting group goes now if the committer is free; otherwise when it is. */
  const send = () => {
    unschedule();
    if (committing || waiting.items.length === 0) return;
    const group = waiting;
    committing = group;
    waiting = new Group();
    const startedAt = performance.now();
    options
      .commit(group.items.map((pending) => pending.write))
      .then(
        (outcomes) => {
          stats.commits++;
          stats.writes += group.items.length;
          stats.committingMs += performance.now() - startedAt;
          settle(group, outcomes);
        },
        (error: unknown) => {
          const failed = error instanceof Error ? error : new Error(String(error));
          settle(
            group,
            group.items.map(() => ({ ok: false, error: failed })),
          );
        },
      )
      .finally(() => {
        committing = null;
        group.end();
        send();
      });
  };

  const write = (item: W, when: 'now' | 'soon' = 'now') =>
    new Promise<R>((resolve, reject) => {
      if (refusal) return reject(refusal);
      waiting.items.push({ write: item, resolve, reject });
      if (waiting.items.length >= maxGroup) send();
      else if (when === 'now') scheduled ??= setImmediate(send);
      else soon ??= setTimeout(send, options.soonMs);
    });

  return {
    stats,
    write,
    async flush() {
      if (waiting.items.length === 0) return committing?.over;
      scheduled ??= setImmediate(send);
      return waiting.over;
    },
    refuse(error) {
      refusal ??= error;
      unschedule();
      for (const pending of waiting.items) pending.reject(refusal);
      waiting.items.length = 0;
      waiting.end();
    },
  };
}
