import { defineConfig } from 'vitest/config';

/** The journal's own tests, run a second time against a journal that answers as another process would. */
const JOURNAL_TESTS = ['test/journal/**/*.test.ts', 'test/drafts/journal.test.ts'];

/** Each SQLite migration's own test opens the file at the version before: the local journal only. */
const MIGRATION_STEPS = 'test/journal/migrations/**';

/** Journal tests the team journal does not run (each says why). */
const NOT_ON_TEAM_JOURNAL = [
  // The local SQLite journal itself, opened directly (not through openTestJournal): its file format and
  // migrations, the webhook inbox's log, commits that do not wait for the disk, the known-events cache,
  // the queue search's plan for SQLite's full-text index. (commit-later.test.ts runs: its SQLite part skips.)
  'test/journal/migrations.test.ts',
  'test/journal/inbox-log.test.ts',
  'test/journal/sync-later.test.ts',
  'test/journal/known-events.test.ts',
  'test/journal/search.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    pool: 'forks',
    // Vitest runs one worker fewer than the cores: one on a 2-core CI machine, so every file waits for the one
    // before, though most spend their time waiting on PostgreSQL, sockets and child processes. Two keep both
    // cores working; the suite passes with both kept busy by other processes too.
    maxWorkers: 2,
    // Run electron-store through Vite so the glue tests' electron mock reaches it too.
    server: { deps: { inline: ['electron-store'] } },
    // One throwaway PostgreSQL cluster for team mode's tests (test/support/team-db.ts makes databases in it).
    globalSetup: ['test/support/pg-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // expect.poll waits for work that happens on its own; its 1 s default is too short on a loaded
    // 2-core CI machine. A condition that never holds still fails, after 15 s.
    expect: { poll: { timeout: 15_000, interval: 20 } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      {
        extends: true,
        // test/journal/detached-journal.ts: proves callers need nothing of the journal but its interface.
        test: {
          name: 'journal-detached',
          include: JOURNAL_TESTS,
          exclude: ['test/e2e/**', 'node_modules/**', MIGRATION_STEPS],
          env: { VETTED_TEST_JOURNAL: 'detached' },
        },
      },
      {
        extends: true,
        // The team journal (PostgreSQL + the desk's local journal) under the same interface tests.
        test: {
          name: 'journal-team',
          include: JOURNAL_TESTS,
          exclude: ['test/e2e/**', 'node_modules/**', MIGRATION_STEPS, ...NOT_ON_TEAM_JOURNAL],
          env: { VETTED_TEST_JOURNAL: 'team' },
        },
      },
    ],
  },
});
