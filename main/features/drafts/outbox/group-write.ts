import { createGroupCommit } from '#main/data/journal/group-commit.ts';
import type { Journal, JournalTransaction } from '#main/data/journal/index.ts';

/** One outcome's writes, run in the shared transaction. */
export type OutcomeWrite<T> = (tx: JournalTransaction) => Promise<T>;

/**
 * Outcomes are written in shared transactions (the journal's one group-commit mechanism): every commit is
 * synced to disk, and that sync, rather than the network, would otherwise set the pace. A write waits at most
 * 20 ms for others to join it, or until 64 have. Nothing here needs to be on disk before the next request
 * leaves: the keys were, at submit; an outcome lost in a crash is learnt again by replaying its key. So the
 * commit does not wait for the disk either (`sync: 'later'`): a kill loses nothing committed, and a power cut
 * only the latest outcomes, which the next start learns again (their drafts are still queued, keys kept).
 */
export function groupCommit(journal: Journal): <T>(write: OutcomeWrite<T>) => Promise<T> {
  const group = createGroupCommit<OutcomeWrite<unknown>, unknown>({
    soonMs: 20,
    maxGroup: 64,
    commit: async (writes) => {
      try {
        return await journal.transaction(
          async (tx) => {
            const outcomes = [];
            // Each write in its own savepoint, one after the other: one that fails leaves the others written.
            for (const write of writes) {
              try {
                outcomes.push({ ok: true as const, value: await tx.transaction(write) });
              } catch (error) {
                outcomes.push({ ok: false as const, error: asError(error) });
              }
            }
            return outcomes;
          },
          { sync: 'later' },
        );
      } catch (error) {
        return writes.map(() => ({ ok: false as const, error: asError(error) }));
      }
    },
  });
  return <T>(write: OutcomeWrite<T>) => group.write(write, 'soon') as Promise<T>;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error('The write failed.'));
