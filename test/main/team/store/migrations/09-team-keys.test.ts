// Team store migration 9 (#30): wrapped envelope keys, values refused under a key that is not the current
// one, retired key checks, single-use join codes spent by their own reviewer only.
import { describe, expect, test } from 'vitest';
import { personalCipher } from '#main/data/journal/personal.ts';
import { codeSecretHash, newCodeUse } from '#main/team/join-code.ts';
import { ensureEnvelopeKeys, loadKeyRing, teamKeys } from '#main/team/keys/key-ring.ts';
import { createTeamKey, teamKeyCheck } from '#main/team/team-key.ts';
import { applyMigration, reviewerOf, storeAt } from './at-version.ts';

const STALE = { code: '23000', hint: 'vetted:stale-team-key' };
const customer = (id: string, profile: string) =>
  `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at, profile)
   VALUES ('${id}', 1, 'retry', 'retry', now(), now(), now(), now(), '${profile}')`;

describe('team store migration 9: envelope keys and single-use join codes', () => {
  test('rows sealed under the team key stay and open; once a data key exists, new values must use it', async () => {
    const client = await storeAt(8);
    const teamKey = createTeamKey();
    await client.query(
      `INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES (gen_random_uuid(), $1, 'r')`,
      [teamKeyCheck(teamKey)],
    );
    const legacy = personalCipher(teamKey).seal(
      { table: 'customers', id: 'c-1', column: 'profile' },
      '{"a":1}',
    );
    await client.query(customer('c-1', legacy));
    await applyMigration(client, 9);

    // Migrated without the key file: no data key yet, the team key keeps sealing (as before).
    expect((await client.query('SELECT count(*)::int AS n FROM vetted.team_keys')).rows[0].n).toBe(0);
    await client.query(customer('c-2', legacy));
    const before = teamKeys(teamKey, await loadKeyRing(client, teamKey));
    expect(before.cipher.open({ table: 'customers', id: 'c-1', column: 'profile' }, legacy)).toBe('{"a":1}');

    await ensureEnvelopeKeys(client, teamKey);
    const keys = teamKeys(teamKey, await loadKeyRing(client, teamKey));
    // The audit key is the one the team key derived: the chain's seals do not change.
    expect(keys.sealer.keyCheck).toBe(before.sealer.keyCheck);
    const sealed = keys.cipher.seal({ table: 'customers', id: 'c-3', column: 'profile' }, '{"b":2}');
    expect(sealed).toMatch(/^d[a-z0-9]+-[0-9a-f]{8}:v1\./);
    await client.query(customer('c-3', sealed));
    await expect(client.query(customer('c-4', legacy))).rejects.toMatchObject(STALE);
    await expect(
      client.query(`UPDATE vetted.customers SET profile = 'other:v1.x' WHERE id = 'c-1'`),
    ).rejects.toMatchObject(STALE);
    // A row touched without its sealed value changing keeps what it holds until it is resealed.
    await client.query(`UPDATE vetted.customers SET status = 'verified' WHERE id = 'c-1'`);
    expect(keys.cipher.open({ table: 'customers', id: 'c-1', column: 'profile' }, legacy)).toBe('{"a":1}');
  });

  test('a join code is spent once, by its own reviewer, before it expires and while it is the newest', async () => {
    const client = await storeAt(8);
    await applyMigration(client, 9);
    const alice = await reviewerOf(client, 'alice', []);
    const bob = await reviewerOf(client, 'bob', []);
    for (const { group } of [alice, bob]) {
      await client.query(`GRANT EXECUTE ON FUNCTION vetted.use_join_code(uuid, text) TO ${group}`);
    }
    const issue = async (reviewer: string, days: number) => {
      const use = newCodeUse();
      await client.query(
        `INSERT INTO vetted.join_codes (id, reviewer, secret_hash, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
        [use.id, reviewer, codeSecretHash(use), days],
      );
      return use;
    };
    const spend = async (who: typeof alice, use: { id: string; secret: string }) =>
      (await who.query('SELECT outcome FROM vetted.use_join_code($1, $2)', [use.id, codeSecretHash(use)]))
        .rows[0].outcome;

    const code = await issue(alice.login, 7);
    expect(await spend(bob, code)).toBe('unknown');
    expect(await spend(alice, { ...code, secret: newCodeUse().secret })).toBe('unknown');
    expect(await spend(alice, code)).toBe('joined');
    expect(await spend(alice, code)).toBe('used');
    expect(await spend(alice, await issue(alice.login, -1))).toBe('expired');
    const older = await issue(alice.login, 7);
    await client.query(`UPDATE vetted.join_codes SET superseded_at = now() WHERE id = $1`, [older.id]);
    expect(await spend(alice, older)).toBe('superseded');
    // Reviewers read the table (hashes only) but cannot write it.
    await expect(alice.query(`UPDATE vetted.join_codes SET used_at = NULL`)).rejects.toMatchObject({
      code: '42501',
    });
  });
});
