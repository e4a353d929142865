// The lead's Team screen on two desks and a hub (#28): Alice, a lead, watches the team from her desk while Bob
// works on his. Both desks show online (the hubs are listed apart, never as reviewers), Bob's take shows as a case he holds, his note and
// the service's verification as a first action and a resolution in "Needs retry", and the closing as his.
// Bob, a reviewer, is refused the screen in words.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamOverview } from '#contract/team-overview.ts';
import { createServiceClient, type ServiceClient } from '#main/data/service/index.ts';
import type { DeskHarness } from '#test/support/desk/desk-harness.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import type { TeamRig } from '#test/support/team/team-rig.ts';
import { teamSuite } from './team-suite.ts';

let rig: TeamRig;
let alice: DeskHarness;
let bob: DeskHarness;
let service: ServiceClient;
let admin: pg.Client;

const team = teamSuite({ leads: ['alice'] });

beforeAll(async () => {
  ({ rig, alice, bob } = team);
  service = createServiceClient({
    baseUrl: rig.sandbox.baseUrl,
    clientId: rig.sandbox.clientId,
    clientSecret: rig.sandbox.clientSecret,
  });
  admin = new pg.Client({ connectionString: rig.adminUrl });
  await admin.connect();
});

afterAll(async () => {
  await service?.close();
  await admin?.end();
});

const overview = () => alice.call('team.overview');
const memberOf = (figures: TeamOverview, who: 'alice' | 'bob' | 'hub') =>
  figures.members.find((member) => member.login === rig.reviewers[who].login);
/** Alice's overview, read again until `holds` says it shows what Bob did. */
const aliceSees = (what: string, holds: (figures: TeamOverview) => boolean) =>
  until(async () => {
    const figures = await overview();
    return holds(figures) && figures;
  }, `Alice’s Team screen to show ${what}`);

describe('the lead’s view of two desks', () => {
  it('shows both desks online, and the hubs apart, not as reviewers: one running, the standby stopped', async () => {
    const hubOf = (f: TeamOverview, who: 'hub' | 'hub2') =>
      f.hubs.find((hub) => hub.login === rig.reviewers[who].login);
    const figures = await aliceSees(
      'both desks and the hub',
      (f) => memberOf(f, 'bob')?.desks === 1 && hubOf(f, 'hub')?.running === 1,
    );
    expect(memberOf(figures, 'alice')).toMatchObject({ desks: 1, me: true, role: 'lead' });
    expect(memberOf(figures, 'bob')).toMatchObject({ desks: 1, me: false, role: 'reviewer' });
    expect(memberOf(figures, 'hub')).toBeUndefined();
    expect(hubOf(figures, 'hub2')).toEqual({ login: rig.reviewers.hub2.login, running: 0 });
    expect(figures.members.map((member) => member.login)).not.toContain(rig.reviewers.hub2.login);
  });

  it('refuses Bob, a reviewer, in words', async () => {
    await expect(bob.call('team.overview')).rejects.toMatchObject({
      code: 'LeadOnly',
      message: expect.stringContaining('Only a lead can see the Team screen'),
    });
  });

  it('follows what Bob does on his desk: a case held, a first action, its closing', async () => {
    const email = `lead-view-${Date.now()}@example.com`;
    const { id } = await service.customers.create(samplePerson('retry', 'Overseen', email));
    await bob.call('customers.add', { ref: id });
    await until(() => alice.call('customers.get', { id }).catch(() => null), 'the customer on Alice’s desk');

    await bob.call('claims.take', { customerId: id });
    let figures = await aliceSees('the case Bob holds', (f) => memberOf(f, 'bob')?.holding === 1);
    expect(figures.sections.find((s) => s.section === 'retry')).toMatchObject({
      entered: 1,
      resolution: { count: 0 },
    });

    await bob.call('notes.add', { customerId: id, text: 'Asked the customer for the right SSN.' });
    const retryActed = (f: TeamOverview) =>
      f.sections.find((s) => s.section === 'retry')?.firstAction.count === 1;
    await aliceSees('Bob’s first action in Needs retry', retryActed);
    await rig.retryOnService(id, 'Overseen', email);
    figures = await aliceSees('the case closed', (f) => f.closed.thisWeek + f.closed.today > 0);
    expect(figures.sections.find((s) => s.section === 'retry')).toMatchObject({
      entered: 1,
      firstAction: { count: 1 },
      resolution: { count: 1 },
    });
    // Closed today and this week as the store dated the verification against the overview's own boundaries
    // (a run across midnight stays right).
    const { rows } = await admin.query<{ at: Date }>(
      `SELECT at FROM vetted.status_history WHERE customer_id = $1 AND status = 'verified'`,
      [id],
    );
    const closedAt = rows[0]!.at.getTime();
    expect(memberOf(figures, 'bob')).toMatchObject({
      closedToday: closedAt >= Date.parse(figures.todayFrom) ? 1 : 0,
      closedThisWeek: closedAt >= Date.parse(figures.weekFrom) ? 1 : 0,
    });
    expect(memberOf(figures, 'alice')).toMatchObject({ closedToday: 0, closedThisWeek: 0 });
  });
});
