// No claim changes unaudited (team store migration 7): the store cannot write an audit entry (it cannot seal
// one), so whoever calls a claim function appends the entries it answers in the same transaction, as the desk
// does (main/team/claims/claim-store.ts). A reviewer's own login calling the functions straight, with no desk
// in between, has the change refused at the commit unless they append those entries too, linked and sealed.
import { beforeAll, describe, expect, it } from 'vitest';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import { runTeam } from '#test/support/team/admin-support.ts';
import {
  type ClaimsReviewer,
  type ClaimsTeam,
  holderOf,
  reviewersAndALead,
  take,
} from '#test/support/team/claims-support.ts';

const UNAUDITED = { code: '23000', hint: 'vetted:unaudited' };

let team: ClaimsTeam;
let ana: ClaimsReviewer;
let ben: ClaimsReviewer;
let lee: ClaimsReviewer;
let serial = 0;

beforeAll(async () => {
  ({ team, ana, ben, lee } = await reviewersAndALead());
});

const aCase = async () => (await team.addCustomers(1, 'document', ++serial))[0]!;

describe('a reviewer’s login calling the claim functions straight', () => {
  it('changes nothing without the entries: a take, a release, a sweep, a lead’s reassign and take-over', async () => {
    const id = await aCase();
    await expect(ana.pool.query('SELECT * FROM vetted.claim_take($1)', [id])).rejects.toMatchObject({
      ...UNAUDITED,
      message: `Every change to claims is audited in its transaction: ${id} has no claim.take entry.`,
    });
    expect(await holderOf(team, id)).toBeNull();

    await take(ana, id);
    await expect(ana.pool.query('SELECT * FROM vetted.claim_release($1)', [id])).rejects.toMatchObject(
      UNAUDITED,
    );
    await expect(
      lee.pool.query('SELECT * FROM vetted.claim_reassign($1, $2, $3)', [id, ben.name, 'n']),
    ).rejects.toMatchObject(UNAUDITED);
    await expect(
      lee.pool.query('SELECT * FROM vetted.claim_take_over($1, $2)', [id, 'r']),
    ).rejects.toMatchObject(UNAUDITED);
    await team.ageClaim(id, 31);
    await expect(ben.pool.query('SELECT vetted.claims_expire()')).rejects.toMatchObject(UNAUDITED);
    await expect(ben.pool.query('SELECT * FROM vetted.claim_next($1)', [['document']])).rejects.toMatchObject(
      UNAUDITED,
    );
    expect(await holderOf(team, id)).toBe(ana.name);
    expect((await team.auditOf('claim.take')).filter((row) => row.customer_id === id)).toHaveLength(1);
  });

  it('cannot have the check run before the entries exist and pass: asked for at once, it refuses at once', async () => {
    const id = await aCase();
    await expect(
      inTransaction(ana.pool, async (client) => {
        await client.query('SET CONSTRAINTS ALL IMMEDIATE');
        await client.query('SELECT * FROM vetted.claim_take($1)', [id]);
      }),
    ).rejects.toMatchObject(UNAUDITED);
    expect(await holderOf(team, id)).toBeNull();
  });

  it('needs no entry for the holder’s own touch (their idle time starting again)', async () => {
    const id = await aCase();
    await take(ana, id);
    const { rows } = await ana.pool.query(`SELECT outcome FROM vetted.claim_take($1, 'action')`, [id]);
    expect(rows).toEqual([{ outcome: 'held' }]);
  });

  it('commits when the entries the function answers are appended in its transaction, as the desk does', async () => {
    const id = await aCase();
    const sealer = auditSealer(ben.teamKey);
    await inTransaction(ben.pool, async (client) => {
      const { rows } = await client.query('SELECT * FROM vetted.claim_take($1)', [id]);
      for (const due of rows[0].audit) {
        await appendAuditEntry(client, sealer, { at: new Date().toISOString(), outcome: 'ok', ...due });
      }
    });
    expect(await holderOf(team, id)).toBe(ben.name);
    expect((await team.auditOf('claim.take')).filter((row) => row.customer_id === id)).toEqual([
      { actor: ben.name, customer_id: id, detail: 'take' },
    ]);
    // Every entry of this file's store, the desks' and the administrator's, is linked and sealed.
    const verified = await runTeam(
      'verify-audit',
      '--database',
      team.store.url,
      '--key-file',
      team.store.keyFile,
    );
    expect(verified.out).toMatch(/^OK: the audit log holds\./);
  });
});
