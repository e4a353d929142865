import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, expect, test } from 'vitest';
import { type HubRunContext, hubCli } from '#main/team/hub/cli.ts';
import type { HubCore } from '#main/team/hub/run-hub.ts';
import { freePort } from '#test/support/free-port.ts';
import { until } from '#test/support/poll.ts';
import { terminateListenerHolder } from '#test/support/postgres/listener-lock.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore, type TestTeamStore } from '#test/support/team/team-store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One hub command in this process; `stop()` plays SIGTERM. */
function command(args: string[], input = '') {
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const output = { out: '', err: '' };
  const contexts: HubRunContext[] = [];
  const listening = { now: false };
  const core: HubCore = {
    startListener: async () => {
      listening.now = true;
      return { url: `http://127.0.0.1:${contexts[0]?.port ?? 'unset'}` };
    },
    stopListener: async () => {
      listening.now = false;
    },
    close: async () => {},
  };
  const done = hubCli(
    args,
    {
      stdin: Readable.from([input]),
      out: (text) => {
        output.out += text;
      },
      err: (text) => {
        output.err += text;
      },
      untilStopped: () => stopped,
    },
    (context) => {
      contexts.push(context);
      return { startCore: async () => core };
    },
  );
  return { done, stop, output, contexts, listening };
}

async function joinedHub(store: TestTeamStore): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub-'));
  dirs.push(dir);
  const join = command(['join', '--data-dir', dir], `${await await store.code()}\n${store.password}\n`);
  expect(await join.done).toBe(0);
  return dir;
}

test('run leads with the joined team, a second run stands by, SIGTERM releases the role', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const first = command(['run', '--data-dir', await joinedHub(store), '--port', '0']);
  await until(() => first.listening.now, 'the first hub to lead');
  expect(first.output.out).toBe('hub: leading — webhook listener on http://127.0.0.1:0\n');
  expect(first.contexts[0]?.team).toMatchObject({ teamId: store.teamId, connection: store.connection });

  const secondDir = await joinedHub(store);
  // Its next attempt never comes during the test: the status below must find the role free, not taken.
  const second = command(['run', '--data-dir', secondDir, '--retry-seconds', '3600']);
  await until(() => second.output.out, 'the second hub to report its role');
  expect(second.output.out).toBe('hub: standby — another hub holds the listener\n');

  first.stop();
  expect(await first.done).toBe(0);
  expect(first.listening.now).toBe(false);
  expect(first.output.out).toMatch(/hub: stopped \(listener role released\)\n$/);
  // The lock is free: a status taken now finds no hub listening.
  const status = command(['status', '--data-dir', secondDir]);
  expect(await status.done).toBe(0);
  expect(status.output.out).toContain('listener role: free');
  second.stop();
  expect(await second.done).toBe(0);
});

test('run --database points the hub elsewhere, never with a password on the command line', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const dir = await joinedHub(store);
  const withPassword = command(['run', '--data-dir', dir, '--database', 'postgres://hub:pw@127.0.0.1:1/x']);
  expect(await withPassword.done).toBe(1);
  expect(withPassword.output.err).toMatch(/must not hold a password/);

  // Another database of the same cluster, as a replica's address would be: same login, same password.
  const otherUrl = await freshDatabase();
  const other = new URL(otherUrl).pathname.slice(1);
  const { user, host, port } = store.connection;
  const elsewhere = command([
    'run',
    '--data-dir',
    dir,
    '--database',
    `postgres://${user}@${host}:${port}/${other}`,
  ]);
  await until(() => elsewhere.listening.now, 'the hub to lead on the named database');
  expect(elsewhere.contexts[0]?.team.connection).toEqual({ ...store.connection, database: other });
  // The role's lock is held in that database, not in the joined one.
  expect(await terminateListenerHolder(otherUrl)).toBe(1);
  await until(() => !elsewhere.listening.now, 'the cut-off hub to stop its listener');
  elsewhere.stop();
  expect(await elsewhere.done).toBe(0);
});

test('run --database may list the store’s nodes (libpq’s a:p1,b:p2): the hub leads on the one it can write to', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const dir = await joinedHub(store);
  const { user, host, port, database } = store.connection;
  const wrong = command([
    'run',
    '--data-dir',
    dir,
    '--database',
    `postgres://${user}@a,b/x?target_session_attrs=any`,
  ]);
  expect(await wrong.done).toBe(1);
  expect(wrong.output.err).toMatch(/target_session_attrs may only be read-write/);

  // Nothing listens on the first node (a primary gone): the second is used.
  const gone = await freePort();
  const url = `postgres://${user}@127.0.0.1:${gone},${host}:${port}/${database}?target_session_attrs=read-write`;
  const both = command(['run', '--data-dir', dir, '--database', url]);
  await until(() => both.listening.now, 'the hub to lead on the second node');
  expect(both.contexts[0]?.team.connection).toEqual({
    ...store.connection,
    host: '127.0.0.1',
    port: gone,
    standbys: [{ host, port }],
  });
  both.stop();
  expect(await both.done).toBe(0);
});
