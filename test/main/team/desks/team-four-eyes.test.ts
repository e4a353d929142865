// Four eyes on two desks, one sandbox (#28): Bob (a reviewer) prepares a retry, which waits sealed in the
// team store while the service receives nothing; Alice (a lead) sees it live, reads what will be sent (the
// SSN masked, in full only with a reason), approves it, and the service receives it exactly once, with the
// key derived from the approval; a second approval finds it gone. An export with names waits likewise for
// a second lead, and its maker takes it once.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { setReviewerRole } from '#admin/roles.ts';
import type { Approval } from '#contract/approvals.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import type { DeskHarness } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import type { TeamRig } from '#test/support/team/team-rig.ts';
import { type TeamOutside, teamOutside } from './team-service.ts';
import { type TeamSuite, teamSuite } from './team-suite.ts';

const SSN = '536-21-4470';
let rig: TeamRig;
let alice: DeskHarness;
let bob: DeskHarness;
let admin: pg.Client;
let service: ServiceClient;
const team = teamSuite({ leads: ['alice'] });

const outside = teamOutside(team);

beforeAll(() => {
  ({ rig, alice, bob } = team);
  ({ admin, service } = outside);
});

/** How many retries the sandbox received (POST /customers/{id}), from whichever desk. */
const retriesReceived = () => outside.requests('POST /customers/{id}');

/** A customer in `retry` on the service, added on Alice's desk, known on Bob's (of this file's team, or `on`). */
async function retryCase(
  lastName: string,
  email: string,
  on: Pick<TeamSuite, 'alice' | 'bob'> & Pick<TeamOutside, 'service'> = { alice, bob, service },
): Promise<string> {
  const { id } = await on.service.customers.create(samplePerson('retry', lastName, email));
  await on.alice.call('customers.add', { ref: id });
  await until(() => on.bob.call('customers.get', { id }).catch(() => null), 'the case on Bob’s desk');
  return id;
}

const changedOn = (desk: DeskHarness, id: string, state: Approval['state']) =>
  desk.events.find(
    (e) =>
      e.event === 'approvals.changed' &&
      (e.payload as Approval).id === id &&
      (e.payload as Approval).state === state,
  )?.payload as Approval | undefined;

/** The notification a desk was told with this title (#39: four eyes as notifications). */
const toldOn = (desk: DeskHarness, title: string) =>
  desk.events.find((e) => e.event === 'notification.show' && (e.payload as StatusNotice).title === title)
    ?.payload as StatusNotice | undefined;

describe('four eyes on two desks', () => {
  it('holds Bob’s retry until Alice approves it, then the service receives it once', async () => {
    await expect(
      bob.call('team.updateSettings', { fourEyes: { retry: true, exportNames: true, expiryHours: 24 } }),
    ).rejects.toMatchObject({ code: 'LeadOnly' });
    await alice.call('team.updateSettings', {
      fourEyes: { retry: true, exportNames: true, expiryHours: 24 },
    });
    expect(await bob.call('approvals.required')).toEqual({ retry: true, exportNames: true });

    const customerId = await retryCase('Foureyes', 'four-eyes@example.com');
    const before = await retriesReceived();

    const form = { ...validForm({ firstName: 'verified', lastName: 'Foureyes' }), tin: SSN };
    const asked = await bob.call('retry.submit', { customerId, form, confirmed: true });
    expect(asked).toMatchObject({ customerId, waiting: { state: 'pending', mine: true, canDecide: false } });
    const id = 'waiting' in asked ? asked.waiting.id : '';
    expect(await retriesReceived()).toBe(before);
    expect((await service.customers.get(customerId)).status).toBe('retry');
    expect((await bob.call('customers.get', { id: customerId })).actions.retry).toEqual({
      allowed: false,
      reason: expect.stringContaining('waits for a lead’s approval'),
    });

    // Alice's desk hears of it live; Bob may not decide (a reviewer), nor see another's approval's fields.
    expect(await until(() => changedOn(alice, id, 'pending'), 'Alice’s desk to hear of it')).toMatchObject({
      maker: rig.reviewers.bob.login,
      canDecide: true,
      mine: false,
    });
    expect(await until(() => toldOn(alice, 'Approval waiting for you'), 'Alice to be told')).toEqual({
      customerId,
      status: 'approval',
      title: 'Approval waiting for you',
      body: `${rig.reviewers.bob.login} asks you to approve a one-time retry for retry Foureyes.`,
      desktop: true,
    });
    expect((await bob.call('approvals.list')).map((a) => a.id)).toContain(id);
    await expect(bob.call('approvals.approve', { id, note: 'looks fine' })).rejects.toMatchObject({
      code: 'LeadOnly',
    });

    // What will be sent: the SSN masked, always; Alice compares it with the document (audited) instead of
    // reading it, so a full SSN never reaches a screen.
    const masked = await alice.call('approvals.get', { id });
    expect(masked.fields).toContainEqual({ label: 'SSN', value: '•••-••-4470' });
    expect(masked.ssnCheck).toBe('unchecked');
    expect(JSON.stringify(masked)).not.toContain(SSN);
    const differs = await alice.call('approvals.checkSsn', { id, ssn: '536-21-4471' });
    expect(differs.ssnCheck).toBe('differs');
    const matches = await alice.call('approvals.checkSsn', { id, ssn: SSN.replaceAll('-', '') });
    expect(matches.ssnCheck).toBe('matches');
    expect(JSON.stringify([differs, matches])).not.toContain(SSN);
    await expect(bob.call('approvals.checkSsn', { id, ssn: SSN })).rejects.toMatchObject({
      code: 'LeadOnly',
    });
    expect(await retriesReceived()).toBe(before);

    const sent = await alice.call('approvals.approve', { id, note: 'matches the passport' });
    expect(sent).toMatchObject({ state: 'sent', checker: rig.reviewers.alice.login, outcome: 'verified' });
    expect(await retriesReceived()).toBe(before + 1);
    await expect(alice.call('approvals.approve', { id, note: 'again' })).rejects.toMatchObject({
      code: 'ApprovalSettled',
    });
    expect(await retriesReceived()).toBe(before + 1);
    expect((await service.customers.get(customerId)).status).toBe('verified');
    await until(() => changedOn(bob, id, 'sent'), 'Bob’s desk to hear it was sent');
    expect(await until(() => toldOn(bob, 'Request approved'), 'Bob to be told')).toMatchObject({
      customerId,
      body: `${rig.reviewers.alice.login} approved your one-time retry for retry Foureyes.`,
    });

    // Nothing of it stays in the store; every step is in the case's timeline on Bob's desk.
    const { rows } = await admin.query('SELECT state, payload FROM vetted.approvals WHERE id = $1', [id]);
    expect(rows).toEqual([{ state: 'sent', payload: null }]);
    const timeline = await bob.call('customers.timeline', { id: customerId, limit: 50 });
    const titles = timeline.entries.map((entry) => entry.title);
    for (const step of [
      'Waiting for approval (four eyes)',
      'Personal data revealed',
      'Approved (four eyes)',
      'Approved action sent',
      'Verification retry submitted',
    ]) {
      expect(titles).toContain(step);
    }
  });

  it('lets Bob withdraw a retry he asked for, and nobody else', async () => {
    const customerId = await retryCase('Withdrawn', 'four-eyes-withdrawn@example.com');
    const form = { ...validForm({ firstName: 'verified', lastName: 'Withdrawn' }), tin: SSN };
    const asked = await bob.call('retry.submit', { customerId, form, confirmed: true });
    const id = 'waiting' in asked ? asked.waiting.id : '';
    await expect(alice.call('approvals.cancel', { id })).rejects.toMatchObject({ code: 'NotYourApproval' });
    expect(await bob.call('approvals.cancel', { id })).toMatchObject({ state: 'cancelled' });
    expect((await alice.call('approvals.forCase', { customerId })).approval).toMatchObject({
      id,
      state: 'cancelled',
    });
  });

  it('makes an export with names wait for a second lead; its maker takes it once', async () => {
    const input = { section: 'all', search: '', revealReason: 'the regulator’s monthly list' } as const;
    await expect(alice.call('queue.export', input)).rejects.toMatchObject({ code: 'ApprovalNeeded' });
    const asked = await alice.call('approvals.requestExport', input);
    await expect(alice.call('approvals.approve', { id: asked.id, note: 'mine' })).rejects.toMatchObject({
      code: 'OwnApproval',
    });
    await expect(alice.call('approvals.collect', { id: asked.id })).rejects.toMatchObject({
      code: 'ApprovalSettled',
    });
    await setReviewerRole(admin, { name: rig.reviewers.bob.login, role: 'lead', keyFile: rig.keyFile });
    expect(await bob.call('approvals.approve', { id: asked.id, note: 'the list is due' })).toMatchObject({
      state: 'approved',
    });
    const file = await alice.call('approvals.collect', { id: asked.id });
    expect(file.content).toContain('Foureyes');
    await expect(alice.call('approvals.collect', { id: asked.id })).rejects.toMatchObject({
      code: 'ApprovalSettled',
    });
  });
});

describe('four eyes on today’s real service (the sandbox’s real profile), a team of its own', () => {
  const real = teamSuite({ leads: ['alice'], profile: 'real' });
  const realOutside = teamOutside(real);

  it('an approved retry, sealed with `tin`, reaches the service as `ssn` with all nine digits', async () => {
    const { alice: lead, bob: maker } = real;
    await lead.call('team.updateSettings', {
      fourEyes: { retry: true, exportNames: false, expiryHours: 24 },
    });
    const on = { alice: lead, bob: maker, service: realOutside.service };
    const customerId = await retryCase('Realeyes', 'real-eyes@example.com', on);
    const form = { ...validForm({ firstName: 'verified', lastName: 'Realeyes' }), tin: SSN };
    const asked = await maker.call('retry.submit', { customerId, form, confirmed: true });
    const id = 'waiting' in asked ? asked.waiting.id : '';
    expect(id).not.toBe('');
    // The request waits sealed as the desk stores every form, with the interface document's `tin`.
    const sent = await lead.call('approvals.approve', { id, note: 'matches the passport' });
    // The real profile refuses a retry without `ssn` (at /ssn): verified means it came as `ssn`.
    expect(sent).toMatchObject({ state: 'sent', outcome: 'verified' });
    expect((await realOutside.service.customers.get(customerId)).status).toBe('verified');
    expect(await realOutside.requests('POST /customers/{id}')).toBe(1);
  });
});
