// Team store migration 14 (#39): hubs marked apart. A store's logins stay reviewers until one is marked; a
// mark needs its audit entry in its transaction; a marked hub leaves the reviewers' list and is_reviewer, is
// listed by team_hubs, holds no case and is no lead.
import { describe, expect, test } from 'vitest';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { HUBS } from '#main/team/store/migrations/14-hubs.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { applyMigration, reviewerOf, storeAt, versionBefore } from './at-version.ts';

const NOT_A_PERSON = { code: '23000', hint: 'vetted:hub-not-a-person' };

/** Version 12 with a team whose group holds two logins, and a customer. */
async function before14() {
  const client = await storeAt(versionBefore(HUBS.version));
  const ana = await reviewerOf(client, 'ana', []);
  const hub = await reviewerOf(client, 'hub', []);
  await client.query(`GRANT ${ana.group} TO ${hub.login}`);
  await client.query(
    `INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES (gen_random_uuid(), 'k', $1)`,
    [ana.group],
  );
  await client.query(`INSERT INTO vetted.customers (id, seq, status, section, status_since, created,
      last_refreshed, changed_at, profile) VALUES ('c-1', 1, 'retry', 'retry', now(), now(), now(), now(), 's')`);
  return { client, ana: ana.login, hub: hub.login };
}

const sealer = auditSealer(createTeamKey());

describe('team store migration 14: hubs', () => {
  test('every login stays a reviewer until marked; a mark needs its audit entry', async () => {
    const { client, ana, hub } = await before14();
    await applyMigration(client, HUBS.version);
    const reviewers = async () =>
      (await client.query('SELECT login FROM vetted.team_reviewers()')).rows.map((row) => row.login);
    expect(await reviewers()).toEqual([ana, hub].sort());
    expect((await client.query('SELECT * FROM vetted.team_hubs()')).rows).toEqual([]);

    await expect(client.query('INSERT INTO vetted.hubs (login) VALUES ($1)', [hub])).rejects.toMatchObject({
      code: '23000',
      hint: 'vetted:unaudited',
    });
    await client.query('BEGIN');
    await client.query('INSERT INTO vetted.hubs (login) VALUES ($1)', [hub]);
    await appendAuditEntry(client, sealer, {
      at: new Date().toISOString(),
      action: 'team.markHub',
      customerId: null,
      outcome: 'ok',
      detail: `${hub}: hub`,
    });
    await client.query('COMMIT');

    expect(await reviewers()).toEqual([ana]);
    expect((await client.query('SELECT * FROM vetted.team_hubs()')).rows).toEqual([{ login: hub }]);
    const targets = await client.query(
      'SELECT vetted.is_reviewer($1) AS ana, vetted.is_reviewer($2) AS hub',
      [ana, hub],
    );
    expect(targets.rows).toEqual([{ ana: true, hub: false }]);
  });

  test('a marked hub holds no case and is no lead, whoever writes the row', async () => {
    const { client, hub } = await before14();
    await applyMigration(client, HUBS.version);
    await client.query(`SET session_replication_role = replica`); // the audit triggers aside, for this row
    await client.query('INSERT INTO vetted.hubs (login) VALUES ($1)', [hub]);
    await client.query(`SET session_replication_role = DEFAULT`);
    await expect(
      client.query(
        `INSERT INTO vetted.claims (customer_id, seq, holder, since, touched_at, expires_at, how, changed_by, changed_at)
         VALUES ('c-1', 2, $1, now(), now(), now(), 'take', $1, now())`,
        [hub],
      ),
    ).rejects.toMatchObject(NOT_A_PERSON);
    await expect(
      client.query(`INSERT INTO vetted.reviewer_roles (login, role) VALUES ($1, 'lead')`, [hub]),
    ).rejects.toMatchObject(NOT_A_PERSON);
  });
});
