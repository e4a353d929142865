import net from 'node:net';
import pg from 'pg';
import { expect, onTestFinished, test } from 'vitest';
import { TeamSchemaError } from '#main/team/store/migrations/runner.ts';
import { checkTeamStore, openTeamPool, TeamConnectionError } from '#main/team/store/pool.ts';
import { QUERY_TIMEOUT_WORDS } from '#main/team/store/silence.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { startFaultProxy, throughProxy } from '#test/support/network/fault-proxy.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase, pgAdminUrl } from '#test/support/postgres/team-db.ts';
import {
  addTestReviewer,
  connectFailure,
  initTeamStore,
  trackPool,
} from '#test/support/team/admin-support.ts';
import { connectionOf } from '#test/support/team/team-store.ts';

test('a wrong password is refused in words that never hold the password', async () => {
  const store = await initTeamStore();
  const alice = await addTestReviewer(store, 'alice');
  const wrong = `${alice.password.slice(0, -4)}Zz9_`;
  const error = await connectFailure(alice.joinCode.connection, wrong);
  expect(error.kind).toBe('auth');
  expect(error.message).toBe(`The team store refused the password for "${alice.name}": check the password.`);
  expect(`${error.message} ${error.stack}`).not.toContain(wrong);
  expect(`${error.message} ${error.stack}`).not.toContain(alice.password);
});

test('no such database, nothing listening, and a server without TLS are each named', async () => {
  const { connection, password } = connectionOf(pgAdminUrl());
  const missing = await connectFailure({ ...connection, database: 'no_such_db' }, password);
  expect(missing).toMatchObject({
    kind: 'database',
    message: `There is no database "no_such_db" at 127.0.0.1:${connection.port}.`,
  });

  const closed = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
  const unreachable = await connectFailure({ ...connection, port: closed }, password);
  expect(unreachable.kind).toBe('unreachable');
  expect(unreachable.message).toContain(`127.0.0.1:${closed} could not be reached`);

  const noTls = await connectFailure({ ...connection, sslmode: 'verify-full' }, password);
  expect(noTls.kind).toBe('tls');
  expect(noTls.message).toMatch(/does not support TLS/);
});

test('checkTeamStore: the right key passes, another team key is refused, a bare database is no team store', async () => {
  const store = await initTeamStore();
  const alice = await addTestReviewer(store, 'alice');
  const pool = trackPool(openTeamPool(alice.joinCode.connection, alice.password));
  await checkTeamStore(pool, alice.joinCode.teamKey);
  await expect(checkTeamStore(pool, createTeamKey())).rejects.toThrow(
    "This join code's team key does not match this team store.",
  );
  const bare = connectionOf(await freshDatabase());
  await expect(
    checkTeamStore(trackPool(openTeamPool(bare.connection, bare.password)), createTeamKey()),
  ).rejects.toThrow(TeamSchemaError);
});

test('an idle connection the server drops is reported to the pool owner, never crashing the process', async () => {
  const { connection, password } = connectionOf(await freshDatabase());
  const dropped: TeamConnectionError[] = [];
  const pool = trackPool(
    openTeamPool(connection, password, {
      applicationName: 'vetted-idle-test',
      onIdleError: (error) => dropped.push(error),
    }),
  );
  const client = await pool.connect();
  client.release();
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vetted-idle-test'`,
    );
  } finally {
    await admin.end();
  }
  await until(() => dropped.length > 0, 'the pool reports the dropped idle connection', 15_000);
  expect(dropped[0]).toBeInstanceOf(TeamConnectionError);
  await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
});

test('a statement on a silent connection fails at its deadline, and that connection and the idle ones are dropped', async () => {
  const url = await freshDatabase();
  const direct = new URL(url);
  const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port) });
  onTestFinished(() => proxy.close());
  const { connection, password } = connectionOf(throughProxy(url, proxy));
  const dropped: TeamConnectionError[] = [];
  const pool = trackPool(
    openTeamPool(connection, password, { queryTimeoutMs: 500, onIdleError: (error) => dropped.push(error) }),
  );
  // Three connections open and idle, as a desk's pool after some work.
  const held = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
  // Each has answered (the SETs a new connection queues first included) before the network goes silent.
  for (const client of held) {
    await client.query('SELECT 1');
    client.release();
  }
  expect(pool.idleCount).toBe(3);

  proxy.blackHole();
  const client = await pool.connect();
  await expect(client.query('SELECT 1')).rejects.toThrow(QUERY_TIMEOUT_WORDS);
  client.release();
  // The one that timed out ended itself; the two idle ones were dropped with it, in words.
  await until(() => pool.totalCount === 0, 'every connection opened before the silence to be dropped');
  expect(dropped.map((error) => error.kind)).toEqual(['unreachable', 'unreachable']);

  proxy.pass();
  await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  expect(pool.totalCount).toBe(1);
});

test('a session cut off in the middle of a transaction is ended by the server, and its locks freed', async () => {
  const url = await freshDatabase();
  const direct = new URL(url);
  const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port) });
  onTestFinished(() => proxy.close());
  const { connection, password } = connectionOf(throughProxy(url, proxy));
  const pool = trackPool(
    openTeamPool(connection, password, { queryTimeoutMs: 5_000, inTransactionBoundMs: 500 }),
  );
  // As a desk mid-write: a transaction holding the lock every team writer takes first (draw_change's kind).
  const writer = await pool.connect();
  await writer.query('BEGIN');
  await writer.query('SELECT pg_advisory_xact_lock(4242)');
  proxy.blackHole();
  // Another desk's write, straight to the store: it gets the lock once the server has ended the silent session.
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  onTestFinished(() => other.end());
  await other.query('BEGIN');
  await other.query('SELECT pg_advisory_xact_lock(4242)');
  await other.query('COMMIT');
  const { rows } = await other.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
  );
  expect(rows[0].n).toBe(0);
  writer.release(new Error('cut off'));
});
