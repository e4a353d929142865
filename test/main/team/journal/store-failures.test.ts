// What a team journal call says when the store refuses it: a removed reviewer (sessions ended, or left open
// by an administrator without pg_signal_backend), a login the grants do not allow a statement, and what is
// none of these (left as it is).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { DeskError } from '#contract/errors.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { openJournal } from '#main/data/journal/sqlite.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { openTeamJournal } from '#main/team/journal/index.ts';
import { TeamConnectionError } from '#main/team/store/connection-error.ts';
import { teamAppError } from '#main/team/team-failures.ts';
import { decodeTeamKey } from '#main/team/team-key.ts';
import { serviceCustomer } from '#test/main/data/journal/helpers.ts';
import {
  addTestReviewer,
  initTeamStore,
  reviewerPool,
  runTeam,
  type TestReviewer,
} from '#test/support/team/admin-support.ts';
import { loginRole } from './records-context.ts';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A desk's team journal on `pool`, its local journal in a temporary folder. */
async function journalOn(pool: pg.Pool, teamKey: Buffer): Promise<Journal> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-refused-'));
  closing.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const local = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
  const journal = await openTeamJournal({ pool, teamKey, local });
  closing.push(() => journal.close());
  return journal;
}

/** A reviewer at work: their desk's journal, one customer written and a note on it. */
async function reviewerAtWork() {
  const store = await initTeamStore();
  const reviewer = await addTestReviewer(store, 'bob', '--sslmode', 'disable');
  const pool = reviewerPool(reviewer);
  const journal = await journalOn(pool, reviewer.joinCode.teamKey);
  await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), { source: 'created' });
  await journal.notes.add({ customerId: 'c-1', text: 'first look' });
  return { store, reviewer, pool, journal };
}

const removedWords = (reviewer: TestReviewer) =>
  `The team store does not let "${reviewer.name}" log in (removed from the team, or not allowed from here by pg_hba.conf).`;

/** The refusal a channel answers with for it. */
const answered = (error: unknown) => teamAppError(error);

test('a removed reviewer’s next write says the store no longer lets them in, as Settings → Team does', async () => {
  const { store, reviewer, journal } = await reviewerAtWork();
  expect(await runTeam('remove-reviewer', reviewer.name, '--database', store.url)).toMatchObject({ code: 0 });

  const refused = await journal.notes.add({ customerId: 'c-1', text: 'after removal' }).catch((e) => e);
  expect(refused).toBeInstanceOf(TeamConnectionError);
  expect(answered(refused)).toEqual({
    code: 'TeamNoAccess',
    message: `${removedWords(reviewer)} Ask your administrator.`,
  });
  // Reads too, and a unit of work.
  await expect(journal.customers.get('c-1')).rejects.toBeInstanceOf(TeamConnectionError);
  const unit = journal.transaction((tx) => tx.audit.record({ action: 'note.add', outcome: 'ok' }));
  await expect(unit).rejects.toMatchObject({ kind: 'auth', message: removedWords(reviewer) });
});

test('removed while their session stays open (no pg_signal_backend): the same words', async () => {
  const { store, reviewer, pool, journal } = await reviewerAtWork();
  // What remove-reviewer does, without ending the sessions: the pool's open connection stays.
  const admin = new pg.Client({ connectionString: store.url });
  await admin.connect();
  closing.push(() => admin.end());
  const group = (await admin.query('SELECT reviewer_role FROM vetted.team_meta')).rows[0].reviewer_role;
  await admin.query(`ALTER ROLE ${reviewer.name} NOLOGIN`);
  await admin.query(`REVOKE ${group} FROM ${reviewer.name}`);
  const open = await admin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1',
    [reviewer.name],
  );
  expect(open.rows[0]?.n).toBeGreaterThan(0);
  expect(pool.idleCount).toBeGreaterThan(0);

  const refused = await journal.notes.add({ customerId: 'c-1', text: 'after removal' }).catch((e) => e);
  expect(refused).toMatchObject({ kind: 'auth', message: removedWords(reviewer) });
  expect((refused as Error).cause).toMatchObject({ code: '42501' });
});

test('a statement the team’s grants leave out is told in words; other failures stay as they were', async () => {
  const store = await initTeamStore();
  const teamKey = decodeTeamKey(fs.readFileSync(store.keyFile, 'utf8'));
  // A login that may read and write customers but not notes: the grants of a narrower role (and the team's
  // wrapped keys, which every desk reads).
  const narrow = await loginRole(store.url, [
    'SELECT ON vetted.schema_version',
    'SELECT ON vetted.team_meta, vetted.team_keys',
    'SELECT, INSERT, UPDATE ON vetted.customers',
    'SELECT, INSERT ON vetted.status_history',
    'SELECT ON vetted.notes',
  ]);
  await (async () => {
    const admin = new pg.Client({ connectionString: store.url });
    await admin.connect();
    await admin.query(`GRANT CONNECT ON DATABASE ${new URL(store.url).pathname.slice(1)} TO ${narrow.name}`);
    await admin.end();
  })();
  const pool = new pg.Pool({ connectionString: narrow.url, max: 2 });
  closing.push(() => pool.end());
  const journal = await journalOn(pool, teamKey);
  await journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), { source: 'created' });

  const refused = await journal.notes.add({ customerId: 'c-1', text: 'x' }).catch((e) => e);
  expect(answered(refused)).toEqual({
    code: 'TeamNoAccess',
    message: `The team store does not allow "${narrow.name}" to do this: the team's grants leave it out. Ask your administrator.`,
  });

  // The desk's own refusal inside a unit of work, and a row the store turns down for what it is: unchanged.
  const own = new DeskError('InvalidRetry', 'Fix the form first.');
  await expect(journal.transaction(() => Promise.reject(own))).rejects.toBe(own);
  const duplicate = await journal
    .transaction(async () => {
      await pool.query(`INSERT INTO vetted.customers (id, seq, status, section, status_since, created,
        last_refreshed, changed_at, profile) VALUES ('c-1', 1, 'x', 'x', now(), now(), now(), now(), 'x')`);
    })
    .catch((e) => e);
  expect(duplicate).toBeInstanceOf(pg.DatabaseError);
  expect(duplicate).toMatchObject({ code: '23505' });
});
