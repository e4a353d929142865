// Team store migration 7 (#28): claims, reviewer roles and team settings, each change audited in the chain
// by whoever makes it, in its own transaction (the store refuses the commit otherwise).
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import type { AuditAction } from '#contract/audit-actions.ts';
import { type AuditSealer, auditSealer } from '#main/data/journal/audit-chain.ts';
import { chainChecker } from '#main/data/journal/audit-verify.ts';
import { appendAuditEntry, LINKED_COLUMNS, LinkedRowSchema } from '#main/team/journal/audit.ts';
import { parseRows } from '#main/team/journal/rows.ts';
import { CLAIMS_ROLES } from '#main/team/store/migrations/07-claims-roles.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { insertAuditRow } from '#test/support/team/audit-rows.ts';
import { applyMigration, reviewerOf, storeAt } from './at-version.ts';

const UNAUDITED = { code: '23000', hint: 'vetted:unaudited' };

interface Due {
  action: AuditAction;
  customerId: string | null;
  detail: string | null;
}

/** Version 6 as desks left it: a team, a customer, an entry in the chain. */
async function beforeClaims(): Promise<{ client: pg.Client; teamKey: Buffer; sealer: AuditSealer }> {
  const client = await storeAt(CLAIMS_ROLES.version - 1);
  const teamKey = createTeamKey();
  const sealer = auditSealer(teamKey);
  await client.query(`
    INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES (gen_random_uuid(), 'k', 'nobody_reviewers');
    INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at, profile)
    VALUES ('c-1', 1, 'retry', 'retry', now(), now(), now(), now(), 'sealed'),
           ('c-2', 2, 'retry', 'retry', now(), now(), now(), now(), 'sealed');`);
  await append(client, sealer, [{ action: 'note.add', customerId: 'c-1', detail: null }]);
  return { client, teamKey, sealer };
}

async function append(client: pg.Client, sealer: AuditSealer, entries: readonly Due[]) {
  for (const due of entries) {
    await appendAuditEntry(client, sealer, { at: new Date().toISOString(), outcome: 'ok', ...due });
  }
}

/** One transaction: `sql`'s answer, then (unless told not to) the entries it says are due, appended. */
async function call(
  client: pg.Client,
  sealer: AuditSealer,
  sql: string,
  appendDue: (due: Due[]) => Due[] = (d) => d,
) {
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ audit: Due[] }>(sql);
    await append(client, sealer, appendDue(rows[0]!.audit));
    await client.query('COMMIT');
    return rows[0]!;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

const actions = async (client: pg.Client) =>
  (await client.query('SELECT action, customer_id FROM vetted.audit_log ORDER BY seq')).rows;

describe('team store migration 7: claims, reviewer roles and team settings, each change audited', () => {
  test('adds claims (none held), roles (everyone a reviewer) and the idle setting (30 min), keeping the rows', async () => {
    const { client } = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    expect((await client.query('SELECT * FROM vetted.claims')).rows).toEqual([]);
    expect((await client.query('SELECT * FROM vetted.reviewer_roles')).rows).toEqual([]);
    expect((await client.query('SELECT name, value FROM vetted.team_settings')).rows).toEqual([
      { name: 'claim_idle_minutes', value: 30 },
    ]);
    expect(await actions(client)).toEqual([{ action: 'note.add', customer_id: 'c-1' }]);
    expect((await client.query(`SELECT vetted.role_of('someone_else') AS role`)).rows).toEqual([
      { role: 'reviewer' },
    ]);
    // A later migration seeds a setting of its own: no entry (it has no key to seal one with).
    await client.query(`INSERT INTO vetted.team_settings (name, value) VALUES ('a_later_setting', '1')`);
  });

  test('lets the administrator claim and change settings as a lead does, each change’s entries in the chain', async () => {
    const { client, teamKey, sealer } = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    expect((await client.query('SELECT vetted.role_of(session_user) AS role')).rows).toEqual([
      { role: 'administrator' },
    ]);
    const taken = await call(client, sealer, `SELECT * FROM vetted.claim_take('c-1')`);
    expect(taken).toMatchObject({
      outcome: 'taken',
      customer_id: 'c-1',
      audit: [{ action: 'claim.take', customerId: 'c-1', detail: 'take' }],
    });
    const setting = await call(
      client,
      sealer,
      `SELECT vetted.set_team_setting('claim_idle_minutes', '10') AS audit`,
    );
    expect(setting.audit).toEqual([
      { action: 'team.setting', customerId: null, detail: 'claim_idle_minutes: 30 → 10' },
    ]);
    await insertAuditRow(client, { action: 'queue.exportNames' }, teamKey);
    expect(await actions(client)).toEqual([
      { action: 'note.add', customer_id: 'c-1' },
      { action: 'claim.take', customer_id: 'c-1' },
      { action: 'team.setting', customer_id: null },
      { action: 'queue.exportNames', customer_id: null },
    ]);
    const checker = chainChecker({ sealer, whole: true });
    const linked = (await client.query(`SELECT ${LINKED_COLUMNS} FROM vetted.audit_log ORDER BY seq`)).rows;
    for (const entry of parseRows(LinkedRowSchema, 'audit_log', linked)) checker.add(entry);
    const head = (await client.query('SELECT seq, chain_hash FROM vetted.audit_head')).rows[0];
    expect(checker.finish({ seq: Number(head.seq), chainHash: head.chain_hash })).toMatchObject({
      entries: 4,
    });
  });

  test('refuses at the commit a claim or setting changed without its entry, or with one for something else', async () => {
    const { client, sealer } = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    const none = () => [];
    await expect(call(client, sealer, `SELECT * FROM vetted.claim_take('c-1')`, none)).rejects.toMatchObject({
      ...UNAUDITED,
      message: 'Every change to claims is audited in its transaction: c-1 has no claim.take entry.',
    });
    const elsewhere = (due: Due[]) => due.map((entry) => ({ ...entry, customerId: 'c-2' }));
    await expect(
      call(client, sealer, `SELECT * FROM vetted.claim_take('c-1')`, elsewhere),
    ).rejects.toMatchObject(UNAUDITED);
    const another = (due: Due[]): Due[] => due.map((entry) => ({ ...entry, action: 'claim.release' }));
    await expect(
      call(client, sealer, `SELECT * FROM vetted.claim_take('c-1')`, another),
    ).rejects.toMatchObject(UNAUDITED);
    await expect(
      call(client, sealer, `SELECT vetted.set_team_setting('claim_idle_minutes', '10') AS audit`, none),
    ).rejects.toMatchObject({
      ...UNAUDITED,
      message:
        'Every change to team_settings is audited in its transaction: claim_idle_minutes has no team.setting entry.',
    });
    // Nothing of it stayed: no claim, the setting as it was, the chain as it was.
    expect((await client.query('SELECT * FROM vetted.claims')).rows).toEqual([]);
    expect((await client.query('SELECT value FROM vetted.team_settings')).rows).toEqual([{ value: 30 }]);
    expect(await actions(client)).toEqual([{ action: 'note.add', customer_id: 'c-1' }]);
  });

  test('refuses a setting out of its range, and one no migration made', async () => {
    const { client, sealer } = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    const set = (value: string, name = 'claim_idle_minutes') =>
      call(client, sealer, `SELECT vetted.set_team_setting('${name}', '${value}') AS audit`);
    await expect(set('0')).rejects.toMatchObject({ code: '23514' });
    await expect(set('2.5')).rejects.toMatchObject({ code: '23514' });
    await expect(set('"red"', 'colour')).rejects.toMatchObject({ code: '22023' });
  });

  test('refuses a lead’s entry from a reviewer before the chain moves: its check fires first on the audit log', async () => {
    const { client } = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    const { rows } = await client.query(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'vetted.audit_log'::regclass AND NOT tgisinternal
        AND tgtype & 2 = 2 AND tgtype & 4 = 4 ORDER BY tgname`,
    );
    // BEFORE INSERT triggers fire in name order: the lead-only check, then the link, then the stamp.
    expect(rows.map((row) => row.tgname)).toEqual([
      'audit_log_lead_only',
      'audit_log_link',
      'audit_log_stamp',
    ]);
    const dora = await reviewerOf(client, 'dora', [
      'INSERT ON vetted.audit_log',
      'EXECUTE ON FUNCTION vetted.audit_chain_head()',
    ]);
    await expect(insertAuditRow(dora, { action: 'queue.exportNames' })).rejects.toMatchObject({
      code: '42501',
      hint: 'vetted:lead-only',
    });
    expect(await insertAuditRow(dora, { action: 'note.add' })).toEqual({ seq: 2, actor: dora.login });
  });
});
