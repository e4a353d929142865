// Claims and roles on two desks and a hub, one sandbox (#28): a take shows on the other desk live; two takes
// at the same instant, one winner; another reviewer's case refused in words before any request reaches the
// service, a free one taken by the first action; reassign and take-over by a lead, the holder told; an idle
// claim taken by someone else once its time ran out; the next unclaimed case for both desks at once; roles
// on the desk. Alice is a lead, Bob a reviewer.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseClaim, ClaimNotice } from '#contract/claims.ts';
import type { QueueRow } from '#contract/queue.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { decodeJoinCode } from '#main/team/join-code.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import type { DeskHarness } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import { writeCustomer } from '#test/support/team/team-changes.ts';
import type { TeamRig } from '#test/support/team/team-rig.ts';
import { teamOutside } from './team-service.ts';
import { teamSuite } from './team-suite.ts';

let rig: TeamRig;
let alice: DeskHarness;
let bob: DeskHarness;
let admin: pg.Client;
/** The service itself, as someone other than the desks: makes customers, reads the sandbox's request counts. */
let service: ServiceClient;
let names: { alice: string; bob: string };
let serial = 0;

const team = teamSuite({ leads: ['alice'] });

const outside = teamOutside(team);

beforeAll(() => {
  ({ rig, alice, bob } = team);
  ({ admin, service } = outside);
  names = { alice: rig.reviewers.alice.login, bob: rig.reviewers.bob.login };
});

/** A customer made on the service (its status from the first name), added on Alice's desk, known on Bob's. */
async function customer(firstName: string): Promise<string> {
  const { id } = await service.customers.create(
    samplePerson(firstName, 'Claimed', `claims-${++serial}@example.com`),
  );
  await alice.call('customers.add', { ref: id });
  await until(() => bob.call('customers.get', { id }).catch(() => null), 'the customer on Bob’s desk');
  return id;
}

const rowOf = async (desk: DeskHarness, id: string): Promise<QueueRow | undefined> =>
  (await desk.call('queue.window', { section: 'all', search: '', offset: 0, limit: 200 })).rows.find(
    (row) => row.id === id,
  );
const claimEvent = (desk: DeskHarness, id: string, holder: string | null) =>
  desk.events.find(
    (e) =>
      e.event === 'claims.changed' &&
      (e.payload as CaseClaim).customerId === id &&
      ((e.payload as CaseClaim).claim?.holder ?? null) === holder,
  );
const noticeOf = (desk: DeskHarness, id: string, kind: ClaimNotice['kind']) =>
  desk.events.find(
    (e) =>
      e.event === 'claims.notice' &&
      (e.payload as ClaimNotice).customerId === id &&
      (e.payload as ClaimNotice).kind === kind,
  )?.payload as ClaimNotice | undefined;
const serviceRequests = (route: string) => outside.requests(route);

describe('taking and releasing', () => {
  it('shows a take on the other desk, live, in the queue row and the case; a release clears it', async () => {
    const id = await customer('document');
    const taken = await alice.call('claims.take', { customerId: id });
    expect(taken.claim).toMatchObject({ holder: names.alice, mine: true, how: 'take' });
    await until(() => claimEvent(bob, id, names.alice), 'Bob’s desk to hear of the take');
    expect((await rowOf(bob, id))?.claimedBy).toBe(names.alice);
    expect((await bob.call('claims.get', { customerId: id })).claim).toMatchObject({
      holder: names.alice,
      mine: false,
    });
    expect(
      (
        await bob.call('queue.window', {
          section: 'all',
          search: '',
          offset: 0,
          limit: 200,
          filters: { claim: { reviewer: names.alice } },
        })
      ).rows.map((r) => r.id),
    ).toContain(id);

    await expect(bob.call('claims.release', { customerId: id })).rejects.toMatchObject({
      code: 'NotYourClaim',
      message: `${names.alice} has this case, not you.`,
    });
    expect((await alice.call('claims.release', { customerId: id })).claim).toBeNull();
    await until(() => claimEvent(bob, id, null), 'Bob’s desk to hear of the release');
    expect(await rowOf(bob, id)).not.toHaveProperty('claimedBy');
  });

  it('gives a case to exactly one desk when both take it at the same instant; the other is told who', async () => {
    const id = await customer('document');
    const takes = [alice, bob, alice, bob, alice, bob].map((desk) =>
      desk.call('claims.take', { customerId: id }).then(
        (value) => ({ desk, value }),
        (error: { code: string; message: string }) => ({ desk, error }),
      ),
    );
    const results = await Promise.all(takes);
    const winners = new Set(results.filter((r) => 'value' in r).map((r) => r.desk));
    expect(winners.size).toBe(1);
    const [winner] = [...winners];
    const winnerName = winner === alice ? names.alice : names.bob;
    for (const result of results) {
      if (result.desk === winner) expect(result).toMatchObject({ value: { claim: { holder: winnerName } } });
      else {
        expect(result).toMatchObject({
          error: {
            code: 'ClaimedByOther',
            message: expect.stringMatching(new RegExp(`^Only ${winnerName} can change this case`)),
          },
        });
      }
    }
    const audit = await admin.query(
      `SELECT actor FROM vetted.audit_log WHERE action = 'claim.take' AND customer_id = $1`,
      [id],
    );
    expect(audit.rows).toEqual([{ actor: winnerName }]);
  });
});

describe('acting on a case', () => {
  it('refuses Bob’s retry and upload on Alice’s case in words, before any request reaches the service', async () => {
    const retrying = await customer('retry');
    const documenting = await customer('document');
    await alice.call('claims.take', { customerId: retrying });
    await alice.call('claims.take', { customerId: documenting });
    const before = {
      retry: await serviceRequests('POST /customers/{id}'),
      upload: await serviceRequests('POST /customers/{id}/documents'),
    };
    const refused = {
      code: 'ClaimedByOther',
      message: expect.stringContaining(`Only ${names.alice} can change this case`),
    };
    await expect(
      bob.call('retry.submit', {
        customerId: retrying,
        form: { ...validForm({ firstName: 'retry', lastName: 'Claimed' }), tin: '123-45-6789' },
        confirmed: true,
      }),
    ).rejects.toMatchObject(refused);
    await expect(
      bob.call('documents.upload', {
        customerId: documenting,
        uploadId: randomUUID(),
        documentType: 'passport',
        fileName: 'passport.png',
        bytesBase64: passport().toString('base64'),
      }),
    ).rejects.toMatchObject(refused);
    expect(await serviceRequests('POST /customers/{id}')).toBe(before.retry);
    expect(await serviceRequests('POST /customers/{id}/documents')).toBe(before.upload);
    // A note is no change to the case on the service: anyone may write one.
    await bob.call('notes.add', { customerId: documenting, text: 'Looked at it, Alice has it.' });
  });

  it('takes a case nobody holds on the first action: Bob’s upload makes it his', async () => {
    const id = await customer('document');
    await bob.call('documents.upload', {
      customerId: id,
      uploadId: randomUUID(),
      documentType: 'passport',
      fileName: 'passport.png',
      bytesBase64: passport().toString('base64'),
    });
    expect((await bob.call('claims.get', { customerId: id })).claim).toMatchObject({
      holder: names.bob,
      how: 'action',
    });
    await until(() => claimEvent(alice, id, names.bob), 'Alice’s desk to hear Bob has it');
  });
});

describe('a lead’s actions', () => {
  it('refuses Bob (a reviewer) reassigning or taking over, in words; Alice reassigns to Bob with a note, then takes it over, and Bob is told', async () => {
    const id = await customer('document');
    await bob.call('claims.take', { customerId: id });
    await expect(bob.call('claims.takeOver', { customerId: id, reason: 'mine now' })).rejects.toMatchObject({
      code: 'LeadOnly',
      message: expect.stringMatching(/^Only a lead can take over a case/),
    });
    await expect(
      bob.call('claims.reassign', { customerId: id, to: names.alice, note: 'for you' }),
    ).rejects.toMatchObject({ code: 'LeadOnly' });

    await alice.call('claims.reassign', { customerId: id, to: names.alice, note: 'I will look myself' });
    await until(() => noticeOf(bob, id, 'takenOver') ?? noticeOf(bob, id, 'reassignedAway'), 'Bob told');
    expect(noticeOf(bob, id, 'reassignedAway')).toMatchObject({
      by: names.alice,
      note: 'I will look myself',
    });

    await alice.call('claims.reassign', {
      customerId: id,
      to: names.bob,
      note: 'Back to you: call the customer',
    });
    await until(() => noticeOf(bob, id, 'reassignedToYou'), 'Bob told of the case given to him');
    expect(noticeOf(bob, id, 'reassignedToYou')?.text).toBe(
      `${names.alice} assigned a case to you. Note: Back to you: call the customer`,
    );

    const over = await alice.call('claims.takeOver', { customerId: id, reason: 'Escalated by compliance' });
    expect(over.claim).toMatchObject({
      holder: names.alice,
      how: 'takeOver',
      note: 'Escalated by compliance',
    });
    await until(() => noticeOf(bob, id, 'takenOver'), 'Bob told of the take-over');
    expect(noticeOf(bob, id, 'takenOver')).toMatchObject({
      by: names.alice,
      text: `${names.alice} took over a case you held. Reason: Escalated by compliance`,
    });
    expect(
      bob.events.some(
        (e) =>
          e.event === 'notification.show' && (e.payload as { title: string }).title === 'Case taken over',
      ),
    ).toBe(true);
    // The reason never reaches the store in plaintext.
    const stored = await admin.query('SELECT note FROM vetted.claims WHERE customer_id = $1', [id]);
    expect(stored.rows[0]?.note).not.toContain('Escalated');
  });

  it('refuses a reviewer the lead’s other actions on the desk; the lead changes the team’s settings', async () => {
    expect(await bob.call('team.me')).toMatchObject({
      mode: 'team',
      reviewer: names.bob,
      role: 'reviewer',
      claims: true,
    });
    expect((await alice.call('team.me')).can).toMatchObject({ reassign: true, exportNames: true });
    await expect(
      bob.call('queue.export', { section: 'all', search: '', revealReason: 'for the monthly report' }),
    ).rejects.toMatchObject({ code: 'LeadOnly' });
    await expect(bob.call('team.updateSettings', { claimIdleMinutes: 5 })).rejects.toMatchObject({
      code: 'LeadOnly',
    });
    expect(await alice.call('team.updateSettings', { claimIdleMinutes: 20 })).toMatchObject({
      claimIdleMinutes: 20,
    });
    expect(await bob.call('team.settings')).toEqual({
      claimIdleMinutes: 20,
      fourEyes: { retry: false, exportNames: false, expiryHours: 24 },
      lockIdleMaxMinutes: 15,
    });
    // The idle lock's team maximum: a desk's own longer idle time gives way to the lead's.
    await alice.call('team.updateSettings', { lockIdleMaxMinutes: 10 });
    await bob.call('lock.configure', { idleMinutes: 30 });
    expect(await bob.call('lock.state')).toMatchObject({
      reviewer: names.bob,
      ownIdleMinutes: 30,
      teamMaximum: 10,
      idleMinutes: 10,
    });
    await alice.call('queue.export', { section: 'all', search: '', revealReason: 'for the monthly report' });
    const audit = await admin.query(`SELECT actor FROM vetted.audit_log WHERE action = 'queue.exportNames'`);
    expect(audit.rows).toEqual([{ actor: names.alice }]);
  });
});

describe('idle claims and the next case', () => {
  it('lets Bob take Alice’s case once her claim ran out (the store’s clock), audited, and tells her', async () => {
    const id = await customer('document');
    await alice.call('claims.take', { customerId: id });
    await expect(bob.call('claims.take', { customerId: id })).rejects.toMatchObject({
      code: 'ClaimedByOther',
    });
    // Her idle time runs out: the claim's times moved back, as a clock moved on would leave them.
    await admin.query(
      `UPDATE vetted.claims SET touched_at = touched_at - interval '1 day', expires_at = expires_at - interval '1 day'
       WHERE customer_id = $1`,
      [id],
    );
    expect((await bob.call('claims.take', { customerId: id })).claim).toMatchObject({ holder: names.bob });
    await until(() => noticeOf(alice, id, 'expired'), 'Alice told her claim ended');
    const audit = await admin.query(
      `SELECT actor, detail FROM vetted.audit_log WHERE action = 'claim.expire' AND customer_id = $1`,
      [id],
    );
    expect(audit.rows).toEqual([
      { actor: names.bob, detail: expect.stringMatching(new RegExp(`^${names.alice}'s claim`)) },
    ]);
  });

  it('gives both desks, asking ten times each at once, twenty different cases, the longest waiting first', async () => {
    const teamKey = decodeJoinCode(rig.reviewers.alice.joinCode).teamKey;
    const pool = new pg.Pool({ connectionString: rig.adminUrl, max: 2 });
    const store = {
      url: rig.adminUrl,
      pool,
      teamKey,
      cipher: (await loadTeamKeys(pool, teamKey)).cipher,
      end: () => pool.end(),
    };
    const waiting = Array.from({ length: 24 }, (_, i) => ({
      id: randomUUID(),
      statusSince: new Date(Date.UTC(2020, 0, 1, 0, i)).toISOString(),
    }));
    try {
      for (const { id, statusSince } of waiting)
        await writeCustomer(store, { id, status: 'retry', statusSince });
    } finally {
      await store.end();
    }
    const calls = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? alice : bob).call('claims.next', { section: 'retry' }),
    );
    const taken = (await Promise.all(calls)).map((answer) => answer.claim?.customerId);
    expect(new Set(taken).size).toBe(20);
    expect([...taken].sort()).toEqual(
      waiting
        .slice(0, 20)
        .map((c) => c.id)
        .sort(),
    );
    const counts = await alice.call('claims.counts');
    const mine = counts.holders.find((row) => row.mine);
    expect(mine?.holder).toBe(names.alice);
    expect(mine?.waiting.retry).toBeGreaterThanOrEqual(10);
  });
});

function passport(): Buffer {
  return readFileSync(path.join(import.meta.dirname, '../../../../assets/sandbox-ids/passport.png'));
}
