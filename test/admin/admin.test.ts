import fs from 'node:fs';
import pg from 'pg';
import { expect, test } from 'vitest';
import { advisoryLockParts } from '#admin/status.ts';
import { TEAM_LATEST_VERSION } from '#main/team/store/migrations/index.ts';
import { checkTeamStore, TeamConnectionError } from '#main/team/store/pool.ts';
import { LISTENER_LOCK } from '#main/team/store/sql.ts';
import { until } from '../support/poll.ts';
import { freshDatabase } from '../support/postgres/team-db.ts';
import {
  addTestReviewer,
  initTeamStore,
  joinCodeCommand,
  reviewerPool,
  runTeam,
  tempPath,
  uniqueName,
} from '../support/team/admin-support.ts';
import { insertAuditRow } from '../support/team/audit-rows.ts';

test('init makes the team store and a key file for its owner only; status shows the team', async () => {
  const store = await initTeamStore();
  expect(fs.statSync(store.keyFile).mode & 0o777).toBe(0o600);
  const status = await runTeam('status', '--database', store.url);
  expect(status.code).toBe(0);
  expect(status.out).toMatch(new RegExp(`^Team [0-9a-f-]{36}, schema version ${TEAM_LATEST_VERSION}$`, 'm'));
  expect(status.out).toMatch(/Reviewers' group role: vetted_\w+_reviewers/);
  expect(status.out).toContain('none yet');
  expect(status.out).toContain('Webhook listener: no hub holds it');
  expect(status.out).toContain('Team outbox: queued 0, attention 0, created 0, rejected 0');
  expect(status.out).toContain('Events: 0');
});

test('init says the key file must be kept, and refuses a second run in words', async () => {
  const url = await freshDatabase();
  const keyFile = tempPath('team.key');
  const first = await runTeam('init', '--database', url, '--key-file', keyFile);
  expect(first.out).toMatch(/Keep it safe/);
  expect(first.out).toContain(keyFile);
  const again = await runTeam('init', '--database', url, '--key-file', tempPath('other.key'));
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/already a Vetted team store.*migrate/);
});

test('init never overwrites a key file, and then leaves the database as it was', async () => {
  const url = await freshDatabase();
  const keyFile = tempPath('existing.key');
  fs.writeFileSync(keyFile, 'another team key\n');
  const run = await runTeam('init', '--database', url, '--key-file', keyFile);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(/already exists: Vetted never overwrites a key file/);
  expect(fs.readFileSync(keyFile, 'utf8')).toBe('another team key\n');
  const status = await runTeam('status', '--database', url);
  expect(status.err).toMatch(/not a Vetted team store yet/);
});

test('add-reviewer: the printed password logs in as that reviewer, and the join code names them', async () => {
  const store = await initTeamStore();
  const alice = await addTestReviewer(store, 'alice');
  expect(alice.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(alice.joinCode.connection).toMatchObject({
    host: '127.0.0.1',
    port: Number(new URL(store.url).port),
    database: new URL(store.url).pathname.slice(1),
    user: alice.name,
    sslmode: 'disable',
  });
  // The join code never holds the password.
  expect(alice.out.split('\n').find((line) => line.startsWith('vetted-join-2.'))).not.toContain(
    alice.password,
  );
  const pool = reviewerPool(alice);
  await checkTeamStore(pool, alice.joinCode.teamKey);
  const { rows } = await pool.query<{ me: string }>('SELECT session_user AS me');
  expect(rows[0]?.me).toBe(alice.name);
  const status = await runTeam('status', '--database', store.url);
  expect(status.out).toContain(`  ${alice.name}\n`);
});

test('add-reviewer refuses names that are not lower-case identifiers, reserved, or taken', async () => {
  const store = await initTeamStore();
  const taken = await addTestReviewer(store, 'bob');
  for (const [name, words] of [
    ['Alice', /lower-case letters/],
    ['a-b', /lower-case letters/],
    ['postgres', /reserved/],
    ['pg_monitor', /reserved/],
    [taken.name, /already exists/],
  ] as const) {
    const run = await joinCodeCommand('add-reviewer', name, store, store.keyFile);
    expect(run.code, name).toBe(1);
    expect(run.err, name).toMatch(words);
  }
});

test('add-reviewer refuses a key file that is not the team key', async () => {
  const store = await initTeamStore();
  const other = await initTeamStore();
  const run = await joinCodeCommand('add-reviewer', uniqueName('carol'), store, other.keyFile);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(/not this team's key/);
});

test('remove-reviewer: they can no longer log in, open sessions end, what they wrote stays', async () => {
  const store = await initTeamStore();
  const alice = await addTestReviewer(store, 'alice');
  const open = reviewerPool(alice);
  const session = await open.connect();
  session.on('error', () => undefined);
  await insertAuditRow(session, { action: 'note.add' });
  const removed = await runTeam('remove-reviewer', alice.name, '--database', store.url);
  expect(removed.code, removed.err).toBe(0);
  expect(removed.out).toMatch(/1 open session\(s\) ended/);
  // Their join code carries the current team key: the command says so and offers the rotation.
  expect(removed.out).toMatch(
    /A rotation of the team key is advised: .*\n {2}npm run team -- rotate-key --database URL --key-file FILE --reseal\n/,
  );
  await expect(session.query('SELECT 1')).rejects.toThrow();
  session.release(true);

  const error = await checkTeamStore(reviewerPool(alice), alice.joinCode.teamKey).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TeamConnectionError);
  expect((error as TeamConnectionError).kind).toBe('auth');
  expect((error as Error).message).toMatch(/does not let ".*" log in/);

  const admin = new pg.Client({ connectionString: store.url });
  await admin.connect();
  try {
    const { rows } = await admin.query('SELECT actor FROM vetted.audit_log');
    expect(rows).toEqual([{ actor: alice.name }]);
  } finally {
    await admin.end();
  }
  const status = await runTeam('status', '--database', store.url);
  expect(status.out).toContain(`${alice.name} (removed: cannot log in)`);
});

test('remove-reviewer refuses a role that is not one of the team reviewers', async () => {
  const store = await initTeamStore();
  const run = await runTeam('remove-reviewer', 'postgres', '--database', store.url);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(/not a reviewer of this team/);
});

test('migrate on an initialised store re-applies the grants; before init it says to run init', async () => {
  const store = await initTeamStore();
  const alice = await addTestReviewer(store, 'alice');
  const run = await runTeam('migrate', '--database', store.url);
  expect(run.out).toMatch(
    new RegExp(`already at schema version ${TEAM_LATEST_VERSION}; the reviewers' grants were re-applied`),
  );
  await expect(reviewerPool(alice).query('SELECT count(*) FROM vetted.customers')).resolves.toBeDefined();
  const empty = await runTeam('migrate', '--database', await freshDatabase());
  expect(empty.err).toMatch(/run `npm run team -- init` first/);
});

test('--help explains each command; an unknown command shows the usage and fails', async () => {
  for (const command of [
    'init',
    'add-reviewer',
    'remove-reviewer',
    'reset-password',
    'join-code',
    'status',
    'migrate',
    'verify-audit',
  ]) {
    const run = await runTeam(command, '--help');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`npm run team -- ${command}`);
  }
  const unknown = await runTeam('frobnicate', '--database', 'postgres://x@localhost/db');
  expect(unknown.code).toBe(1);
  expect(unknown.out).toContain('Commands:');
});

test('status names the hub holding the listener lock, and counts the team outbox and the events', async () => {
  const store = await initTeamStore();
  const hub = await addTestReviewer(store, 'hub');
  const session = await reviewerPool(hub).connect();
  try {
    const { rows } = await session.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [
      LISTENER_LOCK,
    ]);
    expect(rows).toEqual([{ held: true }]);
    await session.query(
      `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form, state)
       VALUES (gen_random_uuid(), 'd1', 'sealed', 'queued'), (gen_random_uuid(), 'd2', 'sealed', 'created')`,
    );
    await session.query(
      `INSERT INTO vetted.events (id, topic, resource_id, created, received_at, signature_verified)
       VALUES ('e1', 'customer.verified', 'c1', now(), '2026-11-23T20:00:00Z', true)`,
    );
    const status = await runTeam('status', '--database', store.url);
    expect(status.out).toMatch(new RegExp(`Webhook listener: held by ${hub.name} \\(backend \\d+\\)`));
    expect(status.out).toContain('Team outbox: queued 1, attention 0, created 1, rejected 0');
    expect(status.out).toContain('Events: 1, last received 2026-11-23T20:00:00.000Z');
  } finally {
    // A hub that stops (its connection closes) frees the lock.
    session.release(true);
  }
  await until(
    async () =>
      (await runTeam('status', '--database', store.url)).out.includes('Webhook listener: no hub holds it'),
    'status to show the lock freed',
  );
});

test('advisory lock keys split into pg_locks halves as PostgreSQL shows them', () => {
  expect(advisoryLockParts(LISTENER_LOCK)).toEqual({ classid: 0x56, objid: 0x4554_5402 });
});

test('an administrator who is no superuser (CREATEROLE, owner of the database) can run every command', async () => {
  const superUrl = new URL(await freshDatabase());
  const adminName = uniqueName('admin');
  const adminPassword = 'admin-password-for-this-test';
  const su = new pg.Client({ connectionString: superUrl.toString() });
  await su.connect();
  try {
    await su.query(`CREATE ROLE ${adminName} LOGIN CREATEROLE PASSWORD '${adminPassword}'`);
    await su.query(`GRANT pg_signal_backend TO ${adminName}`);
    await su.query(`ALTER DATABASE ${superUrl.pathname.slice(1)} OWNER TO ${adminName}`);
  } finally {
    await su.end();
  }
  const url = new URL(superUrl);
  url.username = adminName;
  url.password = adminPassword;
  const store = { url: url.toString(), keyFile: tempPath('admin.key') };
  expect(await runTeam('init', '--database', store.url, '--key-file', store.keyFile)).toMatchObject({
    code: 0,
  });
  const frank = await addTestReviewer(store, 'frank');
  await checkTeamStore(reviewerPool(frank), frank.joinCode.teamKey);
  expect(await runTeam('migrate', '--database', store.url)).toMatchObject({ code: 0 });
  expect(await runTeam('remove-reviewer', frank.name, '--database', store.url)).toMatchObject({ code: 0 });
  const status = await runTeam('status', '--database', store.url);
  expect(status.out).toContain(`${frank.name} (removed: cannot log in)`);
});
