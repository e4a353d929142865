// `npm run team` end to end, as an administrator runs it: a separate Node process on a fresh database.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { NO_TLS_WARNING } from '#admin/cli.ts';
import { decodeJoinCode } from '#main/team/join-code.ts';
import { checkTeamStore } from '#main/team/store/pool.ts';
import { freshDatabase } from '../support/postgres/team-db.ts';
import { parseAddReviewer, reviewerPool, tempPath, uniqueName } from '../support/team/admin-support.ts';

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

// Each step is a Node process of its own (type stripping and the admin tool's modules): several seconds each on
// a loaded machine, so the test's bound is the processes', not vitest's 20 s.
test('init, add-reviewer and status from the command line; the admin password is never printed', async () => {
  const url = await freshDatabase();
  const adminPassword = decodeURIComponent(new URL(url).password);
  const keyFile = tempPath('cli.key');
  const init = await team('init', '--database', url, '--key-file', keyFile);
  expect(init, init.err).toMatchObject({ code: 0, err: '' });
  expect(init.out).toMatch(/The team store is ready/);

  const name = uniqueName('erin');
  const args = ['add-reviewer', name, '--database', url, '--key-file', keyFile, '--host', '127.0.0.1'];
  // The URL does not ask for TLS: that is not taken as a choice to send the desks without it.
  const noTls = await team(...args);
  expect(noTls).toMatchObject({ code: 1, out: '' });
  expect(noTls.err).toMatch(
    /does not ask for sslmode=verify-full, so the join code would tell the desks to connect without TLS\. Give --sslmode verify-full .* or --sslmode disable/,
  );
  expect((await team('status', '--database', url)).out).not.toContain(name);
  // Said explicitly, for a loopback store: done, with a warning that cannot be missed.
  const added = await team(...args, '--sslmode', 'disable');
  expect(added, added.err).toMatchObject({ code: 0, err: NO_TLS_WARNING });
  expect(added.out).toContain('sslmode disable');
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
  for (const run of [init, noTls, added, status, refused]) {
    expect(run.out + run.err).not.toContain(adminPassword);
    expect(run.out + run.err).not.toContain('not-the-admin-password-0123');
  }
}, 90_000);

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
}, 90_000);
