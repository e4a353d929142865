import { createGroupCommit } from '../../journal/group-commit.ts';
import type { Journal } from '../../journal/index.ts';

/**
 * Outcomes are written in shared transactions (the journal's one group-commit mechanism): node:sqlite blocks the
 * thread for each commit's sync, which would otherwise set the pace rather than the network. A write waits at
 * most 20 ms for others to join it, or until 64 have. Nothing here needs to be on disk before the next request
 * leaves: the keys were, at submit; an outcome lost in a crash is learnt again by replaying its key.
 */
export function groupCommit(journal: Journal): <T>(write: () => T) => Promise<T> {
  const group = createGroupCommit<() => unknown, unknown>({
    soonMs: 20,
    maxGroup: 64,
    commit: async (writes) => {
      try {
        // Each write in its own savepoint: one that fails leaves the others written.
        return journal.transaction(() =>
          writes.map((write) => {
            try {
              return { ok: true as const, value: journal.transaction(write) };
            } catch (error) {
              return { ok: false as const, error: asError(error) };
            }
          }),
        );
      } catch (error) {
        return writes.map(() => ({ ok: false as const, error: asError(error) }));
      }
    },
  });
  return <T>(write: () => T) => group.write(write, 'soon') as Promise<T>;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error('The write failed.'));
