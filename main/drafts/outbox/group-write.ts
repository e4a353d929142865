import type { Journal } from '../../journal/index.ts';

/**
 * Outcomes are written in shared transactions: the journal syncs every commit to disk, and that sync, not the
 * network, would otherwise set the pace (node:sqlite blocks the thread for it). A write waits at most
 * `windowMs` for others to join it, or until `maxBatch` have. Nothing here needs to be on disk before the
 * next request leaves: the keys were, at submit; an outcome lost in a crash is learnt again by replaying its
 * key. Each write runs in its own savepoint, so one that fails leaves the others written.
 */
export function groupCommit(journal: Journal, { windowMs = 20, maxBatch = 64 } = {}) {
  type Pending = { write: () => unknown; done: (error: unknown, value?: unknown) => void };
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    let results: { value?: unknown; error?: unknown }[];
    try {
      results = journal.transaction(() =>
        batch.map(({ write }) => {
          try {
            return { value: journal.transaction(write) };
          } catch (error) {
            return { error: error ?? new Error('The write failed.') };
          }
        }),
      );
    } catch (error) {
      results = batch.map(() => ({ error }));
    }
    for (const [i, item] of batch.entries()) item.done(results[i]?.error, results[i]?.value);
  };
  return <T>(write: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.push({ write, done: (error, value) => (error ? reject(error) : resolve(value as T)) });
      if (pending.length >= maxBatch) flush();
      else timer ??= setTimeout(flush, windowMs);
    });
}
