import type { Journal, JournalRepositories, JournalTransaction } from '#main/data/journal/index.ts';

/**
 * A second implementation of the journal interface, for the interface's own tests: it keeps the
 * SQLite journal underneath but hands callers only what a journal in another process (PostgreSQL,
 * a worker) could: every argument and every answer is copied (structuredClone) and arrives a
 * macrotask later. A caller that leans on the SQLite journal's habits — answers in the same tick,
 * objects shared with the store, methods beyond the interface — fails the journal's tests run
 * through this one (`VETTED_TEST_JOURNAL=detached`, the `journal-detached` Vitest project).
 */
const later = () => new Promise<void>((resolve) => setImmediate(resolve));

async function across<T>(answer: () => Promise<T>): Promise<T> {
  await later();
  const value = await answer();
  await later();
  return value === undefined ? value : structuredClone(value);
}

function detachRepositories<R extends object>(repositories: R): R {
  const detached: Record<string, unknown> = {};
  for (const [name, repository] of Object.entries(repositories)) {
    if (typeof repository !== 'object' || repository === null) continue;
    const methods: Record<string, unknown> = {};
    for (const [method, value] of Object.entries(repository)) {
      if (typeof value !== 'function') continue;
      methods[method] = (...args: unknown[]) =>
        across(() =>
          (value as (...a: unknown[]) => Promise<unknown>).apply(repository, structuredClone(args)),
        );
    }
    detached[name] = methods;
  }
  return detached as R;
}

function detachTransaction(tx: JournalTransaction): JournalTransaction {
  return {
    ...detachRepositories<JournalRepositories>(tx),
    transaction: (work) => tx.transaction((inner) => work(detachTransaction(inner))),
  };
}

export function detachedJournal(journal: Journal): Journal {
  const repositories = {
    customers: journal.customers,
    queue: journal.queue,
    drafts: journal.drafts,
    outbox: journal.outbox,
    events: journal.events,
    retries: journal.retries,
    audit: journal.audit,
    rejections: journal.rejections,
    notes: journal.notes,
    documentImages: journal.documentImages,
  } satisfies JournalRepositories;
  return {
    ...detachRepositories<JournalRepositories>(repositories),
    schemaVersion: journal.schemaVersion,
    transaction: (work) => journal.transaction((tx) => work(detachTransaction(tx))),
    openInbox: (options) => journal.openInbox(options),
    close: () => journal.close(),
  };
}
