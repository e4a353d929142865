// Team store migration 12 (#37): audit keys that begin where the chain says. A store never rotated keeps its
// first audit key and refuses an entry under any other; a store rotated before the migration has a new one
// begun (it needs the key file), after which the whole chain verifies stretch by stretch.
import { describe, expect, test } from 'vitest';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { chainChecker } from '#main/data/journal/audit-verify.ts';
import { appendAuditEntry, LINKED_COLUMNS, LinkedRowSchema } from '#main/team/journal/audit.ts';
import { parseRows } from '#main/team/journal/rows.ts';
import { auditStretches } from '#main/team/keys/audit-keys.ts';
import { ensureEnvelopeKeys, loadKeyRing, unwrapKey, wrapKey } from '#main/team/keys/key-ring.ts';
import { AUDIT_KEYS } from '#main/team/store/migrations/12-audit-keys.ts';
import { TEAM_MIGRATIONS } from '#main/team/store/migrations/index.ts';
import { applyTeamMigrations } from '#main/team/store/migrations/runner.ts';
import { createTeamKey, teamKeyCheck } from '#main/team/team-key.ts';
import { applyMigration, storeAt, versionBefore } from './at-version.ts';

const entry = (detail: string) => ({
  at: new Date().toISOString(),
  action: 'note.add' as const,
  customerId: null,
  outcome: 'ok',
  detail,
});

/** A store as the migration before 13 left it, with envelope keys of `teamKey` and two entries. */
async function before13(teamKey: Buffer) {
  const client = await storeAt(versionBefore(AUDIT_KEYS.version));
  await client.query(
    `INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES (gen_random_uuid(), $1, 'nobody_reviewers')`,
    [teamKeyCheck(teamKey)],
  );
  await ensureEnvelopeKeys(client, teamKey);
  for (const detail of ['one', 'two']) await appendAuditEntry(client, auditSealer(teamKey), entry(detail));
  return client;
}

describe('team store migration 12: audit keys', () => {
  test('a store never rotated keeps its first audit key, and refuses an entry under another', async () => {
    const teamKey = createTeamKey();
    const client = await before13(teamKey);
    await applyMigration(client, AUDIT_KEYS.version);
    expect((await client.query('SELECT vetted.current_audit_key() AS id')).rows).toEqual([{ id: 'audit' }]);
    const ring = await loadKeyRing(client, teamKey);
    const sealer = { ...auditSealer(teamKey), keyId: 'audit' };
    await appendAuditEntry(client, sealer, entry('three'));
    await expect(
      appendAuditEntry(client, { ...sealer, keyId: 'a-older' }, entry('four')),
    ).rejects.toMatchObject({ code: '23000', hint: 'vetted:stale-team-key' });
    expect(ring.audit.map(({ id, from }) => ({ id, from }))).toEqual([{ id: 'audit', from: 0 }]);
  });

  test('a store rotated before it gets a new audit key, with the key file only; the chain then verifies', async () => {
    const first = createTeamKey();
    const client = await before13(first);
    // A rotation as migration 9's rotate-key made it: the keys re-wrapped, the audit key unchanged.
    const rotated = createTeamKey();
    for (const row of (await client.query('SELECT key_id, wrapped FROM vetted.team_keys')).rows) {
      await client.query('UPDATE vetted.team_keys SET wrapped = $2 WHERE key_id = $1', [
        row.key_id,
        wrapKey(rotated, row.key_id, unwrapKey(first, row.key_id, row.wrapped)),
      ]);
    }
    await client.query('UPDATE vetted.team_meta SET key_check = $1', [teamKeyCheck(rotated)]);
    await client.query('INSERT INTO vetted.retired_team_keys (key_check) VALUES ($1)', [teamKeyCheck(first)]);
    await appendAuditEntry(client, auditSealer(first), entry('after the rotation'));

    const upTo12 = TEAM_MIGRATIONS.filter((m) => m.version <= AUDIT_KEYS.version);
    await expect(applyTeamMigrations(client, upTo12)).rejects.toThrow(/migrate --key-file FILE/);
    await applyTeamMigrations(client, upTo12, { teamKey: rotated });

    const ring = await loadKeyRing(client, rotated);
    expect(ring.audit.map(({ id, from }) => ({ id, from }))).toEqual([
      { id: 'audit', from: 0 },
      { id: expect.stringMatching(/^a/), from: 4 },
    ]);
    const { rows } = await client.query(`SELECT ${LINKED_COLUMNS} FROM vetted.audit_log ORDER BY seq`);
    const checker = chainChecker({ keys: auditStretches(ring, rotated), whole: true });
    for (const linked of parseRows(LinkedRowSchema, 'audit_log', rows)) checker.add(linked);
    const head = (await client.query('SELECT seq, chain_hash FROM vetted.audit_head')).rows[0];
    expect(checker.finish({ seq: Number(head.seq), chainHash: head.chain_hash })).toMatchObject({
      entries: 4,
    });
    expect(rows.at(-1)).toMatchObject({ action: 'audit.key', seq: '4' });
  });
});
