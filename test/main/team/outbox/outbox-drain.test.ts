import { afterEach, expect, test } from 'vitest';
import { type CustomerInput, NetworkError, type ServiceClient } from '#main/data/service/index.ts';
import { customerBody } from '#main/features/drafts/form.ts';
import { listenForChanges } from '#main/team/journal/change-listener.ts';
import {
  startTeamDrain,
  submitToTeam,
  type TeamDrain,
  type TeamDrainOptions,
} from '#main/team/outbox/index.ts';
import { recordOutcome, takeDue } from '#main/team/outbox/lease.ts';
import { OUTBOX_CHANNEL, openForm } from '#main/team/outbox/rows.ts';
import { customersWithEmail, validForm } from '#test/support/desk/drafts.ts';
import { sharedSandbox } from '#test/support/desk/shared-sandbox.ts';
import { until } from '#test/support/poll.ts';
import { aliveAs, outboxRows, type TeamOutboxRig, teamOutboxRig } from './outbox-rig.ts';

const shared = sharedSandbox();
/** Today's real service: it takes the SSN only as `ssn`. */
const realService = sharedSandbox({ profile: 'real' });

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  // Drainers first (they use the rig's pool), then the rigs.
  for (const item of open.splice(0).reverse()) await item.close();
});

async function rigWith(
  count: number,
  forms = () => validForm(),
): Promise<{ r: TeamOutboxRig; ids: string[] }> {
  const r = await teamOutboxRig();
  open.push(r);
  const ids = await r.drafts(Array.from({ length: count }, forms));
  const result = await submitToTeam({
    local: r.local,
    pool: r.pool,
    cipher: r.cipher,
    ids,
    today: new Date(),
  });
  if (result.moved.length !== count) throw new Error(`not all moved: ${JSON.stringify(result)}`);
  return { r, ids };
}

function drain(r: TeamOutboxRig, holder: string, more: Partial<TeamDrainOptions> = {}): TeamDrain {
  const drainer = startTeamDrain({
    pool: r.pool,
    cipher: r.cipher,
    sealer: r.audit.sealer,
    client: () => shared.client,
    holder,
    log: r.log,
    pollMs: 20,
    backoff: { baseMs: 1, maxMs: 5 },
    ...more,
  });
  open.push(drainer);
  return drainer;
}

/** The shared service, each create's Idempotency-Key kept in `keys` and its answer passed through `then`. */
function creating(keys: string[], then: <T>(created: T) => T): ServiceClient {
  return {
    ...shared.client,
    customers: {
      ...shared.client.customers,
      async create(input, opts) {
        keys.push(opts?.idempotencyKey ?? '');
        return then(await shared.client.customers.create(input, opts));
      },
    },
  };
}

test('SKIP LOCKED: two drainers taking at once never take the same row', async () => {
  const { r } = await rigWith(15);
  for (const holder of ['a', 'b']) open.push({ close: (await aliveAs(r.url, holder)).die });
  const [a, b] = await Promise.all([takeDue(r.pool, 'a', 60_000, 10), takeDue(r.pool, 'b', 60_000, 10)]);
  const keys = [...a, ...b].map((row) => row.idempotency_key);
  expect(new Set(keys).size).toBe(15);
  expect(a.length + b.length).toBe(15);
  for (const row of a) expect(row.lease_holder).toBe('a');
  // Every row is leased: nothing more is due for anyone.
  expect(await takeDue(r.pool, 'c', 60_000, 10)).toEqual([]);
});

test('two drainers in one process: each row is sent once, and every customer is created once', async () => {
  const { r, ids } = await rigWith(40);
  const created: string[] = [];
  const onCreated = (customer: { id: string }) => {
    created.push(customer.id);
  };
  const first = drain(r, 'desk-a', { concurrency: 4, onCreated });
  const second = drain(r, 'desk-b', { concurrency: 4, onCreated });
  await until(async () => (await outboxRows(r.pool)).every((row) => row.state === 'created'), 'all created');
  await Promise.all([first.settled(), second.settled()]);
  const rows = await outboxRows(r.pool);
  expect(rows).toHaveLength(ids.length);
  // Taking a row counts an attempt: one each means no row was ever taken twice.
  for (const row of rows) expect([row.attempts, row.lease_holder]).toEqual([1, null]);
  expect(new Set(rows.map((row) => row.customer_id)).size).toBe(ids.length);
  expect(created.toSorted()).toEqual(rows.map((row) => row.customer_id).toSorted());
  const listed = await first.list();
  for (const item of listed) expect(await customersWithEmail(shared.client, item.email)).toHaveLength(1);
});

test('a lease that ran out is taken over and the row re-sent with the same key: the first answer comes back', async () => {
  const { r } = await rigWith(4);
  // Both desks are alive as the store sees them: only a lease that ran out frees a row.
  for (const holder of ['stalled-desk', 'busy-desk'])
    open.push({ close: (await aliveAs(r.url, holder)).die });
  // A desk takes three rows, sends the first (the service creates the customer) and stalls before recording it.
  const taken = await takeDue(r.pool, 'stalled-desk', 60_000, 3);
  const sentBeforeStalling = taken[0]!;
  const body = customerBody(openForm(r.cipher, sentBeforeStalling)) as CustomerInput;
  const firstAnswer = await shared.client.customers.create(body, {
    idempotencyKey: sentBeforeStalling.idempotency_key,
  });
  // Another desk, alive, holds the fourth.
  const [held] = await takeDue(r.pool, 'busy-desk', 60_000, 1);
  await r.pool.query(
    `UPDATE vetted.team_outbox SET lease_until = now() - interval '1 second' WHERE lease_holder = 'stalled-desk'`,
  );

  const survivor = drain(r, 'survivor');
  const mine = async () => (await outboxRows(r.pool)).filter((row) => row.draft_id !== held!.draft_id);
  await until(
    async () => (await mine()).every((row) => row.state === 'created'),
    'the stalled desk’s rows created',
  );
  await survivor.settled();
  for (const row of await mine())
    expect([row.state, row.attempts, row.lease_holder]).toEqual(['created', 2, null]);
  const replayed = (await outboxRows(r.pool)).find((row) => row.draft_id === sentBeforeStalling.draft_id)!;
  expect(replayed.customer_id).toBe(firstAnswer.id);
  expect(await customersWithEmail(shared.client, body.email)).toHaveLength(1);
  // A lease still running is left to its holder.
  const busy = (await outboxRows(r.pool)).find((row) => row.draft_id === held!.draft_id)!;
  expect([busy.state, busy.lease_holder]).toEqual(['queued', 'busy-desk']);
  // The stalled desk's late answer is not recorded: it no longer holds the lease.
  expect(
    await recordOutcome(
      r.pool,
      sentBeforeStalling.idempotency_key,
      'stalled-desk',
      { kind: 'released' },
      r.audit,
    ),
  ).toBe(undefined);
});

test('rows sealed with `tin` reach today’s real service (the real profile) as `ssn`, and are created', async () => {
  const { r, ids } = await rigWith(3);
  // The team outbox holds the form as the desk stored it: the interface document's `tin`.
  const { rows } = await r.pool.query('SELECT draft_id, form FROM vetted.team_outbox');
  const forms = rows.map((row) => openForm(r.cipher, row));
  for (const form of forms) {
    expect(form.tin).toMatch(/^\d{4}$/);
    expect(form).not.toHaveProperty('ssn');
  }
  const drainer = drain(r, 'desk', { client: () => realService.client });
  await until(async () => (await outboxRows(r.pool)).every((row) => row.state === 'created'), 'all created');
  await drainer.settled();
  // The real profile refuses a body without `ssn` at /ssn: created means each came as `ssn`.
  for (const form of forms) expect(await customersWithEmail(realService.client, form.email!)).toHaveLength(1);
  expect((await outboxRows(r.pool)).map((row) => row.attempts)).toEqual(ids.map(() => 1));
});

test('an e-mail in use: the row is rejected with its field error and the customer it duplicates', async () => {
  const taken = validForm();
  await shared.client.customers.create(customerBody(taken) as CustomerInput);
  const { r } = await rigWith(1, () => validForm({ email: taken.email }));
  const drainer = drain(r, 'desk');
  await until(async () => (await drainer.list())[0]?.state === 'rejected', 'the rejection');
  const [rejected] = await drainer.list();
  expect(Object.keys(rejected!.fieldErrors)).toEqual(['/email']);
  expect(rejected!.lastError).toBeTruthy();
  const { rows } = await r.pool.query(
    'SELECT duplicate_of, lease_holder, finished_at FROM vetted.team_outbox',
  );
  expect(rows[0]).toMatchObject({
    duplicate_of: expect.any(String),
    lease_holder: null,
    finished_at: expect.any(Date),
  });
});

test('an answer lost on the way: the row is sent again later with the same key, and one customer exists', async () => {
  const { r } = await rigWith(1);
  const keys: string[] = [];
  let lost = false;
  const losing = creating(keys, (created) => {
    if (lost) return created;
    lost = true;
    throw new NetworkError('reset');
  });
  const drainer = drain(r, 'desk', { client: () => losing });
  await until(async () => (await drainer.list())[0]?.state === 'created', 'the customer');
  const [row] = await outboxRows(r.pool);
  expect(row!.attempts).toBe(2);
  expect(keys).toEqual([row!.idempotency_key, row!.idempotency_key]);
  const [item] = await drainer.list();
  expect(await customersWithEmail(shared.client, item!.email)).toEqual([
    expect.objectContaining({ id: row!.customer_id }),
  ]);
});

test('close waits for the sends in flight and records them; a drainer started later finds nothing due', async () => {
  const { r } = await rigWith(1);
  let arrived!: () => void;
  const sending = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let answer!: () => void;
  const gate = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const slow: ServiceClient = {
    ...shared.client,
    customers: {
      ...shared.client.customers,
      async create(input, opts) {
        arrived();
        await gate;
        return shared.client.customers.create(input, opts);
      },
    },
  };
  const drainer = drain(r, 'closing-desk', { client: () => slow });
  await sending;
  const closed = drainer.close();
  answer();
  await closed;
  const [row] = await outboxRows(r.pool);
  expect([row!.state, row!.attempts, row!.lease_holder]).toEqual(['created', 1, null]);
  await expect(drainer.settled()).resolves.toBeUndefined();
  const next = drain(r, 'next-desk');
  await next.settled();
  expect((await outboxRows(r.pool))[0]!.attempts).toBe(1);
});

test('a submit wakes a waiting drainer through NOTIFY, without waiting for its poll', async () => {
  const { r } = await rigWith(0);
  // A poll far longer than the test's bound: only the notification can bring the row in time.
  const drainer = drain(r, 'listening-desk', { pollMs: 600_000 });
  await drainer.settled();
  const ids = await r.drafts(1);
  await submitToTeam({ local: r.local, pool: r.pool, cipher: r.cipher, ids, today: new Date() });
  await until(async () => (await outboxRows(r.pool))[0]?.state === 'created', 'the notified drain', 10_000);
});

test('a submit heard on the replica’s session wakes a drainer whose own session only holds its lock', async () => {
  const { r } = await rigWith(0);
  const ear = listenForChanges({
    connection: { connectionString: r.url },
    onNotify: () => undefined,
    onListening: () => undefined,
    log: r.log,
  });
  open.push({ close: () => ear.close() });
  await until(() => ear.listening, 'the shared session to listen');
  const drainer = drain(r, 'shared-ear', {
    pollMs: 600_000,
    hears: (kick) => ear.listen(OUTBOX_CHANNEL, { onMessage: kick, onListening: kick }),
  });
  await drainer.settled();
  const ids = await r.drafts(1);
  await submitToTeam({ local: r.local, pool: r.pool, cipher: r.cipher, ids, today: new Date() });
  await until(
    async () => (await outboxRows(r.pool))[0]?.state === 'created',
    'the drain heard on the replica’s session',
    10_000,
  );
});

test('an answer the store could not take is recorded once the store answers, not re-sent after the lease', async () => {
  const { r } = await rigWith(1);
  const keys: string[] = [];
  let away = false;
  let refused = 0;
  const answering = creating(keys, (created) => {
    // The store goes away between the request and its answer.
    away = true;
    return created;
  });
  // The drainer's pool while the store is away: every new session refused, as a dead host's would be.
  const pool = new Proxy(r.pool, {
    get(target, name) {
      if (name === 'connect' && away) {
        return () => {
          refused++;
          return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  // The lease (a minute) is far longer than the wait below: a row left to its lease would fail the wait.
  const drainer = drain(r, 'desk', { client: () => answering, pool });
  await until(async () => refused > 0, 'the record refused');
  away = false;
  await until(async () => (await outboxRows(r.pool))[0]?.state === 'created', 'the answer recorded');
  const [row] = await outboxRows(r.pool);
  expect([row!.attempts, row!.lease_holder]).toEqual([1, null]);
  expect(keys).toEqual([row!.idempotency_key]);
  await drainer.settled();
});
