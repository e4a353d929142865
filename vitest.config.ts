import { defineConfig } from 'vitest/config';

/** The journal's own tests, run a second time against a journal that answers as another process would. */
const JOURNAL_TESTS = ['test/main/data/journal/**/*.test.ts'];

/** Tests in the journal's folder that open no journal (pure functions on rows built in the test). */
const NO_JOURNAL_OPENED = ['test/main/data/journal/audit-chain-hashes.test.ts'];

/** Each SQLite migration's own test opens the file at the version before: the local journal only. */
const MIGRATION_STEPS = 'test/main/data/journal/migrations/**';

/** Journal tests the team journal does not run (each says why). */
const NOT_ON_TEAM_JOURNAL = [
  // The local SQLite journal itself, opened directly (not through openTestJournal): its file format and
  // migrations, the webhook inbox's log, commits that do not wait for the disk, the known-events cache,
  // the queue search's plan for SQLite's full-text index. (commit-later.test.ts runs: its SQLite part skips.)
  'test/main/data/journal/migrations.test.ts',
  'test/main/data/journal/inbox-log.test.ts',
  'test/main/data/journal/sync-later.test.ts',
  'test/main/data/journal/known-events.test.ts',
  'test/main/data/journal/search.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    pool: 'forks',
    // Vitest runs one worker fewer than the cores: one on a 2-core CI machine, so every file waits for the one
    // before, though most spend their time waiting on PostgreSQL, sockets and child processes. Two keep both
    // cores working (CI 1,453 s with two, 1,710 s with one); tests that start many processes bound their own
    // time for a loaded machine (the crash test's ten kills: 300 s).
    maxWorkers: 2,
    // Run electron-store through Vite so the glue tests' electron mock reaches it too.
    server: { deps: { inline: ['electron-store'] } },
    // One throwaway PostgreSQL cluster for team mode's tests (test/support/postgres/team-db.ts makes databases
    // in it).
    globalSetup: ['test/support/postgres/pg-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // expect.poll waits for work that happens on its own; its 1 s default is too short on a loaded
    // 2-core CI machine. A condition that never holds still fails, after 15 s.
    expect: { poll: { timeout: 15_000, interval: 20 } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      {
        extends: true,
        // test/main/data/journal/detached-journal.ts: proves callers need nothing of the journal but its
        // interface.
        test: {
          name: 'journal-detached',
          include: JOURNAL_TESTS,
          exclude: ['test/e2e/**', 'node_modules/**', MIGRATION_STEPS, ...NO_JOURNAL_OPENED],
          env: { VETTED_TEST_JOURNAL: 'detached' },
        },
      },
      {
        extends: true,
        // The team journal (PostgreSQL + the desk's local journal) under the same interface tests.
        test: {
          name: 'journal-team',
          include: JOURNAL_TESTS,
          exclude: [
            'test/e2e/**',
            'node_modules/**',
            MIGRATION_STEPS,
            ...NO_JOURNAL_OPENED,
            ...NOT_ON_TEAM_JOURNAL,
          ],
          env: { VETTED_TEST_JOURNAL: 'team' },
        },
      },
    ],
  },
});
