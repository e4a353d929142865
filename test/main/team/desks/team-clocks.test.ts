// Clocks that disagree (#37): Alice's desk runs five minutes fast, Bob's five minutes slow, both leads on one
// team. The store's clock decides: claims taken one after the other are dated and ordered by the store; a
// claim idle for less than the team's time holds though Alice's clock says it ran out, and ends when the
// store's clock passes it though Bob's says it has barely begun; a four-eyes request expires by the store's
// clock; and the Team screen shows both desks the same figures, "overdue" measured from the store's now.
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TeamOverview } from '#contract/team-overview.ts';
import type { DeskHarness } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import { teamOutside } from './team-service.ts';
import { teamSuite } from './team-suite.ts';

const MINUTE_MS = 60_000;
/** Refused as expired: before a desk's sweep ended it, or after. */
const EXPIRED = expect.stringMatching(/^Too late: it (expired|is expired already)\.$/);
const skewed = (ms: number) => () => new Date(Date.now() + ms);
const team = teamSuite({
  leads: ['alice', 'bob'],
  clocks: { alice: skewed(5 * MINUTE_MS), bob: skewed(-5 * MINUTE_MS) },
});
const outside = teamOutside(team);

let alice: DeskHarness;
let bob: DeskHarness;
let names: { alice: string; bob: string };
beforeAll(async () => {
  ({ alice, bob } = team);
  names = { alice: team.rig.reviewers.alice.login, bob: team.rig.reviewers.bob.login };
  await alice.call('team.updateSettings', {
    claimIdleMinutes: 60,
    fourEyes: { retry: true, exportNames: false, expiryHours: 1 },
  });
});

let serial = 0;
/** A customer made on the service (its status from the first name), added on Alice's desk, known on Bob's. */
async function caseOf(firstName: string): Promise<string> {
  const { id } = await outside.service.customers.create(
    samplePerson(firstName, 'Clocks', `clocks-${++serial}@example.com`),
  );
  await alice.call('customers.add', { ref: id });
  await until(() => bob.call('customers.get', { id }).catch(() => null), 'the case on Bob’s desk');
  return id;
}

/** The store's clock, now. */
const storeNow = async () =>
  (await outside.admin.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now.getTime();
/** Within a minute of `at`: a desk's clock, five minutes off, is not what dated it. */
const near = (iso: string, at: number) => Math.abs(Date.parse(iso) - at) < MINUTE_MS;

describe('claims', () => {
  it('are dated and ordered by the store, whichever desk’s clock is ahead', async () => {
    const [first, second] = [await caseOf('document'), await caseOf('document')];
    const taken = [
      (await alice.call('claims.take', { customerId: first })).claim!,
      (await bob.call('claims.take', { customerId: second })).claim!,
    ];
    const now = await storeNow();
    for (const claim of taken) expect(near(claim.since, now)).toBe(true);
    expect(Date.parse(taken[0]!.since)).toBeLessThanOrEqual(Date.parse(taken[1]!.since));
    const { rows } = await outside.admin.query<{ actor: string; at: Date }>(
      `SELECT actor, at FROM vetted.audit_log WHERE action = 'claim.take' AND customer_id = ANY ($1) ORDER BY seq`,
      [[first, second]],
    );
    expect(rows.map((row) => row.actor)).toEqual([names.alice, names.bob]);
    for (const row of rows) expect(near(row.at.toISOString(), now)).toBe(true);
    expect(rows[0]!.at.getTime()).toBeLessThanOrEqual(rows[1]!.at.getTime());
    await alice.call('claims.release', { customerId: first });
    await bob.call('claims.release', { customerId: second });
  });

  it('expire by the store’s clock: not by Alice’s, ahead, nor held on by Bob’s, behind', async () => {
    const id = await caseOf('document');
    await alice.call('team.updateSettings', { claimIdleMinutes: 2 });
    await bob.call('claims.take', { customerId: id });
    // Alice's clock is five minutes past the two-minute idle time; the store's is not.
    await expect(alice.call('claims.take', { customerId: id })).rejects.toMatchObject({
      code: 'ClaimedByOther',
    });
    // The store's clock passes it (the claim's times moved back, as a clock moved on would leave them);
    // Bob's clock still says the claim is younger than its two minutes.
    await outside.admin.query(
      `UPDATE vetted.claims SET touched_at = touched_at - interval '3 minutes',
         expires_at = expires_at - interval '3 minutes' WHERE customer_id = $1`,
      [id],
    );
    expect((await alice.call('claims.take', { customerId: id })).claim).toMatchObject({
      holder: names.alice,
    });
    await expect(bob.call('claims.take', { customerId: id })).rejects.toMatchObject({
      code: 'ClaimedByOther',
    });
    await alice.call('team.updateSettings', { claimIdleMinutes: 60 });
    await alice.call('claims.release', { customerId: id });
  });
});

describe('four eyes', () => {
  it('expire by the store’s clock, whatever the maker’s or the checker’s says', async () => {
    const customerId = await caseOf('retry');
    const form = { ...validForm({ firstName: 'verified', lastName: 'Clocks' }), tin: '536-21-4470' };
    const asked = await bob.call('retry.submit', { customerId, form, confirmed: true });
    const id = 'waiting' in asked ? asked.waiting.id : '';
    const approval = await alice.call('approvals.get', { id });
    const now = await storeNow();
    expect(near(approval.requestedAt, now)).toBe(true);
    expect(Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt)).toBe(60 * MINUTE_MS);
    // The store's clock passes its hour; Alice's (ahead) and Bob's (behind) clocks have no say.
    await outside.admin.query(
      `UPDATE vetted.approvals SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    await expect(alice.call('approvals.approve', { id, note: 'late' })).rejects.toMatchObject({
      code: 'ApprovalSettled',
      message: EXPIRED,
    });
  });
});

describe('the Team screen', () => {
  /** The figures both desks read of the same team, but for who is `me`. */
  const figures = (overview: TeamOverview) => ({
    ...overview,
    at: undefined,
    figuresFrom: undefined,
    members: overview.members.map(({ me: _, ...member }) => member),
  });

  it('shows both desks the same figures, overdue by the store’s clock', async () => {
    const first = await alice.call('team.overview');
    const bobsBefore = first.members.find((member) => member.login === names.bob)!;
    const targetMs = first.targets.document * 3_600_000;
    // Two cases Bob holds: one two and a half minutes short of overdue by the store's clock (overdue by
    // Alice's), one two and a half minutes past it (not yet, by Bob's).
    const [short, past] = [await caseOf('document'), await caseOf('document')];
    for (const customerId of [short, past]) await bob.call('claims.take', { customerId });
    /** Their ages set (again: the hub may still write a case as the service dates it), then both desks' view. */
    const aged = async () => {
      for (const [id, ageMs] of [
        [short, targetMs - 2.5 * MINUTE_MS],
        [past, targetMs + 2.5 * MINUTE_MS],
      ] as const) {
        await outside.admin.query(
          `UPDATE vetted.customers SET status_since = now() - make_interval(secs => $2) WHERE id = $1`,
          [id, ageMs / 1000],
        );
      }
      return [await alice.call('team.overview'), await bob.call('team.overview')] as const;
    };
    const bobs = (overview: TeamOverview) => overview.members.find((member) => member.login === names.bob);
    const [seenByAlice, seenByBob] = await until(async () => {
      const seen = await aged();
      const agree = isDeepStrictEqual(figures(seen[0]), figures(seen[1]));
      return agree && bobs(seen[0])?.overdue === bobsBefore.overdue + 1 && seen;
    }, 'both desks to show one more overdue case');
    expect(figures(seenByAlice)).toEqual(figures(seenByBob));
    const now = await storeNow();
    for (const seen of [seenByAlice, seenByBob]) expect(near(seen.at, now)).toBe(true);
    expect(bobs(seenByBob)).toMatchObject({
      holding: bobsBefore.holding + 2,
      overdue: bobsBefore.overdue + 1,
    });
  });
});
