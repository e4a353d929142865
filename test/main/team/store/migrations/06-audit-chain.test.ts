// Team store migration 6: the audit log as a sealed hash chain.
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { auditSealer, GENESIS_HASH, linkAfter } from '#main/data/journal/audit-chain.ts';
import { chainChecker } from '#main/data/journal/audit-verify.ts';
import { LINKED_COLUMNS, LinkedRowSchema } from '#main/team/journal/audit.ts';
import { parseRows } from '#main/team/journal/rows.ts';
import { AUDIT_CHAIN } from '#main/team/store/migrations/06-audit-chain.ts';
import { TEAM_MIGRATIONS } from '#main/team/store/migrations/index.ts';
import { applyTeamMigrations, teamSchemaVersion } from '#main/team/store/migrations/runner.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { applyMigration, storeAt } from './at-version.ts';

describe('team store migration 6: the audit log as a sealed hash chain', () => {
  const before = AUDIT_CHAIN.version - 1;

  /** The version before's audit log as desks wrote it: a gap where an insert rolled back, a time in µs. */
  async function withEntries(): Promise<pg.Client> {
    const client = await storeAt(before);
    await client.query(`
      INSERT INTO vetted.audit_log (seq, at, action, customer_id, outcome, detail) VALUES
        (1, '2026-01-01T10:00:00.123456Z', 'customer.create', 'c-1', 'ok', 'draft d-1'),
        (2, '2026-01-01T11:00:00.000Z', 'note.add', 'c-1', 'ok', NULL),
        (4, '2026-01-02T09:30:00.500Z', 'personal.reveal', 'c-1', 'ok', 'Reason: a call');
    `);
    return client;
  }
  const linkedRows = async (client: pg.Client) =>
    parseRows(
      LinkedRowSchema,
      'audit_log',
      (await client.query(`SELECT ${LINKED_COLUMNS} FROM vetted.audit_log ORDER BY seq`)).rows,
    );
  const headOf = async (client: pg.Client) => {
    const { rows } = await client.query<{ seq: string; chain_hash: string }>(
      'SELECT seq, chain_hash FROM vetted.audit_head',
    );
    return { seq: Number(rows[0]!.seq), chainHash: rows[0]!.chain_hash };
  };
  async function verdict(client: pg.Client, teamKey: Buffer) {
    const checker = chainChecker({ sealer: auditSealer(teamKey), whole: true });
    for (const entry of await linkedRows(client)) checker.add(entry);
    return checker.finish(await headOf(client));
  }

  test('chains the entries there were, in seq order, sealed with the team key; an entry records it', async () => {
    const client = await withEntries();
    const teamKey = createTeamKey();
    expect(
      await applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, AUDIT_CHAIN.version), { teamKey }),
    ).toEqual({ from: before, to: AUDIT_CHAIN.version });

    const entries = await linkedRows(client);
    const me = (await client.query<{ me: string }>('SELECT session_user AS me')).rows[0]!.me;
    expect(entries.map(({ seq, at, actor, action }) => ({ seq, at, actor, action }))).toEqual([
      // Times are kept to the millisecond, as desks write them: the hash covers exactly what is stored.
      { seq: 1, at: '2026-01-01T10:00:00.123Z', actor: me, action: 'customer.create' },
      { seq: 2, at: '2026-01-01T11:00:00.000Z', actor: me, action: 'note.add' },
      { seq: 4, at: '2026-01-02T09:30:00.500Z', actor: me, action: 'personal.reveal' },
      { seq: 5, at: expect.any(String), actor: me, action: 'audit.chain' },
    ]);
    expect(entries[3]!.detail).toBe(
      'The audit chain begins: the 3 entries before this one were chained as they stood.',
    );
    expect(await headOf(client)).toEqual({ seq: 5, chainHash: entries[3]!.link.chainHash });
    expect(await verdict(client, teamKey)).toMatchObject({ entries: 4, sealed: true });
    await expect(verdict(client, createTeamKey())).rejects.toThrow(/does not carry the audit key's seal/);
  });

  test('refuses, in words, to chain entries without the team key, and leaves the store as it was', async () => {
    const client = await withEntries();
    await expect(applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, AUDIT_CHAIN.version))).rejects.toThrow(
      /failed and was rolled back\. It chains and seals the audit entries .* --key-file FILE/,
    );
    expect(await teamSchemaVersion(client)).toBe(before);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = 'vetted' AND table_name = 'audit_log' AND column_name = 'seal'`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  test('starts an empty log at the zero hash, with no entry and no key needed', async () => {
    const client = await storeAt(before);
    await applyMigration(client, AUDIT_CHAIN.version);
    expect(await headOf(client)).toEqual({ seq: 0, chainHash: GENESIS_HASH });
    expect((await client.query('SELECT * FROM vetted.audit_log')).rows).toEqual([]);
  });

  test('keeps the log append-only, and lets an entry in only after the head, its chain hash right', async () => {
    const client = await withEntries();
    const teamKey = createTeamKey();
    await applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, AUDIT_CHAIN.version), { teamKey });
    await expect(client.query(`UPDATE vetted.audit_log SET outcome = 'x'`)).rejects.toThrow(/append-only/);
    await expect(client.query('DELETE FROM vetted.audit_log')).rejects.toThrow(/append-only/);

    const head = await headOf(client);
    const entry = {
      seq: head.seq + 1,
      at: new Date().toISOString(),
      actor: 'x',
      action: 'a',
      customerId: null,
      outcome: 'ok',
      detail: null,
    };
    const link = linkAfter(head.chainHash, entry, auditSealer(teamKey));
    const insert = (seq: number, prev: string, chain = link.chainHash) =>
      client.query(
        `INSERT INTO vetted.audit_log (seq, at, action, outcome, hash_version, prev_hash, content_hash, chain_hash, seal)
         VALUES ($1, now(), 'a', 'ok', 1, $2, $3, $4, $5)`,
        [seq, prev, link.contentHash, chain, link.seal],
      );
    await expect(insert(head.seq, head.chainHash)).rejects.toThrow(/must follow the chain's head, entry 5/);
    await expect(insert(head.seq + 1, GENESIS_HASH)).rejects.toThrow(/must follow the chain's head/);
    await expect(insert(head.seq + 1, head.chainHash, GENESIS_HASH)).rejects.toThrow(/chain hash is SHA-256/);
    await expect(
      client.query(`INSERT INTO vetted.audit_log (at, action, outcome) VALUES (now(), 'a', 'ok')`),
    ).rejects.toThrow(/must follow the chain's head/);
    await insert(head.seq + 1, head.chainHash);
    expect(await headOf(client)).toEqual({ seq: head.seq + 1, chainHash: link.chainHash });
  });
});
