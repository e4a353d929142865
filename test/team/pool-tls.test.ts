// TLS to the team store (sslmode verify-full) against a cluster of this test's own with ssl=on: a CA and a
// server certificate for 127.0.0.1 made with the openssl CLI for this run only. "localhost" reaches the same
// server but is a name the certificate does not hold, which is how a host name mismatch looks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TeamConnection } from '../../main/team/join-code.ts';
import { connectTeamClient, openTeamPool, TeamConnectionError } from '../../main/team/store/pool.ts';
import { type PgCluster, startPgCluster } from '../support/pg-cluster.ts';
import { trackPool } from './admin-support.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-pg-tls-'));
const file = (name: string) => path.join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });

/** A CA certificate and key named `name` (PEM files in `dir`). */
function makeCa(name: string): string {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    file(`${name}.key`),
    '-out',
    file(`${name}.pem`),
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  return fs.readFileSync(file(`${name}.pem`), 'utf8');
}

/** The server's key and a certificate for 127.0.0.1 signed by the CA `ca`. */
function makeServerCert(ca: string): void {
  openssl(
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  );
  fs.writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file(`${ca}.pem`),
    '-CAkey',
    file(`${ca}.key`),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  );
}

let cluster: PgCluster;
let teamCa: string;
let otherCa: string;
let base: TeamConnection;
let password: string;

beforeAll(async () => {
  teamCa = makeCa('team-ca');
  otherCa = makeCa('other-ca');
  makeServerCert('team-ca');
  cluster = await startPgCluster({ ssl: { certFile: file('server.pem'), keyFile: file('server.key') } });
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
  const error = await connectTeamClient(trackPool(openTeamPool(connection, password))).then(
    (client) => {
      client.release();
      return new Error('connected');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TeamConnectionError);
  expect((error as TeamConnectionError).kind).toBe('tls');
  expect((error as Error).message).not.toContain(password);
  return error as TeamConnectionError;
}

test('verify-full with the team CA connects, encrypted', async () => {
  const pool = trackPool(openTeamPool({ ...base, ca: teamCa }, password));
  const { rows } = await pool.query<{ ssl: boolean }>(
    'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
  );
  expect(rows).toEqual([{ ssl: true }]);
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
