// Roles are enforced by the team store itself: a reviewer's own login, connected straight to PostgreSQL
// (no desk in between), tries each lead action in SQL and is refused; a lead's login is not. Approving (four
// eyes) comes later and checks `vetted.require_lead` the same way.
import { beforeAll, describe, expect, it } from 'vitest';
import { LEAD_ONLY_AUDIT_ACTIONS } from '#contract/audit-actions.ts';
import { insertAuditRow } from '../support/audit-rows.ts';
import { type ClaimsReviewer, type ClaimsTeam, holderOf, reviewersAndALead, take } from './claims-support.ts';

const LEAD_ONLY = { code: '42501', hint: 'vetted:lead-only' };
const NO_GRANT = { code: '42501', message: expect.stringMatching(/^permission denied for (table|function)/) };

let team: ClaimsTeam;
let ana: ClaimsReviewer;
let ben: ClaimsReviewer;
let lee: ClaimsReviewer;
let caseId: string;

beforeAll(async () => {
  ({ team, ana, ben, lee } = await reviewersAndALead());
  [caseId] = (await team.addCustomers(1)) as [string];
  await take(ben, caseId);
});

describe('a reviewer’s login, bypassing the desk', () => {
  it('cannot reassign a case or take one over', async () => {
    await expect(
      ana.pool.query('SELECT * FROM vetted.claim_reassign($1, $2, $3)', [caseId, ana.name, 'n']),
    ).rejects.toMatchObject(LEAD_ONLY);
    await expect(
      ana.pool.query('SELECT * FROM vetted.claim_take_over($1, $2)', [caseId, 'mine now']),
    ).rejects.toMatchObject(LEAD_ONLY);
    expect(await holderOf(team, caseId)).toBe(ben.name);
  });

  it('cannot write claims, roles or team settings directly', async () => {
    await expect(ana.pool.query(`UPDATE vetted.claims SET holder = $1`, [ana.name])).rejects.toMatchObject(
      NO_GRANT,
    );
    await expect(ana.pool.query('DELETE FROM vetted.claims')).rejects.toMatchObject(NO_GRANT);
    await expect(
      ana.pool.query(
        `INSERT INTO vetted.claims (customer_id, seq, holder, since, touched_at, expires_at, how, changed_by, changed_at)
         VALUES ('c-9', 1, $1, now(), now(), now(), 'take', $1, now())`,
        [ana.name],
      ),
    ).rejects.toMatchObject(NO_GRANT);
    await expect(
      ana.pool.query(`INSERT INTO vetted.reviewer_roles (login, role) VALUES ($1, 'lead')`, [ana.name]),
    ).rejects.toMatchObject(NO_GRANT);
    await expect(
      ana.pool.query(`UPDATE vetted.reviewer_roles SET role = 'lead' WHERE login = $1`, [lee.name]),
    ).rejects.toMatchObject(NO_GRANT);
    await expect(ana.pool.query(`UPDATE vetted.team_settings SET value = '1'`)).rejects.toMatchObject(
      NO_GRANT,
    );
    expect(await holderOf(team, caseId)).toBe(ben.name);
  });

  it('cannot change a team setting', async () => {
    await expect(
      ana.pool.query(`SELECT vetted.set_team_setting('claim_idle_minutes', '1')`),
    ).rejects.toMatchObject(LEAD_ONLY);
    const { rows } = await team.admin.query(
      `SELECT value FROM vetted.team_settings WHERE name = 'claim_idle_minutes'`,
    );
    expect(rows).toEqual([{ value: 30 }]);
  });

  it('cannot record a lead’s action (an export with names, a stored image removed…) in the audit log', async () => {
    for (const action of LEAD_ONLY_AUDIT_ACTIONS) {
      // Linked after the head and sealed with the team key, as a desk appends: refused all the same.
      await expect(insertAuditRow(ana.pool, { action }, ana.teamKey), action).rejects.toMatchObject(
        LEAD_ONLY,
      );
      // Not linked at all: the lead-only check fires before the chain's (triggers fire by name).
      await expect(
        ana.pool.query(`INSERT INTO vetted.audit_log (at, action, outcome) VALUES (now(), $1, 'ok')`, [
          action,
        ]),
        action,
      ).rejects.toMatchObject(LEAD_ONLY);
    }
    expect(await team.auditOf('queue.exportNames')).toEqual([]);
  });

  it('is refused exactly the actions the contract calls a lead’s (the store’s trigger lists the same)', async () => {
    const { rows } = await team.admin.query<{ def: string }>(
      `SELECT pg_get_functiondef('vetted.audit_log_lead_only'::regproc) AS def`,
    );
    const array = /ANY \(ARRAY\[([^\]]*)\]\)/.exec(rows[0]?.def ?? '')?.[1] ?? '';
    const listed = [...array.matchAll(/'([^']+)'/g)].map((match) => match[1]);
    expect(listed.toSorted()).toEqual([...LEAD_ONLY_AUDIT_ACTIONS].toSorted());
  });

  it('cannot call the store’s internal claim functions, which skip the checks', async () => {
    await expect(
      ana.pool.query(`SELECT vetted.hand_over($1, $2, 'reassign', NULL)`, [caseId, ana.name]),
    ).rejects.toMatchObject(NO_GRANT);
    await expect(ana.pool.query('SELECT vetted.expire_claims(NULL, 1)')).rejects.toMatchObject(NO_GRANT);
    await expect(ana.pool.query('SELECT vetted.draw_change()')).rejects.toMatchObject(NO_GRANT);
    await expect(
      ana.pool.query(`SELECT vetted.write_claim($1, 1, $2, 'take', NULL, false)`, [caseId, ana.name]),
    ).rejects.toMatchObject(NO_GRANT);
  });

  it('still does a reviewer’s part: takes, releases, sweeps, reads roles and reviewers', async () => {
    const [own] = await team.addCustomers(1, 'retry', 50);
    expect(await take(ana, own!)).toEqual({ outcome: 'taken', holder: ana.name });
    expect(await ana.store.release(own!)).toMatchObject({ outcome: 'released' });
    expect(await ana.store.expire()).toBe(0);
    const { rows } = await ana.pool.query('SELECT login, role FROM vetted.team_reviewers()');
    expect(rows).toEqual(
      expect.arrayContaining([
        { login: ana.name, role: 'reviewer' },
        { login: lee.name, role: 'lead' },
      ]),
    );
    const me = await ana.pool.query('SELECT vetted.role_of(session_user) AS role');
    expect(me.rows).toEqual([{ role: 'reviewer' }]);
  });
});

describe('a lead’s login', () => {
  it('does each of those lead actions', async () => {
    await lee.store.reassign(caseId, ana.name, 'n');
    expect(await holderOf(team, caseId)).toBe(ana.name);
    await lee.store.takeOver(caseId, 'r');
    expect(await holderOf(team, caseId)).toBe(lee.name);
    await lee.store.setSetting('claim_idle_minutes', 45);
    for (const action of LEAD_ONLY_AUDIT_ACTIONS) await insertAuditRow(lee.pool, { action }, lee.teamKey);
    expect((await team.auditOf('queue.exportNames')).map((row) => row.actor)).toEqual([lee.name]);
  });

  it('is a reviewer again once the administrator says so, at once', async () => {
    const [other] = await team.addCustomers(1, 'retry', 60);
    await team.setRole(lee.name, 'reviewer');
    await expect(
      lee.pool.query('SELECT * FROM vetted.claim_take_over($1, $2)', [other, 'r']),
    ).rejects.toMatchObject(LEAD_ONLY);
    await team.setRole(lee.name, 'lead');
    // (The lead's own bare 'team.setRole' row of the test before has no detail.)
    const changes = (await team.auditOf('team.setRole')).filter((row) => row.detail !== null);
    expect(changes.map((row) => row.detail)).toEqual([
      `${lee.name}: reviewer → lead`,
      `${lee.name}: lead → reviewer`,
      `${lee.name}: reviewer → lead`,
    ]);
  });

  it('cannot give itself a role: only the administrator sets roles', async () => {
    await expect(
      lee.pool.query(`UPDATE vetted.reviewer_roles SET role = 'lead' WHERE login = $1`, [ana.name]),
    ).rejects.toMatchObject(NO_GRANT);
  });
});
