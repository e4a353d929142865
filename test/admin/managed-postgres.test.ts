// A managed PostgreSQL (RDS, Cloud SQL style): nobody has superuser, the provider gives the team an
// administrator login with CREATEROLE that owns the team's database, and the server refuses connections
// without TLS. A cluster of this test's own set up that way (ssl on, pg_hba hostssl only), a CA and a
// certificate for 127.0.0.1 made for this run: every `npm run team` command runs as that administrator, and
// reviewers and hubs reach the store with verify-full and the CA their join code carries.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkTeamStore } from '#main/team/store/pool.ts';
import { makeCa, makeServerCert } from '../support/network/test-certs.ts';
import { type PgCluster, startPgCluster } from '../support/postgres/pg-cluster.ts';
import {
  addTestReviewer,
  reviewerPool,
  runTeam,
  tempPath,
  uniqueName,
} from '../support/team/admin-support.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-managed-pg-'));
let cluster: PgCluster;
let caFile: string;
/** The administrator's URL as a provider hands it out, with TLS verified against the provider's CA. */
let adminUrl: URL;

beforeAll(async () => {
  const ca = makeCa(dir, 'provider-ca');
  caFile = ca.certFile;
  const server = makeServerCert(dir, ca, '127.0.0.1', 'IP:127.0.0.1');
  cluster = await startPgCluster({
    ssl: { certFile: server.certFile, keyFile: server.keyFile },
    requireTls: true,
  });
  // What the provider does once, as its own superuser: an administrator that is none, and its database.
  const provider = new pg.Client({ connectionString: cluster.url(), ssl: { ca: ca.pem } });
  await provider.connect();
  const admin = uniqueName('team_admin');
  const password = 'the-providers-admin-password';
  const database = uniqueName('vetted');
  try {
    await provider.query(`CREATE ROLE ${admin} LOGIN CREATEROLE PASSWORD '${password}'`);
    await provider.query(`CREATE DATABASE ${database} OWNER ${admin}`);
  } finally {
    await provider.end();
  }
  adminUrl = new URL(`postgres://${admin}:${password}@127.0.0.1:${cluster.port}/${database}`);
  adminUrl.searchParams.set('sslmode', 'verify-full');
  adminUrl.searchParams.set('sslrootcert', caFile);
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the server refuses a connection without TLS, and the administrator is no superuser', async () => {
  const plain = new URL(adminUrl);
  plain.search = '';
  const client = new pg.Client({ connectionString: plain.toString(), ssl: false });
  await expect(client.connect()).rejects.toMatchObject({ message: expect.stringMatching(/no encryption/) });
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user',
    );
    expect(rows).toEqual([{ rolsuper: false, rolcreaterole: true }]);
  } finally {
    await admin.end();
  }
});

test('every team command runs as that administrator; desks and hubs reach the store over verified TLS', async () => {
  const store = { url: adminUrl.toString(), keyFile: tempPath('managed.team-key') };
  const init = await runTeam('init', '--database', store.url, '--key-file', store.keyFile);
  expect(init, init.err).toMatchObject({ code: 0 });

  const hub = await addTestReviewer(store, 'hub');
  const alice = await addTestReviewer(store, 'alice');
  expect(alice.joinCode.connection).toMatchObject({
    sslmode: 'verify-full',
    ca: fs.readFileSync(caFile, 'utf8'),
  });
  for (const login of [hub, alice]) {
    const pool = reviewerPool(login);
    await checkTeamStore(pool, login.joinCode.teamKey);
    const { rows } = await pool.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    expect(rows).toEqual([{ ssl: true }]);
  }
  expect(await runTeam('migrate', '--database', store.url)).toMatchObject({ code: 0 });

  // Without pg_signal_backend (a provider may not grant it) the removal holds and says what it could not do.
  const session = await reviewerPool(alice).connect();
  const removed = await runTeam('remove-reviewer', alice.name, '--database', store.url);
  session.release();
  expect(removed, removed.err).toMatchObject({ code: 0 });
  expect(removed.out).toMatch(/could not be ended \(grant pg_signal_backend/);
  const status = await runTeam('status', '--database', store.url);
  expect(status.out).toContain(`${alice.name} (removed: cannot log in)`);
  expect(status.out).toContain(`  ${hub.name}\n`);

  // A provider's bundle of every region's CAs is too large for a join code: refused in words.
  const pem = fs.readFileSync(caFile, 'utf8');
  const bundle = tempPath('global-bundle.pem');
  fs.writeFileSync(bundle, pem.repeat(Math.ceil(70_000 / pem.length)));
  const tooLarge = await runTeam(
    ...['add-reviewer', uniqueName('bob'), '--database', store.url],
    ...['--key-file', store.keyFile, '--ca', bundle],
  );
  expect(tooLarge.code).toBe(1);
  expect(tooLarge.err).toMatch(/a join code carries at most 64000.*bundle of the database's region/);
});
