// `npm run team -- migrate` on a store an earlier Vetted made, whose audit log has entries: the update that
// chains them needs the team key file, says so in words without it, and with it leaves a chain that
// `verify-audit` finds whole.
import pg from 'pg';
import { expect, test } from 'vitest';
import { writeKeyFile } from '#admin/key-file.ts';
import { AUDIT_CHAIN } from '#main/team/store/migrations/06-audit-chain.ts';
import { TEAM_LATEST_VERSION, TEAM_MIGRATIONS } from '#main/team/store/migrations/index.ts';
import { applyTeamMigrations, teamSchemaVersion } from '#main/team/store/migrations/runner.ts';
import { createTeamKey, teamKeyCheck } from '#main/team/team-key.ts';
import { freshDatabase } from '../support/postgres/team-db.ts';
import { runTeam, tempPath } from '../support/team/admin-support.ts';
import { connectTo } from '../support/team/team-journal.ts';

test('migrate chains the audit entries of a store made before the chain, with the key file only', async () => {
  const url = await freshDatabase();
  const keyFile = tempPath('team.key');
  const teamKey = createTeamKey();
  writeKeyFile(keyFile, teamKey);
  const admin = await connectTo(url);
  await applyTeamMigrations(admin, TEAM_MIGRATIONS.slice(0, AUDIT_CHAIN.version - 1));
  await admin.query(`INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES ($1, $2, $3)`, [
    crypto.randomUUID(),
    teamKeyCheck(teamKey),
    `${admin.database}_reviewers`,
  ]);
  await admin.query(`CREATE ROLE ${pg.escapeIdentifier(`${admin.database}_reviewers`)} NOLOGIN`);
  await admin.query(`INSERT INTO vetted.audit_log (at, action, customer_id, outcome) VALUES
    (now(), 'customer.create', 'c-1', 'ok'), (now(), 'note.add', 'c-1', 'ok')`);

  const without = await runTeam('migrate', '--database', url);
  expect(without).toMatchObject({ code: 1, out: '' });
  expect(without.err).toMatch(/rolled back\. It chains and seals the audit entries .*--key-file FILE/);
  expect(await teamSchemaVersion(admin)).toBe(AUDIT_CHAIN.version - 1);
  expect((await runTeam('verify-audit', '--database', url, '--key-file', keyFile)).err).toMatch(
    /its audit log is chained from schema \d+ on: run `npm run team -- migrate --key-file FILE`/,
  );

  const run = await runTeam('migrate', '--database', url, '--key-file', keyFile);
  expect(run, run.err).toMatchObject({ code: 0 });
  // Up to this Vetted's schema: the migrations after the chain's run on a chained log.
  expect(run.out).toMatch(
    `migrated from schema version ${AUDIT_CHAIN.version - 1} to ${TEAM_LATEST_VERSION}`,
  );
  const verified = await runTeam('verify-audit', '--database', url, '--key-file', keyFile);
  expect(verified.out).toMatch(/^OK: the audit log holds\. 3 entries/);
  const { rows } = await admin.query('SELECT action FROM vetted.audit_log ORDER BY seq');
  expect(rows.map((row) => row.action)).toEqual(['customer.create', 'note.add', 'audit.chain']);
});
