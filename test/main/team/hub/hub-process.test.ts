import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import {
  HUB_WITH_FAKE_CORE,
  type HubChild,
  hubCommand,
  startHubProcess,
} from '#test/support/team/hub-process.ts';
import { makeTeamStore, type TestTeamStore } from '#test/support/team/team-store.ts';

const dirs: string[] = [];
const children: HubChild[] = [];
afterEach(async () => {
  for (const { child } of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function joinedDir(store: TestTeamStore): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub-'));
  dirs.push(dir);
  const joined = await hubCommand(
    ['join', '--data-dir', dir],
    `${await await store.code()}\n${store.password}\n`,
  );
  expect(joined.status).toBe(0);
  return dir;
}

function run(dir: string): HubChild {
  const started = startHubProcess(
    ['run', '--data-dir', dir, '--port', '0', '--retry-seconds', '0.2'],
    '',
    HUB_WITH_FAKE_CORE,
  );
  children.push(started);
  return started;
}

const LEADING = /hub: leading — webhook listener on (http:\/\/127\.0\.0\.1:\d+)\n/;

async function answers(url: string): Promise<string> {
  return (await fetch(url)).text();
}

test('two hub processes: one leads, the other stands by; SIGTERM hands over, kill -9 too', {
  timeout: 90_000,
}, async () => {
  const store = await makeTeamStore(await freshDatabase());
  const [dirA, dirB] = await Promise.all([joinedDir(store), joinedDir(store)]);

  const a = run(dirA);
  const firstUrl = (await until(() => LEADING.exec(a.output.out), 'the first hub to lead', 30_000))[1]!;
  expect(await answers(firstUrl)).toBe('hub');
  const b = run(dirB);
  await until(
    () => b.output.out.includes('hub: standby — another hub holds the listener'),
    'B to stand by',
    30_000,
  );

  a.child.kill('SIGTERM');
  expect(await a.exited).toBe(0);
  expect(a.output.out).toMatch(/hub: stopped \(listener role released\)\n$/);
  const secondUrl = (await until(() => LEADING.exec(b.output.out), 'B to take over', 30_000))[1]!;
  expect(await answers(secondUrl)).toBe('hub');

  // A hub that dies without a word (kill -9): its session ends with its socket, and the lock with it.
  const c = run(await joinedDir(store));
  await until(() => c.output.out.includes('hub: standby'), 'C to stand by', 30_000);
  b.child.kill('SIGKILL');
  await b.exited;
  await until(() => LEADING.exec(c.output.out), 'C to take over from the killed hub', 30_000);
  expect(`${a.output.err}${b.output.err}${c.output.err}`).not.toContain(store.password);
});

test('Ctrl-C while join waits for its input ends it, keeping nothing', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub-'));
  dirs.push(dir);
  const join = startHubProcess(['join', '--data-dir', dir], null);
  children.push(join);
  // The vault's key file is made before standard input is read: then the command is waiting.
  await until(() => existsSync(path.join(dir, 'vault.key')), 'join to wait for its input', 30_000);
  join.child.kill('SIGINT');
  expect(await join.exited).toBe(-1);
  expect((await hubCommand(['status', '--data-dir', dir])).out).toContain('team: not joined');
});
