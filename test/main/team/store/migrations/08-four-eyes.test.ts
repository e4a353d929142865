// Team store migration 8 (#28): four eyes. The setting arrives off, the table empty; an approval is asked,
// decided and finished only through the functions, each change audited in its transaction.
import { describe, expect, test } from 'vitest';
import type { AuditAction } from '#contract/audit-actions.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { FOUR_EYES } from '#main/team/store/migrations/08-four-eyes.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { applyMigration, storeAt } from './at-version.ts';

const UNAUDITED = { code: '23000', hint: 'vetted:unaudited' };

async function beforeFourEyes() {
  const client = await storeAt(FOUR_EYES.version - 1);
  const sealer = auditSealer(createTeamKey());
  await client.query(`
    INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES (gen_random_uuid(), 'k', 'nobody_reviewers');
    INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at, profile)
    VALUES ('c-1', 1, 'retry', 'retry', now(), now(), now(), now(), 'sealed');`);
  return { client, sealer };
}

describe('team store migration 8: four eyes', () => {
  test('adds the setting (off, 24 h) beside the claims’ and an empty approvals table', async () => {
    const { client } = await beforeFourEyes();
    await applyMigration(client, FOUR_EYES.version);
    expect((await client.query('SELECT name, value FROM vetted.team_settings ORDER BY name')).rows).toEqual([
      { name: 'claim_idle_minutes', value: 30 },
      { name: 'four_eyes', value: { retry: false, exportNames: false, expiryHours: 24 } },
    ]);
    expect((await client.query('SELECT * FROM vetted.approvals')).rows).toEqual([]);
    expect((await client.query(`SELECT count(*)::int AS n FROM vetted.customers`)).rows).toEqual([{ n: 1 }]);
  });

  test('the setting takes only its three values, in range', async () => {
    const { client } = await beforeFourEyes();
    await applyMigration(client, FOUR_EYES.version);
    for (const bad of [
      '{"retry": true, "exportNames": false}',
      '{"retry": "yes", "exportNames": false, "expiryHours": 24}',
      '{"retry": true, "exportNames": false, "expiryHours": 0}',
      '{"retry": true, "exportNames": false, "expiryHours": 24, "more": 1}',
    ]) {
      // The value's check comes before the commit's audit check: no entry needed to see it refused.
      await expect(
        client.query(`UPDATE vetted.team_settings SET value = $1 WHERE name = 'four_eyes'`, [bad]),
      ).rejects.toMatchObject({ code: '23514', constraint: 'four_eyes' });
    }
  });

  test('an approval asked is audited in its transaction, or the store refuses the commit', async () => {
    const { client, sealer } = await beforeFourEyes();
    await applyMigration(client, FOUR_EYES.version);
    const ask = `SELECT vetted.approval_request(gen_random_uuid(), 'retry', 'c-1', 'sealed-payload') AS audit`;
    await expect(client.query(ask)).rejects.toMatchObject(UNAUDITED);
    await client.query('BEGIN');
    const { rows } = await client.query<{
      audit: Array<{ action: AuditAction; customerId: string; detail: string }>;
    }>(ask);
    for (const due of rows[0]!.audit) {
      await appendAuditEntry(client, sealer, { at: new Date().toISOString(), outcome: 'ok', ...due });
    }
    await client.query('COMMIT');
    expect(rows[0]!.audit).toEqual([
      {
        action: 'approval.request',
        customerId: 'c-1',
        detail: expect.stringMatching(/^[0-9a-f-]{36}: retry · expires /),
      },
    ]);
    const { rows: stored } = await client.query(
      `SELECT state, payload, extract(epoch FROM expires_at - requested_at)::int AS waits FROM vetted.approvals`,
    );
    expect(stored).toEqual([{ state: 'pending', payload: 'sealed-payload', waits: 24 * 3600 }]);
  });
});
