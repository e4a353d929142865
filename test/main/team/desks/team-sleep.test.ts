// A laptop that sleeps (#37): Bob's desk runs in a process of its own, its clock five minutes fast, holding two
// claims, a queued draft and two retries waiting for four eyes; it is stopped (SIGSTOP) while the store's
// clock moves past his idle time and one request's expiry (the times moved back, as a clock moved on would
// leave them), Alice (a lead) takes his cases and approves one request. When it continues (SIGCONT): what it
// tries on waking is refused in words, it is told its claims ended and shows Alice's, the lead's decision
// stands, the lapsed request is refused as expired, and the draft is created on the service once.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setReviewerRole } from '#admin/roles.ts';
import type { Approval } from '#contract/approvals.ts';
import type { ClaimNotice } from '#contract/claims.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { type DeskChild, startDeskChild } from '#test/support/desk/desk-child.ts';
import { type DeskHarness, startDesk } from '#test/support/desk/desk-harness.ts';
import { customersWithEmail, validForm } from '#test/support/desk/drafts.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { startTeamRig, type TeamRig } from '#test/support/team/team-rig.ts';
import { teamOutside } from './team-service.ts';

const SSN = '536-21-4470';
const FIVE_MINUTES_MS = 5 * 60_000;
/** Refused as expired: before a desk's sweep ended it, or after. */
const EXPIRED = expect.stringMatching(/^Too late: it (expired|is expired already)\.$/);
const suite = {} as { rig: TeamRig; alice: DeskHarness; bob: DeskChild };

beforeAll(async () => {
  suite.rig = await startTeamRig(await freshDatabase());
  const admin = new pg.Client({ connectionString: suite.rig.adminUrl });
  await admin.connect();
  try {
    const name = suite.rig.reviewers.alice.login;
    await setReviewerRole(admin, { name, role: 'lead', keyFile: suite.rig.keyFile });
  } finally {
    await admin.end();
  }
  suite.alice = await startDesk(await suite.rig.deskDir('alice'));
  suite.bob = await startDeskChild(await suite.rig.deskDir('bob'), FIVE_MINUTES_MS);
}, 90_000);
afterAll(async () => {
  await suite.bob?.close();
  await suite.alice?.close();
  await suite.rig?.close();
});
const outside = teamOutside(suite);

let serial = 0;
/** A customer made on the service (its status from the first name), added on Alice's desk, known on Bob's. */
async function caseOf(service: ServiceClient, firstName: string): Promise<string> {
  const { id } = await service.customers.create(
    samplePerson(firstName, 'Sleeper', `sleeper-${++serial}@example.com`),
  );
  await suite.alice.call('customers.add', { ref: id });
  await until(() => suite.bob.call('customers.get', { id }).catch(() => null), 'the case on Bob’s desk');
  return id;
}

const refusalOf = (call: Promise<unknown>) =>
  call.then(
    () => 'done',
    (error: unknown) => error,
  );

it('wakes to what happened while it slept: refused in words, told, caught up, the draft sent once', async () => {
  const { rig, alice, bob } = suite;
  const { admin, service } = outside as { admin: pg.Client; service: ServiceClient };
  const names = { alice: rig.reviewers.alice.login, bob: rig.reviewers.bob.login };
  await alice.call('team.updateSettings', { fourEyes: { retry: true, exportNames: false, expiryHours: 24 } });

  const held = [await caseOf(service, 'document'), await caseOf(service, 'document')];
  for (const customerId of held) {
    expect((await bob.call('claims.take', { customerId })).claim).toMatchObject({ holder: names.bob });
  }
  const asks = async (customerId: string, lastName: string) => {
    const form = { ...validForm({ firstName: 'verified', lastName }), tin: SSN };
    const asked = await bob.call('retry.submit', { customerId, form, confirmed: true });
    return 'waiting' in asked ? asked.waiting.id : '';
  };
  const decided = await asks(await caseOf(service, 'retry'), 'Decided');
  const lapsing = await asks(await caseOf(service, 'retry'), 'Lapsing');
  const form = validForm({ firstName: 'verified', lastName: 'Sleeper' });
  const { id: draftId } = await bob.call('drafts.create');
  await bob.call('drafts.save', { id: draftId, form });
  expect((await bob.call('drafts.submit', { ids: [draftId] })).queued).toEqual([draftId]);

  await bob.stop();
  // Asleep. The store's clock runs past Bob's idle time and past one request's expiry.
  await admin.query(
    `UPDATE vetted.claims SET touched_at = touched_at - interval '1 day', expires_at = expires_at - interval '1 day'
     WHERE holder = $1`,
    [names.bob],
  );
  await admin.query(`UPDATE vetted.approvals SET expires_at = now() - interval '1 second' WHERE id = $1`, [
    lapsing,
  ]);
  for (const customerId of held) {
    expect((await alice.call('claims.take', { customerId })).claim).toMatchObject({ holder: names.alice });
  }
  expect(await alice.call('approvals.approve', { id: decided, note: 'fine' })).toMatchObject({
    state: 'sent',
  });
  // What Bob had in flight as the lid closed, or tries the moment it opens: it waits in the desk's stdin.
  const release = refusalOf(bob.call('claims.release', { customerId: held[0]! }));
  const retake = refusalOf(bob.call('claims.take', { customerId: held[1]! }));
  const withdrawDecided = refusalOf(bob.call('approvals.cancel', { id: decided }));
  const withdrawLapsed = refusalOf(bob.call('approvals.cancel', { id: lapsing }));
  bob.resume();

  expect(await release).toMatchObject({
    code: 'NotYourClaim',
    message: `${names.alice} has this case, not you.`,
  });
  expect(await retake).toMatchObject({
    code: 'ClaimedByOther',
    message: expect.stringContaining(`Only ${names.alice} can change this case`),
  });
  expect(await withdrawDecided).toMatchObject({ code: 'ApprovalSettled' });
  expect(await withdrawLapsed).toMatchObject({ code: 'ApprovalSettled', message: EXPIRED });

  // It learns its claims ended, and shows Alice's.
  for (const customerId of held) {
    const notice = await until(
      () =>
        bob.events.find(
          (e) =>
            e.event === 'claims.notice' &&
            (e.payload as ClaimNotice).customerId === customerId &&
            (e.payload as ClaimNotice).kind === 'expired',
        )?.payload as ClaimNotice | undefined,
      'Bob told his claim ended',
    );
    expect(notice.text).toContain('idle for longer than the team allows');
    expect((await bob.call('claims.get', { customerId })).claim).toMatchObject({
      holder: names.alice,
      mine: false,
    });
  }
  // The lead's decision stands; the lapsed request is ended by the store's rules, not the desk's clock.
  expect(await bob.call('approvals.get', { id: decided })).toMatchObject({
    state: 'sent',
    checker: names.alice,
  } satisfies Partial<Approval>);
  await expect(alice.call('approvals.approve', { id: lapsing, note: 'late' })).rejects.toMatchObject({
    code: 'ApprovalSettled',
    message: EXPIRED,
  });

  // The draft is created once on the service, whichever desk sent it.
  await until(
    async () =>
      (
        await admin.query(`SELECT 1 FROM vetted.team_outbox WHERE draft_id = $1 AND state = 'created'`, [
          draftId,
        ])
      ).rowCount === 1,
    'the draft created',
    30_000,
  );
  expect(await customersWithEmail(service, form.email!)).toHaveLength(1);
}, 120_000);
