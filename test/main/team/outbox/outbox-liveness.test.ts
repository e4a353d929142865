// A drainer's lease holds while the drainer lives and not once it is gone: its liveness is a session advisory
// lock, which PostgreSQL drops with the session (main/team/outbox/liveness.ts). Leases here run ten minutes,
// far beyond every wait: only the liveness can free a row in time.
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { openTeamJournal } from '#main/team/journal/index.ts';
import { writeCreatedInto } from '#main/team/outbox/created.ts';
import { listTeamOutbox, startTeamDrain, submitToTeam } from '#main/team/outbox/index.ts';
import { takeDue } from '#main/team/outbox/lease.ts';
import { holdLiveness } from '#main/team/outbox/liveness.ts';
import { REPAIR_GRACE_SECONDS } from '#main/team/outbox/repair.ts';
import { teamClientConfig } from '#main/team/store/pool.ts';
import { encodeTeamKey } from '#main/team/team-key.ts';
import { type ChildRun, runChild } from '#test/support/child.ts';
import { customersWithEmail } from '#test/support/desk/drafts.ts';
import { sharedSandbox } from '#test/support/desk/shared-sandbox.ts';
import { until } from '#test/support/poll.ts';
import { addTestReviewer, initTeamStore, reviewerPool } from '#test/support/team/admin-support.ts';
import { outboxRows, type TeamOutboxRig, teamOutboxRig } from './outbox-rig.ts';

const CHILD = path.join(import.meta.dirname, 'fixtures', 'drainer.ts');
const LEASE_MS = 10 * 60_000;

const shared = sharedSandbox();
const open: { close(): Promise<void> }[] = [];
const children: ChildRun[] = [];
afterEach(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  await Promise.all(children.splice(0).map((run) => run.exited));
  for (const item of open.splice(0).reverse()) await item.close();
});

test('between two reviewers’ logins: a live drainer’s rows stay its own, a gone one’s are taken at once', async () => {
  const store = await initTeamStore();
  const [alice, bob] = [
    await addTestReviewer(store, 'alice', '--sslmode', 'disable'),
    await addTestReviewer(store, 'bob', '--sslmode', 'disable'),
  ];
  const [alicePool, bobPool] = [reviewerPool(alice), reviewerPool(bob)];
  // Holder names whose hashes have either sign: pg_locks shows the key unsigned.
  const { rows: names } = await alicePool.query<{ name: string; negative: boolean }>(
    `SELECT DISTINCT ON (hashtext(name) < 0) name, hashtext(name) < 0 AS negative
       FROM (SELECT 'alice-desk-' || n AS name FROM generate_series(1, 50) AS n) names ORDER BY hashtext(name) < 0, name`,
  );
  expect(names.map((row) => row.negative)).toEqual([false, true]);
  await alicePool.query(
    `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form)
     SELECT gen_random_uuid(), 'd-' || n, 'sealed' FROM generate_series(1, 2) AS n`,
  );
  /** A drainer's listening session, holding its liveness lock. */
  const liveSession = async (reviewer: typeof alice, holder: string) => {
    const session = new pg.Client(teamClientConfig(reviewer.joinCode.connection, reviewer.password));
    await session.connect();
    open.push({ close: () => session.end() });
    expect((await holdLiveness(session, holder)).held).toBe(true);
    return session;
  };
  await liveSession(bob, 'bob-desk');
  const sessions: pg.Client[] = [];
  for (const { name } of names) {
    // Each of alice's drainers takes one row.
    sessions.push(await liveSession(alice, name));
    expect(await takeDue(alicePool, name, LEASE_MS, 1)).toHaveLength(1);
  }
  // Bob's login sees alice's sessions' locks: nothing is due.
  expect(await takeDue(bobPool, 'bob-desk', LEASE_MS, 2)).toEqual([]);

  for (const [i, session] of sessions.entries()) {
    await session.end();
    const taken = await until(async () => {
      const rows = await takeDue(bobPool, 'bob-desk', LEASE_MS, 2);
      return rows.length > 0 && rows;
    }, `the row of ${names[i]!.name} once it is gone`);
    expect(taken).toHaveLength(1);
  }
  const rows = await outboxRows(bobPool);
  expect(rows.map((row) => [row.lease_holder, row.attempts])).toEqual([
    ['bob-desk', 2],
    ['bob-desk', 2],
  ]);
});

/** A team outbox with one submitted draft, and a drainer of it in a child process that stops at `stopAt`. */
async function doomedDrainer(stopAt: 'created' | 'recorded') {
  const r = await teamOutboxRig();
  open.push(r);
  const ids = await r.drafts(1);
  await submitToTeam({ local: r.local, pool: r.pool, cipher: r.cipher, ids, today: new Date() });
  const { sandbox } = shared;
  const doomed = runChild(CHILD, [], {
    VETTED_TEST_DRAINER: JSON.stringify({
      databaseUrl: r.url,
      teamKey: encodeTeamKey(r.teamKey),
      holder: 'doomed',
      leaseMs: LEASE_MS,
      concurrency: 1,
      stopAt,
      service: { baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
    }),
  });
  children.push(doomed);
  const line = await until(
    () => doomed.lines.find((l) => l.startsWith(`${stopAt} `)),
    `the drainer stopped with the customer ${stopAt}`,
    30_000,
  );
  return { r, doomed, customerId: line.slice(stopAt.length + 1) };
}

/** A drainer in this process writing customers into the team journal, as a desk's runtime does. */
async function survivor(r: TeamOutboxRig) {
  const journal = await openTeamJournal({
    pool: r.pool,
    teamKey: r.teamKey,
    local: r.local,
    storeChecked: true,
  });
  // A clock that never moves: the repair's ten-minute look never comes due on its own.
  const now = new Date();
  const drainer = startTeamDrain({
    pool: r.pool,
    cipher: r.cipher,
    sealer: r.audit.sealer,
    client: () => shared.client,
    holder: 'survivor',
    leaseMs: LEASE_MS,
    pollMs: 50,
    log: r.log,
    now: () => now,
    onCreated: writeCreatedInto(journal),
  });
  open.push(drainer);
  return drainer;
}

const inStore = async (r: TeamOutboxRig, id: string) =>
  (await r.pool.query('SELECT 1 FROM vetted.customers WHERE id = $1', [id])).rowCount === 1;

const kill = async (run: ChildRun) => {
  run.child.kill('SIGKILL');
  expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });
};

/** The row's lease as the drainer that took it left it. */
const leaseOf = async (r: TeamOutboxRig): Promise<Date> =>
  (await r.pool.query<{ lease_until: Date }>('SELECT lease_until FROM vetted.team_outbox')).rows[0]!
    .lease_until;

test('killed right after the service created a customer, before recording it: the next drainer writes it at once, with the same key', async () => {
  const { r, doomed, customerId } = await doomedDrainer('created');
  const [left] = await outboxRows(r.pool);
  expect([left!.state, left!.lease_holder]).toEqual(['queued', 'doomed']);
  const leaseUntil = await leaseOf(r);
  await kill(doomed);

  await survivor(r);
  await until(() => inStore(r, customerId), 'the customer written by the next drainer', 30_000);
  const { rows } = await r.pool.query(
    `SELECT state, customer_id, attempts, lease_holder, finished_at < $1 AS within_the_lease
       FROM vetted.team_outbox`,
    [leaseUntil],
  );
  expect(rows).toEqual([
    { state: 'created', customer_id: customerId, attempts: 2, lease_holder: null, within_the_lease: true },
  ]);
  // Sent again with the same key: the service answered with the customer it had created.
  const [item] = await listTeamOutbox(r.pool, r.cipher);
  expect((await customersWithEmail(shared.client, item!.email)).map((c) => c.id)).toEqual([customerId]);
}, 60_000);

test('killed after recording a customer created, before writing it: a running drainer writes it as soon as it is gone', async () => {
  const { r, doomed, customerId } = await doomedDrainer('recorded');
  const running = await survivor(r);
  // Its first look is over: the row was the doomed drainer's to write, and it was alive.
  await running.settled();
  expect(await inStore(r, customerId)).toBe(false);
  await kill(doomed);

  await until(() => inStore(r, customerId), 'the customer written once its recorder is gone', 30_000);
  // Not the repair's grace for a live recorder, nor its ten-minute look (the survivor's clock stands still).
  const { rows } = await r.pool.query(
    `SELECT now() - finished_at < make_interval(secs => $1) AS within_the_grace FROM vetted.team_outbox`,
    [REPAIR_GRACE_SECONDS],
  );
  expect(rows).toEqual([{ within_the_grace: true }]);
  // Said once the repair's pass is over, a moment after the customer is in the store: waited for, not raced.
  await until(
    () => r.lines.join('\n').includes('recorded customers whose drainer stopped first'),
    'the repair to say what it wrote',
  );
}, 60_000);
