// A team store behind a pooler in transaction mode: the join code names the pooler (host:port) for the
// desks' pooled work and the server itself (direct) for what needs a session of its own. How the
// administrator puts both in a join code, and what a desk checks of the direct address before it joins.
// Desks and hubs working through a real PgBouncer: test/main/team/desks/team-pgbouncer.test.ts.
import crypto from 'node:crypto';
import { expect, test } from 'vitest';
import { DeskError } from '#contract/errors.ts';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { decodeJoinCode, encodeJoinCode, JoinCodeError, newCodeUse } from '#main/team/join-code.ts';
import { directConnection, teamClientConfig } from '#main/team/store/pool.ts';
import { freePort } from '#test/support/free-port.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import {
  addTestReviewer,
  initTeamStore,
  joinCodeCommand,
  uniqueName,
} from '#test/support/team/admin-support.ts';
import { makeTeamStore } from '#test/support/team/team-store.ts';
import { membershipDesk } from '../membership-desk.ts';

const desk = () => membershipDesk();

const pooled: TeamConnection = {
  host: 'pool.example.test',
  port: 6432,
  database: 'vetted',
  user: 'alice',
  sslmode: 'verify-full',
  ca: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  direct: { host: 'db.example.test', port: 5432 },
};

test('sessions go to the direct address when one is named, else to the same one; TLS checks that host', () => {
  const direct = directConnection(pooled);
  expect(direct).toEqual({ ...pooled, host: 'db.example.test', port: 5432, direct: undefined });
  expect('direct' in direct).toBe(false);
  const { direct: _, ...plain } = pooled;
  expect(directConnection(plain)).toEqual(plain);
  const config = teamClientConfig(direct, 'pw');
  expect(config).toMatchObject({ host: 'db.example.test', port: 5432, database: 'vetted', user: 'alice' });
  expect(config.ssl).toMatchObject({ servername: 'db.example.test', rejectUnauthorized: true });
});

test('a join code carries the direct address; a damaged one is refused in words', () => {
  const teamKey = crypto.randomBytes(32);
  const code = encodeJoinCode({
    teamId: crypto.randomUUID(),
    connection: pooled,
    teamKey,
    use: newCodeUse(),
  });
  expect(decodeJoinCode(code).connection).toEqual(pooled);
  for (const direct of [
    { host: '', port: 5432 },
    { host: 'db', port: 0 },
    { host: 'db', port: 5432, x: 1 },
  ]) {
    const body = { teamId: crypto.randomUUID(), connection: { ...pooled, direct }, teamKey: 'AAAA' };
    const text = `vetted-join-2.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
    expect(() => decodeJoinCode(text)).toThrow(JoinCodeError);
  }
});

test('add-reviewer and join-code put the pooler and the server itself into the join code', async () => {
  const store = await initTeamStore();
  const serverPort = Number(new URL(store.url).port);
  const alice = await addTestReviewer(store, 'alice', '--port', '6432', '--direct-host', '127.0.0.1');
  expect(alice.joinCode.connection).toMatchObject({
    host: '127.0.0.1',
    port: 6432,
    direct: { host: '127.0.0.1', port: serverPort },
  });
  expect(alice.out).toContain(`sessions of their own at 127.0.0.1:${serverPort}`);

  const again = await joinCodeCommand(
    ...(['join-code', alice.name, store, store.keyFile] as const),
    ...['--direct-host', 'db.example.test', '--direct-port', '5433'],
  );
  expect(again, again.err).toMatchObject({ code: 0 });
  const code = again.out.split('\n').find((line) => line.startsWith('vetted-join-2.')) ?? '';
  expect(decodeJoinCode(code).connection.direct).toEqual({ host: 'db.example.test', port: 5433 });

  const plain = await addTestReviewer(store, 'bob');
  expect(plain.joinCode.connection.direct).toBeUndefined();

  for (const [extra, words] of [
    [['--direct-port', '5432'], /--direct-port needs --direct-host/],
    [['--direct-host', 'db', '--direct-port', 'x'], /--direct-port is a port number/],
  ] as const) {
    const run = await joinCodeCommand('add-reviewer', uniqueName('carol'), store, store.keyFile, ...extra);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(words);
  }
});

test('joining checks the direct address too: one that cannot be reached refuses the join, keeping nothing', async () => {
  const store = await makeTeamStore(await freshDatabase());
  // Free a moment ago: nothing listens there.
  const port = await freePort();
  const unreachable = { ...store.connection, direct: { host: '127.0.0.1', port } };
  const d = desk();
  const code = await store.code({ connection: unreachable });
  const error = await d.membership.join(code, store.password).then(
    () => new Error('joined'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  expect((error as DeskError).code).toBe('TeamUnreachable');
  expect((error as DeskError).message).toContain(`127.0.0.1:${port}`);
  expect(d.settings.get().team).toBeUndefined();
  expect(d.vault.get('teamKey')).toBeUndefined();

  // The server's own address as the direct one (the test's cluster has no pooler in front): it joins.
  const reachable = { ...store.connection, direct: { host: '127.0.0.1', port: store.connection.port } };
  const good = await store.code({ connection: reachable });
  expect(await d.membership.join(good, store.password)).toMatchObject({ store: 'connected' });
  expect(d.settings.get().team?.connection.direct).toEqual(reachable.direct);
});

test('add-reviewer takes every node of a store with a standby, as libpq lists them', async () => {
  const store = await initTeamStore();
  const carol = await addTestReviewer(
    store,
    'carol',
    '--host',
    'db1.example.test,db2.example.test',
    '--port',
    '5432,5433',
  );
  expect(carol.joinCode.connection).toMatchObject({
    host: 'db1.example.test',
    port: 5432,
    standbys: [{ host: 'db2.example.test', port: 5433 }],
  });
  expect(carol.out).toContain('db1.example.test:5432,db2.example.test:5433/');
  expect(carol.out).toContain('(whichever accepts writes)');
  for (const [extra, words] of [
    [['--host', 'a,b,c', '--port', '1,2'], /3 hosts but 2 ports/],
    [['--host', 'a,b', '--direct-host', 'db'], /--direct-host is for one --host/],
  ] as const) {
    const run = await joinCodeCommand('add-reviewer', uniqueName('dave'), store, store.keyFile, ...extra);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(words);
  }
});
