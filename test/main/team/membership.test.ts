import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { DeskError } from '#contract/errors.ts';
import { openSettings } from '#main/ground/config/settings-store.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { encodeJoinCode, newCodeUse } from '#main/team/join-code.ts';
import { createMembership } from '#main/team/membership.ts';
import { LISTENER_LOCK } from '#main/team/store/sql.ts';
import { createTeamKey, encodeTeamKey } from '#main/team/team-key.ts';
import { everyFile } from '#test/support/desk/desk-harness.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { connectionOf, makeTeamStore } from '#test/support/team/team-store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function desk(startedOn: string | null = null) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-membership-'));
  dirs.push(dir);
  const vault = openFileKeyVault({ dir });
  const settings = openSettings({ dir });
  return { dir, vault, settings, membership: createMembership({ vault, settings, startedOn }) };
}

/** Whatever `work` throws, as the DeskError it must be. */
async function refusal(work: Promise<unknown>): Promise<DeskError> {
  await expect(work).rejects.toBeInstanceOf(DeskError);
  return work.catch((error: DeskError) => error) as Promise<DeskError>;
}

function expectNothingKept(d: ReturnType<typeof desk>) {
  expect(d.settings.get().team).toBeUndefined();
  expect(d.vault.get('teamKey')).toBeUndefined();
  expect(d.vault.get('teamDatabasePassword')).toBeUndefined();
}

async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('joining checks the store, then keeps the key and password in the vault and the connection in settings', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const d = desk();
  const code = await store.code();
  const status = await d.membership.join(code, store.password);

  expect(status).toEqual({
    mode: 'team',
    team: {
      teamId: store.teamId,
      reviewer: store.connection.user,
      host: '127.0.0.1',
      port: store.connection.port,
      database: store.connection.database,
      sslmode: 'disable',
    },
    store: 'connected',
    hub: 'no hub',
    restartNeeded: true,
  });
  expect(d.vault.get('teamKey')).toBe(encodeTeamKey(store.teamKey));
  expect(d.vault.get('teamDatabasePassword')).toBe(store.password);
  expect(openSettings({ dir: d.dir }).get().team).toEqual({
    teamId: store.teamId,
    connection: store.connection,
  });

  // Secrets only in the vault (sealed): no file of the data directory holds them in plaintext.
  for (const bytes of everyFile(d.dir)) {
    for (const secret of [store.password, encodeTeamKey(store.teamKey), code]) {
      expect(bytes.includes(secret)).toBe(false);
    }
  }
  expect(JSON.stringify(status)).not.toContain(store.password);
  expect(await d.membership.status()).toEqual(status);
});

test('status says a hub listens while some session holds the listener lock', async () => {
  const url = await freshDatabase();
  const store = await makeTeamStore(url);
  const d = desk(store.teamId);
  await d.membership.join(await store.code(), store.password);
  const hub = new pg.Client({ connectionString: url });
  await hub.connect();
  try {
    await hub.query('SELECT pg_advisory_lock($1)', [LISTENER_LOCK]);
    expect(await d.membership.status()).toMatchObject({
      store: 'connected',
      hub: 'listening',
      restartNeeded: false,
    });
  } finally {
    await hub.end();
  }
});

test('a wrong password is refused in words, beside the field, and changes nothing', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const d = desk();
  const error = await refusal(d.membership.join(await store.code(), 'not-the-password'));
  expect(error.code).toBe('TeamWrongPassword');
  expect(error.fields?.['/password']).toMatch(/refused the password/);
  expect(error.message).not.toContain('not-the-password');
  expectNothingKept(d);
});

test('a code whose key is not the team’s is refused, and changes nothing', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const d = desk();
  const error = await refusal(
    d.membership.join(await store.code({ teamKey: createTeamKey() }), store.password),
  );
  expect(error.code).toBe('TeamKeyMismatch');
  expect(error.message).toMatch(/does not match/);
  expectNothingKept(d);
});

test('a database that is not a team store is refused', async () => {
  const { connection, password } = connectionOf(await freshDatabase());
  const d = desk();
  const code = encodeJoinCode({
    teamId: crypto.randomUUID(),
    connection,
    teamKey: createTeamKey(),
    use: newCodeUse(),
  });
  const error = await refusal(d.membership.join(code, password));
  expect(error.code).toBe('TeamNotAStore');
  expect(error.message).toMatch(/not a Vetted team store/);
  expectNothingKept(d);
});

test('an unreachable store is refused in words; a damaged code before any connection', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const d = desk();
  const connection = { ...store.connection, port: await deadPort() };
  const code = await store.code({ connection });
  const unreachable = await refusal(d.membership.join(code, store.password));
  expect(unreachable.code).toBe('TeamUnreachable');
  expect(unreachable.message).toContain(`127.0.0.1:${connection.port}`);

  const damaged = await refusal(d.membership.join((await store.code()).slice(0, 40), store.password));
  expect(damaged.code).toBe('TeamCodeDamaged');
  expect(damaged.fields?.['/code']).toMatch(/damaged/);
  expectNothingKept(d);
});

test('verify-full is never quietly downgraded: a store without TLS is refused', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const d = desk();
  const connection = { ...store.connection, sslmode: 'verify-full' as const };
  const code = await store.code({ connection });
  const error = await refusal(d.membership.join(code, store.password));
  expect(error.code).toBe('TeamTls');
  expect(error.message).toMatch(/does not support TLS/);
  expectNothingKept(d);
});

test('status tells an unreachable store from a refusing one', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const d = desk(store.teamId);
  await d.membership.join(await store.code(), store.password);

  d.settings.update({
    team: { teamId: store.teamId, connection: { ...store.connection, port: await deadPort() } },
  });
  expect(await d.membership.status()).toMatchObject({ store: 'unreachable', hub: 'unknown' });

  d.settings.update({ team: { teamId: store.teamId, connection: store.connection } });
  d.vault.set('teamDatabasePassword', 'changed-since');
  const refused = await d.membership.status();
  expect(refused).toMatchObject({
    store: 'refused',
    problem: expect.stringMatching(/refused the password/),
  });
  expect(JSON.stringify(refused)).not.toContain('changed-since');

  d.vault.delete('teamDatabasePassword');
  expect(await d.membership.status()).toMatchObject({
    store: 'refused',
    problem: expect.stringMatching(/vault/),
  });
});

test('joining twice is refused; leaving forgets the secrets and the connection, and needs a restart', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const d = desk(store.teamId);
  await d.membership.join(await store.code(), store.password);
  expect((await refusal(d.membership.join(await store.code(), store.password))).code).toBe(
    'TeamAlreadyJoined',
  );

  const status = await d.membership.leave();
  expect(status).toEqual({ mode: 'solo', store: 'not-joined', hub: 'unknown', restartNeeded: true });
  expectNothingKept(d);
  expect(openSettings({ dir: d.dir }).get().team).toBeUndefined();
  expect(openFileKeyVault({ dir: d.dir }).names()).not.toContain('teamKey');
});

test('the settings file’s team block holds where and as whom, and refuses anything secret', () => {
  const d = desk();
  const { connection } = connectionOf('postgres://alice:pw@127.0.0.1:5432/vetted');
  const teamId = crypto.randomUUID();
  expect(() =>
    d.settings.update({ team: { teamId, connection: { ...connection, password: 'pw' } } as never }),
  ).toThrow(/password/);
  expect(() => d.settings.update({ team: { teamId, connection, teamKey: 'k' } as never })).toThrow(/teamKey/);
  expect(d.settings.get().team).toBeUndefined();
});

test('a new password from the administrator: a wrong one is refused beside the field, the right one is kept and needs a restart', async () => {
  const url = await freshDatabase();
  const store = await makeTeamStore(url);
  // A login of its own, whose password the test (as the administrator) can change.
  const name = `reviewer_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${name} LOGIN SUPERUSER PASSWORD 'old-password'`);
    const connection = { ...store.connection, user: name };
    const code = await store.code({ connection });
    const d = desk(store.teamId);
    await d.membership.join(code, 'old-password');
    await admin.query(`ALTER ROLE ${name} PASSWORD 'new-password'`);
    expect(await d.membership.status()).toMatchObject({ store: 'refused', restartNeeded: false });

    const wrong = await refusal(d.membership.changePassword('old-password'));
    expect(wrong.code).toBe('TeamWrongPassword');
    expect(wrong.fields?.['/password']).toMatch(/refused the password/);
    expect(d.vault.get('teamDatabasePassword')).toBe('old-password');

    const status = await d.membership.changePassword('new-password');
    expect(status).toMatchObject({ mode: 'team', store: 'connected', restartNeeded: true });
    expect(d.vault.get('teamDatabasePassword')).toBe('new-password');
    expect(await d.membership.status()).toMatchObject({ store: 'connected', restartNeeded: true });
  } finally {
    await admin.query(`DROP ROLE IF EXISTS ${name}`).catch(() => undefined);
    await admin.end();
  }
});

test('a new password needs a team to be for', async () => {
  const d = desk();
  const refused = await refusal(d.membership.changePassword('anything'));
  expect(refused.code).toBe('TeamNotJoined');
  expectNothingKept(d);
});
