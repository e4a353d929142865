// Four eyes in the team store (migration 8), through the functions a desk calls: the store, not the desk,
// refuses the maker's own approval and a reviewer's, lets exactly one of two simultaneous approvers win,
// deletes the payload when an approval expires, and never holds the SSN in plaintext.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Approvals } from '#main/features/team-interfaces/approvals.ts';
import { loadTeamKeys, type TeamKeys } from '#main/team/keys/key-ring.ts';
import {
  approvalsOf as approvalsFor,
  type ClaimsReviewer,
  type ClaimsTeam,
  claimsTeam,
} from '#test/support/team/claims-support.ts';

const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';
const SSN = '771-43-9052';
const FORM = { firstName: 'Ottoline', lastName: 'Brandywine', tin: SSN, type: 'personal' };

/** A desk's four eyes on the store's current data key and audit key, as a desk's runtime holds them. */
const approvalsOf = (reviewer: ClaimsReviewer) => approvalsFor(reviewer, keysOf.get(reviewer) as TeamKeys);

let team: ClaimsTeam;
let ana: ClaimsReviewer;
let lee: ClaimsReviewer;
let kim: ClaimsReviewer;
let customers: string[];
const keysOf = new Map<ClaimsReviewer, TeamKeys>();

beforeAll(async () => {
  team = await claimsTeam();
  [ana, lee, kim] = [await team.reviewer('ana'), await team.reviewer('lee'), await team.reviewer('kim')];
  for (const reviewer of [ana, lee, kim])
    keysOf.set(reviewer, await loadTeamKeys(reviewer.pool, reviewer.teamKey));
  await team.setRole(lee.name, 'lead');
  await team.setRole(kim.name, 'lead');
  customers = await team.addCustomers(8, 'retry');
});

const retryOf = (maker: ClaimsReviewer, customerId: string) =>
  approvalsOf(maker).request('retry', customerId, JSON.stringify(FORM));

describe('four eyes in the team store', () => {
  test('the maker cannot approve their own, even a lead, and the store says so', async () => {
    const asked = await retryOf(lee, customers[0] as string);
    expect(asked).toMatchObject({ state: 'pending', maker: lee.name, kind: 'retry' });
    await expect(approvalsOf(lee).decide(asked.id, true, 'looks right')).rejects.toMatchObject({
      code: 'OwnApproval',
    });
    // Bypassing the desk: the function itself refuses.
    await expect(
      lee.pool.query('SELECT * FROM vetted.approval_decide($1, true, $2)', [asked.id, 'x']),
    ).rejects.toMatchObject({ hint: 'vetted:own-approval' });
    expect((await approvalsOf(kim).get(asked.id))?.state).toBe('pending');
  });

  test('a reviewer cannot approve, through the desk or their own login, nor write the table', async () => {
    const asked = await retryOf(kim, customers[1] as string);
    await expect(approvalsOf(ana).decide(asked.id, true, 'fine by me')).rejects.toMatchObject({
      code: 'LeadOnly',
    });
    await expect(
      ana.pool.query('SELECT * FROM vetted.approval_decide($1, true, $2)', [asked.id, 'x']),
    ).rejects.toMatchObject({ hint: 'vetted:lead-only' });
    await expect(
      ana.pool.query(`UPDATE vetted.approvals SET state = 'approved' WHERE id = $1`, [asked.id]),
    ).rejects.toMatchObject({ code: '42501' });
    expect((await approvalsOf(lee).get(asked.id))?.state).toBe('pending');
  });

  test('of two leads approving at once, exactly one wins and only it gets the payload', async () => {
    const asked = await retryOf(ana, customers[2] as string);
    const results = await Promise.allSettled([
      approvalsOf(lee).decide(asked.id, true, 'checked the passport'),
      approvalsOf(kim).decide(asked.id, true, 'checked the passport'),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'ApprovalSettled' });
    const { approval, payload } = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<Approvals['decide']>>>)
      .value;
    expect(approval).toMatchObject({ state: 'approved', note: 'checked the passport' });
    expect(JSON.parse(payload as string)).toEqual(FORM);
    // A retry's payload left the store with its approver.
    const { rows } = await team.admin.query('SELECT payload FROM vetted.approvals WHERE id = $1', [asked.id]);
    expect(rows).toEqual([{ payload: null }]);
    expect(
      (await team.auditOf('approval.approve')).filter((e) => e.detail?.startsWith(asked.id)),
    ).toHaveLength(1);
  });

  test('an expired approval cannot be decided, and the sweep deletes its payload and audits it', async () => {
    const asked = await retryOf(ana, customers[3] as string);
    // Time passes as the store sees it: the administrator moves the row's clock back a day.
    await team.admin.query(
      `UPDATE vetted.approvals SET requested_at = requested_at - interval '25 hours',
         expires_at = expires_at - interval '25 hours' WHERE id = $1`,
      [asked.id],
    );
    await expect(approvalsOf(lee).decide(asked.id, true, 'too late')).rejects.toMatchObject({
      code: 'ApprovalSettled',
    });
    expect(await approvalsOf(kim).sweep()).toBe(1);
    const { rows } = await team.admin.query('SELECT state, payload FROM vetted.approvals WHERE id = $1', [
      asked.id,
    ]);
    expect(rows).toEqual([{ state: 'expired', payload: null }]);
    expect((await team.auditOf('approval.expire')).map((e) => [e.actor, e.customer_id])).toContainEqual([
      kim.name,
      customers[3],
    ]);
    expect(await approvalsOf(kim).sweep()).toBe(0);
  });

  test('rejected and withdrawn approvals keep no payload; a reviewer cannot withdraw another’s', async () => {
    const rejected = await retryOf(ana, customers[4] as string);
    await approvalsOf(lee).decide(rejected.id, false, 'the address is wrong');
    const withdrawn = await retryOf(ana, customers[5] as string);
    await expect(approvalsOf(kim).cancel(withdrawn.id)).rejects.toMatchObject({ code: 'NotYourApproval' });
    expect(await approvalsOf(ana).cancel(withdrawn.id)).toMatchObject({ state: 'cancelled' });
    const { rows } = await team.admin.query(
      'SELECT state, payload FROM vetted.approvals WHERE id = ANY($1) ORDER BY state',
      [[rejected.id, withdrawn.id]],
    );
    expect(rows).toEqual([
      { state: 'cancelled', payload: null },
      { state: 'rejected', payload: null },
    ]);
    // The payload column cannot hold a settled approval's secret, whoever writes it.
    await expect(
      team.admin.query(`UPDATE vetted.approvals SET payload = 'x' WHERE id = $1`, [rejected.id]),
    ).rejects.toMatchObject({ code: '23514' });
  });

  test('one retry of a case waits at a time', async () => {
    await retryOf(ana, customers[6] as string);
    await expect(retryOf(kim, customers[6] as string)).rejects.toMatchObject({ code: 'AlreadyWaiting' });
  });

  test('the SSN is sealed: the store’s dump holds no trace of it, the maker’s desk opens it', async () => {
    const asked = await retryOf(ana, customers[7] as string);
    const { stdout } = await promisify(execFile)(
      PG_DUMP,
      ['--data-only', '--schema=vetted', team.store.url],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    expect(stdout).toContain('COPY vetted.approvals');
    expect(stdout).toContain(asked.id);
    for (const secret of [SSN, SSN.replaceAll('-', ''), 'Ottoline', 'Brandywine']) {
      expect(stdout.includes(secret), secret).toBe(false);
    }
    expect(JSON.parse((await approvalsOf(lee).payload(asked.id)) as string)).toEqual(FORM);
  });
});

test('the table takes no direct write from a reviewer’s login', async () => {
  await expect(
    ana.pool.query(
      `INSERT INTO vetted.approvals (id, kind, customer_id, expires_at) VALUES (gen_random_uuid(), 'retry', $1, now())`,
      [customers[0]],
    ),
  ).rejects.toMatchObject({ code: '42501' });
});
