// A drainer that died between recording "created" and writing the customer into the team store leaves a
// created row without its customer: the next drainer to start writes it, and a running one finds later ones
// at its next look (REPAIR_EVERY_MS, on the drainer's clock).
import { afterEach, expect, test } from 'vitest';
import type { CustomerForm } from '#contract/drafts.ts';
import type { CustomerInput } from '#main/data/service/index.ts';
import { customerBody, personalData } from '#main/features/drafts/form.ts';
import { openTeamJournal } from '#main/team/journal/index.ts';
import { writeCreatedInto } from '#main/team/outbox/created.ts';
import { startTeamDrain, submitToTeam, type TeamDrain } from '#main/team/outbox/index.ts';
import { recordOutcome, takeDue } from '#main/team/outbox/lease.ts';
import { createdWithoutCustomer, REPAIR_EVERY_MS, REPAIR_GRACE_SECONDS } from '#main/team/outbox/repair.ts';
import { openForm, type TeamOutboxRow } from '#main/team/outbox/rows.ts';
import { sharedSandbox } from '#test/support/desk/shared-sandbox.ts';
import { until } from '#test/support/poll.ts';
import { aliveAs, type TeamOutboxRig, teamOutboxRig } from './outbox-rig.ts';

const shared = sharedSandbox();
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** A desk that took `count` rows, had the service create each, and recorded them created: then it died. */

/** The dead desk's drainer records that the service created `customerId` for this outbox row. */
const recordCreated = (r: TeamOutboxRig, key: string, customerId: string) =>
  recordOutcome(r.pool, key, 'dead-desk', { kind: 'created', customerId }, r.audit);

async function diedAfterRecording(r: TeamOutboxRig, count: number) {
  const ids = await r.drafts(count);
  await submitToTeam({ local: r.local, pool: r.pool, cipher: r.cipher, ids, today: new Date() });
  const taken = await takeDue(r.pool, 'dead-desk', 60_000, count);
  const created: Array<{ row: TeamOutboxRow; form: CustomerForm; customer: { id: string } }> = [];
  for (const row of taken) {
    const form = openForm(r.cipher, row);
    const customer = await shared.client.customers.create(customerBody(form) as CustomerInput, {
      idempotencyKey: row.idempotency_key,
    });
    created.push({ row, form, customer });
  }
  return {
    created,
    /** Records the `at`th created, as long ago as the repair's grace and more: the dead desk had its chance. */
    async record(at: number) {
      const { row, customer } = created[at]!;
      await recordCreated(r, row.idempotency_key, customer.id);
      await r.pool.query(
        `UPDATE vetted.team_outbox SET finished_at = now() - make_interval(secs => $2) WHERE idempotency_key = $1`,
        [row.idempotency_key, REPAIR_GRACE_SECONDS + 1],
      );
    },
  };
}

const inStore = async (r: TeamOutboxRig, id: string) =>
  (await r.pool.query('SELECT 1 FROM vetted.customers WHERE id = $1', [id])).rowCount === 1;

test('created but never recorded: the next drainer writes the customer, and a running one the later ones', async () => {
  const r = await teamOutboxRig();
  open.push(r);
  const dead = await diedAfterRecording(r, 2);
  await dead.record(0);
  const journal = await openTeamJournal({
    pool: r.pool,
    teamKey: r.teamKey,
    local: r.local,
    storeChecked: true,
  });
  let clock = Date.now();
  const drainer: TeamDrain = startTeamDrain({
    pool: r.pool,
    cipher: r.cipher,
    sealer: r.audit.sealer,
    client: () => shared.client,
    holder: 'next-desk',
    log: r.log,
    pollMs: 20,
    now: () => new Date(clock),
    // As the desk's runtime writes a created customer.
    onCreated: writeCreatedInto(journal),
  });
  open.push(drainer);

  await drainer.settled();
  const first = dead.created[0]!;
  expect(await inStore(r, first.customer.id)).toBe(true);
  expect(await journal.customers.personal(first.customer.id)).toEqual(personalData(first.form));
  expect((await journal.customers.history(first.customer.id)).map((h) => h.source)).toEqual(['created']);

  // The second is recorded while the drainer runs: its next look, ten minutes on, writes it.
  await dead.record(1);
  clock += REPAIR_EVERY_MS;
  const second = dead.created[1]!;
  await until(() => inStore(r, second.customer.id), 'the later customer written at the next look');
  expect(await journal.customers.personal(second.customer.id)).toEqual(personalData(second.form));
  expect(r.lines.join('\n')).toContain('recorded customers whose drainer stopped first');
});

test('a row recorded within the grace is left to the drainer that recorded it while it lives, not once it is gone', async () => {
  const r = await teamOutboxRig();
  open.push(r);
  const recorder = await aliveAs(r.url, 'dead-desk');
  const dead = await diedAfterRecording(r, 2);
  for (const { row, customer } of dead.created) {
    await recordCreated(r, row.idempotency_key, customer.id);
  }
  expect(await createdWithoutCustomer(r.pool, 10)).toEqual([]);
  // Past the grace, even a live recorder's row is another drainer's to write.
  await dead.record(0);
  const ids = async () => (await createdWithoutCustomer(r.pool, 10)).map((found) => found.customer_id);
  expect(await ids()).toEqual([dead.created[0]!.customer.id]);
  // Its recorder gone (its session ended): the other one too, without waiting for the grace.
  await recorder.die();
  await until(async () => (await ids()).length === 2, 'the gone recorder’s row found');
  expect((await ids()).toSorted()).toEqual(dead.created.map((c) => c.customer.id).toSorted());
});
