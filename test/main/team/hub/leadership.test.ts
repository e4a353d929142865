import pg from 'pg';
import { afterEach, expect, onTestFinished, test } from 'vitest';
import {
  type Leadership,
  type LeadershipOptions,
  leadershipQuietMs,
  startLeadership,
} from '#main/team/hub/leadership.ts';
import { openTeamClient } from '#main/team/team-connection.ts';
import { startFaultProxy, throughProxy } from '#test/support/network/fault-proxy.ts';
import { until } from '#test/support/poll.ts';
import { terminateListenerHolder } from '#test/support/postgres/listener-lock.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { manualSchedule } from '#test/support/team/manual-schedule.ts';
import { connectionOf } from '#test/support/team/team-store.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const running: Leadership[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((leadership) => leadership.stop()));
});

/** A leadership on `url` that counts its role changes; retries only when the test fires them. */
function contender(url: string, overrides: Partial<LeadershipOptions> = {}) {
  const schedule = manualSchedule();
  const seen = { lead: 0, lose: 0, standby: 0 };
  const leadership = startLeadership({
    connect: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    },
    onLead: () => {
      seen.lead += 1;
    },
    onLose: () => {
      seen.lose += 1;
    },
    onStandby: () => {
      seen.standby += 1;
    },
    retryMs: 1_000,
    schedule: schedule.schedule,
    log: quiet,
    ...overrides,
  });
  running.push(leadership);
  return { leadership, schedule, seen };
}

/** Fires `who`'s pending retries until it leads. */
async function untilLeads(who: ReturnType<typeof contender>, what: string) {
  await until(() => {
    who.schedule.fire();
    return who.leadership.role() === 'leader';
  }, what);
}

async function settled(...who: ReturnType<typeof contender>[]) {
  await until(
    () => who.every((one) => one.seen.lead + one.seen.standby > 0),
    'every contender to learn its first role',
  );
}

/** A leads (it came first), B stands by. */
async function leaderThenStandby() {
  const url = await freshDatabase();
  const a = contender(url);
  await until(() => a.leadership.role() === 'leader', 'the first hub to lead');
  const b = contender(url);
  await settled(b);
  expect(b.leadership.role()).toBe('standby');
  return { url, a, b };
}

test('of two hubs on one database exactly one leads, the other stands by and retries', async () => {
  const url = await freshDatabase();
  const a = contender(url);
  const b = contender(url);
  await settled(a, b);
  const roles = [a.leadership.role(), b.leadership.role()].sort();
  expect(roles).toEqual(['leader', 'standby']);
  const standby = a.leadership.role() === 'standby' ? a : b;
  expect(standby.schedule.pending()).toBe(1);
  // Retrying while the leader lives changes nothing.
  standby.schedule.fire();
  await until(() => standby.schedule.pending() === 1, 'the standby to schedule its next attempt');
  expect(standby.leadership.role()).toBe('standby');
  expect(standby.seen.standby).toBe(1);
});

test('when the leader stops, it releases the lock and the standby leads at its next attempt', async () => {
  const { a, b } = await leaderThenStandby();

  await a.leadership.stop();
  expect(a.leadership.role()).toBe('stopped');
  expect(a.seen.lose).toBe(1);
  // A stopped hub keeps no timer (its heartbeat) that would hold its process open.
  expect(a.schedule.pending()).toBe(0);
  await untilLeads(b, 'the standby to take over');
  expect(b.seen.lead).toBe(1);
});

test('a leader whose backend is terminated gives the role up at once, and the standby takes over', async () => {
  const { url, a, b } = await leaderThenStandby();

  expect(await terminateListenerHolder(url)).toBe(1);

  await until(() => a.seen.lose === 1, 'the killed leader to give the role up');
  expect(a.leadership.role()).toBe('standby');
  await untilLeads(b, 'the standby to take over from the killed leader');
  // The old leader comes back as a standby on a fresh connection.
  a.schedule.fire();
  await until(() => a.schedule.pending() === 1, 'the old leader to try again');
  expect(a.leadership.role()).toBe('standby');
  expect(a.seen.lead).toBe(1);
});

test('a leader whose role fails to start gives the lock back for another hub', async () => {
  const url = await freshDatabase();
  let failures = 0;
  const a = contender(url, {
    onLead: () => {
      failures += 1;
      throw new Error('listener port taken');
    },
  });
  await until(() => failures === 1 && a.leadership.role() === 'standby', 'the failed start');
  const b = contender(url);
  await untilLeads(b, 'the other hub to lead');
  expect(a.leadership.role()).toBe('standby');
});

test('a store that cannot be reached leaves the hub standing by and trying again', async () => {
  let calls = 0;
  const a = contender('unused', {
    connect: async () => {
      calls += 1;
      throw new Error('connect ECONNREFUSED');
    },
  });
  await until(() => a.schedule.pending() === 1, 'a retry after the failed connection');
  expect(a.leadership.role()).toBe('standby');
  a.schedule.fire();
  await until(() => calls === 2, 'the second attempt');
});

test('a leader whose network goes silent gives the role up at its next heartbeat, and the server frees the lock for the standby', async () => {
  const url = await freshDatabase();
  const direct = new URL(url);
  const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port) });
  onTestFinished(() => proxy.close());
  const { connection, password } = connectionOf(throughProxy(url, proxy));
  const answerMs = 1_000;
  const retryMs = 1_000;
  // As the hub connects (hub-config.ts connectTeam), with short bounds: a statement answers within answerMs,
  // and the server ends the session once it has been quiet for longer than a live hub ever is.
  const a = contender(url, {
    connect: () =>
      openTeamClient(
        connection,
        password,
        answerMs,
        'vetted-hub-leadership',
        leadershipQuietMs(retryMs, answerMs),
      ),
    retryMs,
  });
  await until(() => a.leadership.role() === 'leader', 'A to lead');
  const b = contender(url);
  await settled(b);
  // While it answers, heartbeats change nothing.
  a.schedule.fire();
  await until(() => a.schedule.pending() === 1, 'the next heartbeat');
  expect(a.leadership.role()).toBe('leader');

  // No FIN, no RST: without its own deadline the leader would wait on TCP for many minutes, and the server
  // would keep its session, and the lock, as long.
  proxy.blackHole();
  a.schedule.fire();
  await until(() => a.seen.lose === 1, 'A to give the role up');
  expect(a.leadership.role()).toBe('standby');
  await untilLeads(b, 'B to lead once the server has ended the silent session');
});
