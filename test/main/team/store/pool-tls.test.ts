// TLS to the team store (sslmode verify-full) against a cluster of this test's own with ssl=on: a CA and a
// server certificate for 127.0.0.1 made with the openssl CLI for this run only. "localhost" reaches the same
// server but is a name the certificate does not hold, which is how a host name mismatch looks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import {
  checkTeamStore,
  openTeamPool,
  type TeamConnectionError,
  teamClientConfig,
} from '#main/team/store/pool.ts';
import { freePort } from '#test/support/free-port.ts';
import { makeCa, makeServerCert } from '#test/support/network/test-certs.ts';
import { type PgCluster, startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import {
  addTestReviewer,
  connectFailure,
  reviewerPool,
  runTeam,
  trackPool,
} from '#test/support/team/admin-support.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-pg-tls-'));
let cluster: PgCluster;
let teamCa: string;
let teamCaFile: string;
let otherCa: string;
let base: TeamConnection;
let password: string;

beforeAll(async () => {
  const ca = makeCa(dir, 'team-ca');
  teamCa = ca.pem;
  teamCaFile = ca.certFile;
  otherCa = makeCa(dir, 'other-ca').pem;
  const server = makeServerCert(dir, ca, '127.0.0.1', 'IP:127.0.0.1');
  cluster = await startPgCluster({ ssl: { certFile: server.certFile, keyFile: server.keyFile } });
  const url = new URL(cluster.url());
  password = decodeURIComponent(url.password);
  base = {
    host: '127.0.0.1',
    port: cluster.port,
    database: 'postgres',
    user: 'postgres',
    sslmode: 'verify-full',
  };
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function tlsFailure(connection: TeamConnection): Promise<TeamConnectionError> {
  const error = await connectFailure(connection, password);
  expect(error.kind).toBe('tls');
  return error;
}

test('verify-full with the team CA connects, encrypted', async () => {
  const pool = trackPool(openTeamPool({ ...base, ca: teamCa }, password));
  const { rows } = await pool.query<{ ssl: boolean }>(
    'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
  );
  expect(rows).toEqual([{ ssl: true }]);
});

test('a dedicated client (LISTEN, the hub lock) made from the same settings is verified the same way', async () => {
  const client = new pg.Client(teamClientConfig({ ...base, ca: teamCa }, password));
  await client.connect();
  try {
    const { rows } = await client.query<{ ssl: boolean }>(
      'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
    );
    expect(rows).toEqual([{ ssl: true }]);
  } finally {
    await client.end();
  }
  const wrong = new pg.Client(teamClientConfig({ ...base, ca: otherCa }, password));
  await expect(wrong.connect()).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
});

test('verify-full with another CA, or with none (the system CAs), refuses the server in words', async () => {
  for (const connection of [{ ...base, ca: otherCa }, base]) {
    const error = await tlsFailure(connection);
    expect(error.message).toMatch(/issued by an authority \(CA\) this connection does not trust/);
  }
});

test('verify-full by a host name the certificate does not name refuses the server in words', async () => {
  const error = await tlsFailure({ ...base, host: 'localhost', ca: teamCa });
  expect(error.message).toBe(
    "The database server's certificate does not name localhost: connect by a host name the certificate names.",
  );
});

test('the administrator over TLS: init, and add-reviewer hands desks the CA of --database (sslrootcert)', async () => {
  const url = new URL(await cluster.createDatabase('tls'));
  url.searchParams.set('sslmode', 'verify-full');
  url.searchParams.set('sslrootcert', teamCaFile);
  const store = { url: url.toString(), keyFile: path.join(dir, 'tls.team-key') };
  expect(await runTeam('init', '--database', store.url, '--key-file', store.keyFile)).toMatchObject({
    code: 0,
  });
  const grace = await addTestReviewer(store, 'grace');
  expect(grace.joinCode.connection).toMatchObject({ sslmode: 'verify-full', ca: teamCa });
  const pool = reviewerPool(grace);
  await checkTeamStore(pool, grace.joinCode.teamKey);
  const { rows } = await pool.query<{ ssl: boolean }>(
    'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
  );
  expect(rows).toEqual([{ ssl: true }]);
});

test('with standbys, the certificate is checked against the name of the node reached, not the first one', async () => {
  // Nothing listens on the first node: the second is the writable one.
  const closed = await freePort();
  const reached = trackPool(
    openTeamPool(
      {
        ...base,
        ca: teamCa,
        host: 'localhost',
        port: closed,
        standbys: [{ host: '127.0.0.1', port: cluster.port }],
      },
      password,
    ),
  );
  const { rows } = await reached.query<{ ssl: boolean }>(
    'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
  );
  expect(rows).toEqual([{ ssl: true }]);
  // The same server reached as "localhost", a name its certificate does not hold: no node is fit to use,
  // and the refusal names the certificate's mismatch for that node.
  const error = await connectFailure(
    {
      ...base,
      ca: teamCa,
      host: '127.0.0.1',
      port: closed,
      standbys: [{ host: 'localhost', port: cluster.port }],
    },
    password,
  );
  expect(error.message).toMatch(/localhost:\d+: .*(certificate|altnames)/i);
});
