// `npm run team` end to end, as an administrator runs it: a separate Node process on a fresh database.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { decodeJoinCode } from '../../main/team/join-code.ts';
import { checkTeamStore } from '../../main/team/store/pool.ts';
import { freshDatabase } from '../support/team-db.ts';
import { parseAddReviewer, reviewerPool, tempPath, uniqueName } from './admin-support.ts';

const script = path.resolve(import.meta.dirname, '../../scripts/team.ts');

async function team(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return await promisify(execFile)(process.execPath, [script, ...args], { timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout, err: stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      out: error.stdout ?? '',
      err: error.stderr ?? '',
    }),
  );
}

test('init, add-reviewer and status from the command line; the admin password is never printed', async () => {
  const url = await freshDatabase();
  const adminPassword = decodeURIComponent(new URL(url).password);
  const keyFile = tempPath('cli.key');
  const init = await team('init', '--database', url, '--key-file', keyFile);
  expect(init, init.err).toMatchObject({ code: 0, err: '' });
  expect(init.out).toMatch(/The team store is ready/);

  const name = uniqueName('erin');
  const added = await team(
    'add-reviewer',
    name,
    '--database',
    url,
    '--key-file',
    keyFile,
    '--host',
    '127.0.0.1',
  );
  expect(added, added.err).toMatchObject({ code: 0 });
  const printed = parseAddReviewer(added.out);
  const joinCode = decodeJoinCode(printed.joinCode);
  expect(joinCode.connection.user).toBe(name);
  await checkTeamStore(reviewerPool({ joinCode, password: printed.password }), joinCode.teamKey);

  const status = await team('status', '--database', url);
  expect(status.code).toBe(0);
  expect(status.out).toContain(`  ${name}\n`);

  const wrong = new URL(url);
  wrong.password = 'not-the-admin-password-0123';
  const refused = await team('status', '--database', wrong.toString());
  expect(refused.code).toBe(1);
  expect(refused.err).toMatch(/refused the password for "postgres"/);
  for (const run of [init, added, status, refused]) {
    expect(run.out + run.err).not.toContain(adminPassword);
    expect(run.out + run.err).not.toContain('not-the-admin-password-0123');
  }
});

test('the administrator password from a .pgpass file (PGPASSFILE), none in the URL', async () => {
  const url = new URL(await freshDatabase());
  const password = decodeURIComponent(url.password);
  const pgpass = tempPath('pgpass');
  fs.writeFileSync(
    pgpass,
    `# comment\nother.host:*:*:*:wrong\n127.0.0.1:${url.port}:*:postgres:${password.replace(/[\\:]/g, '\\$&')}\n`,
    { mode: 0o600 },
  );
  url.password = '';
  const run = await promisify(execFile)(
    process.execPath,
    [script, 'init', '--database', url.toString(), '--key-file', tempPath('k')],
    {
      env: { ...process.env, PGPASSFILE: pgpass, PGPASSWORD: '' },
    },
  );
  expect(run.stdout).toMatch(/The team store is ready/);
  expect(run.stderr).toBe('');
});
