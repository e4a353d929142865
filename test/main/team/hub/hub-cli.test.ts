import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { createTeamKey, encodeTeamKey } from '#main/team/team-key.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { hubCommand } from '#test/support/team/hub-process.ts';
import { makeTeamStore } from '#test/support/team/team-store.ts';

// Each command is a Node start-up (about a second, more on a loaded machine): hence the long timeouts.
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function hubDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub-'));
  dirs.push(dir);
  return dir;
}

/** Every file of the hub's data dir, as text: where a secret must never appear in plaintext. */
function everyFile(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(path.join(dir, name), 'utf8'))
    .join('\n');
}

test('a wrong password or a wrong team key is refused in words, and nothing is kept', {
  timeout: 60_000,
}, async () => {
  const store = await makeTeamStore(await freshDatabase());
  const dir = hubDir();

  const wrongPassword = await hubCommand(
    ['join', '--data-dir', dir],
    `${await await store.code()}\nnot-the-password\n`,
  );
  expect(wrongPassword.status).toBe(1);
  expect(wrongPassword.err).toMatch(/refused the password for/);

  const otherKey = createTeamKey();
  const wrongKey = await hubCommand(
    ['join', '--data-dir', dir],
    `${await store.code({ teamKey: otherKey })}\n${store.password}\n`,
  );
  expect(wrongKey.status).toBe(1);
  expect(wrongKey.err).toMatch(/team key in this join code does not match the team store/);

  const vault = openFileKeyVault({ dir });
  expect(vault.has('teamKey')).toBe(false);
  expect(vault.has('teamDatabasePassword')).toBe(false);
  const status = await hubCommand(['status', '--data-dir', dir]);
  expect(status.out).toContain('team: not joined');
  const seen = [wrongPassword.out, wrongPassword.err, wrongKey.out, wrongKey.err, everyFile(dir)].join('\n');
  expect(seen).not.toContain(store.password);
  expect(seen).not.toContain(encodeTeamKey(otherKey));
});

test('joined with the right code and password, status shows the team; secrets stay sealed in the vault', {
  timeout: 60_000,
}, async () => {
  const store = await makeTeamStore(await freshDatabase());
  const dir = hubDir();

  const joined = await hubCommand(
    ['join', '--data-dir', dir],
    `${await await store.code()}\n${store.password}\n`,
  );
  expect(joined.err).toBe('');
  expect(joined.status).toBe(0);
  expect(joined.out).toContain(`hub: joined team ${store.teamId} as ${store.connection.user}`);

  const service = await hubCommand(
    ['service', '--data-dir', dir, '--base-url', 'https://service.example', '--client-id', 'hub-client'],
    'the-client-secret-123\n',
  );
  expect(service.status).toBe(0);

  const status = await hubCommand(['status', '--data-dir', dir]);
  expect(status.status).toBe(0);
  expect(status.out).toContain(`team: joined ${store.teamId} as ${store.connection.user}`);
  expect(status.out).toContain('store: connected');
  expect(status.out).toContain('listener role: free');
  expect(status.out).toContain('service: https://service.example as client hub-client');

  const vault = openFileKeyVault({ dir });
  expect(vault.get('teamDatabasePassword')).toBe(store.password);
  expect(vault.get('teamKey')).toBe(encodeTeamKey(store.teamKey));
  expect(vault.get('clientSecret')).toBe('the-client-secret-123');
  const seen = [joined.out, joined.err, service.out, status.out, everyFile(dir)].join('\n');
  for (const secret of [
    store.password,
    encodeTeamKey(store.teamKey),
    'the-client-secret-123',
    await store.code(),
  ]) {
    expect(seen).not.toContain(secret);
  }
});

test('a second join is refused while joined; leave forgets the team', { timeout: 60_000 }, async () => {
  const store = await makeTeamStore(await freshDatabase());
  const dir = hubDir();
  expect(
    (await hubCommand(['join', '--data-dir', dir], `${await await store.code()}\n${store.password}\n`))
      .status,
  ).toBe(0);
  const again = await hubCommand(
    ['join', '--data-dir', dir],
    `${await await store.code()}\n${store.password}\n`,
  );
  expect(again.status).toBe(1);
  expect(again.err).toMatch(/already on a team/);
  expect((await hubCommand(['leave', '--data-dir', dir])).status).toBe(0);
  expect((await hubCommand(['status', '--data-dir', dir])).out).toContain('team: not joined');
  expect(openFileKeyVault({ dir }).has('teamDatabasePassword')).toBe(false);
});

test('refusals of the command line itself', { timeout: 60_000 }, async () => {
  const dir = hubDir();
  const noCode = await hubCommand(['join', '--data-dir', dir], '');
  expect(noCode.status).toBe(1);
  expect(noCode.err).toMatch(/join code on the first line of standard input/);
  const notJoined = await hubCommand(['run', '--data-dir', dir]);
  expect(notJoined.status).toBe(1);
  expect(notJoined.err).toMatch(/has not joined a team/);
  const unknown = await hubCommand(['frobnicate']);
  expect(unknown.status).toBe(2);
  expect(unknown.err).toMatch(/^Usage: npm run hub/);
  const badService = await hubCommand(
    ['service', '--data-dir', dir, '--base-url', 'http://far.example', '--client-id', 'x'],
    's3cret-value\n',
  );
  expect(badService.status).toBe(1);
  expect(badService.err).toMatch(/baseUrl: must use https/);
  expect(badService.err).not.toContain('s3cret-value');
  chmodSync(path.join(dir, 'vault.key'), 0o644);
  const openVault = await hubCommand(['status', '--data-dir', dir]);
  expect(openVault.status).toBe(1);
  expect(openVault.err).toMatch(/^hub: The vault key file .* can be accessed by other users/);
});
