import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { type HubCore, type RunningHub, runHub, STANDBY_LINE } from '#main/team/hub/run-hub.ts';
import { until } from '#test/support/poll.ts';
import { terminateListenerHolder } from '#test/support/postgres/listener-lock.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { manualSchedule } from '#test/support/team/manual-schedule.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const hubs: RunningHub[] = [];

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** A core whose listener role is a real HTTP server on a free loopback port. */
function fakeCore() {
  const state = { listening: undefined as http.Server | undefined, starts: 0, stops: 0, closed: false };
  const core: HubCore = {
    async startListener() {
      const server = http.createServer((_request, response) => response.end('hub'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      state.listening = server;
      state.starts += 1;
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    },
    async stopListener() {
      const server = state.listening;
      state.listening = undefined;
      state.stops += 1;
      if (server) await new Promise((resolve) => server.close(resolve));
    },
    async close() {
      state.closed = true;
    },
  };
  return { core, state };
}

async function startHub(url: string) {
  const lines: string[] = [];
  const schedule = manualSchedule();
  const { core, state } = fakeCore();
  const hub = await runHub(
    {
      connect: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        return client;
      },
      say: (line) => lines.push(line),
      log: quiet,
      schedule: schedule.schedule,
    },
    { startCore: async () => core },
  );
  hubs.push(hub);
  return { hub, lines, schedule, state };
}

async function takesOver(who: Awaited<ReturnType<typeof startHub>>) {
  await until(() => {
    who.schedule.fire();
    return who.state.listening !== undefined;
  }, 'the standby hub to start its listener');
}

test('a second hub stands by; when the first stops, the second starts its listener', async () => {
  const url = await freshDatabase();
  const first = await startHub(url);
  await until(() => first.state.listening, 'the first hub to listen');
  expect(first.lines).toEqual([
    expect.stringMatching(/^hub: leading — webhook listener on http:\/\/127\.0\.0\.1:\d+$/),
  ]);
  const listenerUrl = first.lines[0]!.split(' on ')[1]!;
  expect(await (await fetch(listenerUrl)).text()).toBe('hub');

  const second = await startHub(url);
  await until(() => second.lines.length === 1, 'the second hub to report its role');
  expect(second.lines).toEqual([STANDBY_LINE]);
  expect(second.state.starts).toBe(0);

  await first.hub.close();
  expect(first.state).toMatchObject({ listening: undefined, stops: 1, closed: true });
  // Stopping is not a role change to report.
  expect(first.lines).toHaveLength(1);
  await takesOver(second);
  expect(second.lines[1]).toMatch(/^hub: leading — webhook listener on http:\/\/127\.0\.0\.1:\d+$/);
});

test('a hub whose connection is killed stops its listener, and the standby starts its own', async () => {
  const url = await freshDatabase();
  const first = await startHub(url);
  await until(() => first.state.listening, 'the first hub to listen');
  const second = await startHub(url);
  await until(() => second.lines.length === 1, 'the second hub to stand by');

  expect(await terminateListenerHolder(url)).toBe(1);

  // The standby line is said only once the listener has stopped (onLose is awaited first), so waiting
  // for the line and then checking the listener also checks that order. Waiting for `stops` instead
  // raced: stopListener counts the stop before its server has finished closing.
  await until(() => first.lines.at(-1) === STANDBY_LINE, 'the cut-off hub to say it stands by');
  expect(first.state).toMatchObject({ listening: undefined, stops: 1 });
  await takesOver(second);
  expect(second.hub.role()).toBe('leader');
});
