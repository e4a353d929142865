import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HAL_MEDIA_TYPE, type ServiceClient } from '#main/data/service/index.ts';
import { listTeamOutbox, submitToTeam } from '#main/team/outbox/index.ts';
import { encodeTeamKey } from '#main/team/team-key.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';
import { type ChildRun, runChild } from '#test/support/child.ts';
import { customersWithEmail, quickClient, setFaults } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { outboxRows, type TeamOutboxRig, teamOutboxRig } from './outbox-rig.ts';

/**
 * Exactly once across desks: two drainers in child processes drain 200 drafts from one team outbox; one is
 * killed with SIGKILL while requests of its are on their way. The service finishes those requests (nobody
 * reads the answers); the survivor takes the dead drainer's rows over (as soon as it has a free slot: the
 * dead one's liveness lock went with its session, outbox-liveness.test.ts) and sends them again with the
 * same keys. Each customer is created once.
 *
 * The kill lands at a chosen point however loaded the machine: the sandbox holds every create (`delay`
 * fault) until the test sets the faults again, so the test waits until both drainers have every slot
 * waiting at the service, lets one round through, and kills at the next.
 */
const CHILD = path.join(import.meta.dirname, 'fixtures', 'drainer.ts');
const DRAFTS = 200;
const CONCURRENCY = 4;
const LEASE_MS = 1_500;
const HOLD = { rate: 1, kinds: ['delay'], paths: ['/customers'], delayMs: 60_000 };

let sandbox: RunningSandbox;
let client: ServiceClient;
let rig: TeamOutboxRig;
const drainers: ChildRun[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  client = quickClient(sandbox);
  rig = await teamOutboxRig();
});
afterAll(async () => {
  for (const { child } of drainers) child.kill('SIGKILL');
  await Promise.all(drainers.map((d) => d.exited));
  await rig.close();
  await client.close();
  await sandbox.close();
});

function startDrainer(holder: string): ChildRun {
  const drainer = runChild(CHILD, [], {
    VETTED_TEST_DRAINER: JSON.stringify({
      databaseUrl: rig.url,
      teamKey: encodeTeamKey(rig.teamKey),
      holder,
      leaseMs: LEASE_MS,
      concurrency: CONCURRENCY,
      service: { baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
    }),
  });
  drainers.push(drainer);
  return drainer;
}

interface SandboxStats {
  requests: Record<string, Record<string, number>>;
  customers: Record<string, number>;
  heldRequests: number;
}

async function stats(): Promise<SandboxStats> {
  const res = await request(`${sandbox.baseUrl}/sandbox/stats`, {
    headers: { accept: HAL_MEDIA_TYPE, authorization: `Bearer ${await client.token.get()}` },
  });
  return (await res.body.json()) as SandboxStats;
}
const customerCount = async () => Object.values((await stats()).customers).reduce((a, b) => a + b, 0);

test('two drainers, one killed with SIGKILL mid-drain: each of 200 customers is created exactly once', async () => {
  const ids = await rig.drafts(DRAFTS);
  const submitted = await submitToTeam({ ...rig, ids, today: new Date() });
  expect(submitted.moved).toHaveLength(DRAFTS);

  await setFaults(sandbox, client, HOLD);
  const doomed = startDrainer('desk-a');
  const survivor = startDrainer('desk-b');
  const everySlotHeld = async () => (await stats()).heldRequests === 2 * CONCURRENCY;
  await until(everySlotHeld, 'both drainers waiting at the service', 30_000);
  // One round through (setting the faults again releases what they hold): both have created customers.
  await setFaults(sandbox, client, HOLD);
  await until(
    async () => (await customerCount()) >= 2 * CONCURRENCY && (await everySlotHeld()),
    'the next round waiting at the service',
    30_000,
  );
  const createdBefore = await customerCount();

  doomed.child.kill('SIGKILL');
  expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
  // What the dead drainer held: sent, waiting at the service, its answers now read by nobody.
  const orphaned = (await outboxRows(rig.pool)).filter((row) => row.lease_holder === 'desk-a');
  expect(orphaned).toHaveLength(CONCURRENCY);
  for (const row of orphaned) expect(row.state).toBe('queued');
  await setFaults(sandbox, client, { rate: 0 });

  const allCreated = async () => (await outboxRows(rig.pool)).every((row) => row.state === 'created');
  await until(allCreated, 'every row created', 90_000);
  survivor.child.stdin!.end();
  expect(await survivor.exited).toEqual({ code: 0, signal: null });
  expect(survivor.lines).toContain('done');

  const rows = await outboxRows(rig.pool);
  expect(rows).toHaveLength(DRAFTS);
  for (const row of rows)
    expect([row.state, row.lease_holder, typeof row.customer_id]).toEqual(['created', null, 'string']);
  expect(new Set(rows.map((row) => row.customer_id)).size).toBe(DRAFTS);
  // The survivor took the dead drainer's rows over: each was sent a second time.
  for (const row of orphaned) {
    expect(rows.find((r) => r.draft_id === row.draft_id)!.attempts).toBeGreaterThanOrEqual(2);
  }

  // The service: exactly 200 customers, one per draft's e-mail, each the one its row names.
  const after = await stats();
  expect(Object.values(after.customers).reduce((a, b) => a + b, 0)).toBe(DRAFTS);
  expect(createdBefore).toBeLessThan(DRAFTS);
  const customerOf = new Map(rows.map((row) => [row.draft_id, row.customer_id]));
  for (const item of await listTeamOutbox(rig.pool, rig.cipher)) {
    const found = await customersWithEmail(client, item.email);
    expect(found.map((c) => c.id)).toEqual([customerOf.get(item.draftId)]);
  }
  // The dead drainer's requests were answered unread, and the survivor's sends of them replayed: more 201s
  // than customers.
  const created201 = after.requests['POST /customers']?.['201'] ?? 0;
  expect(created201).toBeGreaterThanOrEqual(DRAFTS + orphaned.length);
}, 180_000);
