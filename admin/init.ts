// `team init` and `team migrate`: make an empty database a team store, or bring one up to this Vetted's schema.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type pg from 'pg';
import { migrateTeamStore } from '#main/team/store/migrations/index.ts';
import { createTeamKey, teamKeyCheck } from '#main/team/team-key.ts';
import { TeamAdminError } from './errors.ts';
import { defaultReviewerRole, ensureGroupRole, grantReviewerRole } from './grants.ts';
import { readKeyFile, writeKeyFile } from './key-file.ts';
import { readTeamMeta } from './team-meta.ts';
import { inTransactionOn } from './transaction.ts';

export interface InitResult {
  teamId: string;
  reviewerRole: string;
  keyFile: string;
  schema: number;
}

/**
 * Migrates, makes the reviewers' group role and its grants, and records the team. The key file is written
 * first (never over an existing file) and removed again if the database part fails, so a team never exists
 * without its key, nor a key without its team.
 */
export async function initTeam(
  client: pg.Client,
  options: { keyFile: string; reviewerRole?: string },
): Promise<InitResult> {
  if (await readTeamMeta(client)) {
    throw new TeamAdminError(
      'This database is already a Vetted team store: `init` runs once. To update its schema, run `npm run team -- migrate`.',
    );
  }
  const { rows } = await client.query<{ database: string }>('SELECT current_database() AS database');
  const reviewerRole = options.reviewerRole ?? defaultReviewerRole(rows[0]!.database);
  const key = createTeamKey();
  writeKeyFile(options.keyFile, key);
  try {
    const { to } = await migrateTeamStore(client, { teamKey: key });
    const teamId = crypto.randomUUID();
    await inTransactionOn(client, async () => {
      // Two administrators running init at once: the second waits here and then finds the team.
      await client.query('LOCK TABLE vetted.team_meta IN EXCLUSIVE MODE');
      if (await readTeamMeta(client)) {
        throw new TeamAdminError('Another `init` made this team store a moment ago: nothing was changed.');
      }
      await ensureGroupRole(client, reviewerRole);
      await grantReviewerRole(client, reviewerRole);
      await client.query(
        'INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES ($1, $2, $3)',
        [teamId, teamKeyCheck(key), reviewerRole],
      );
    });
    return { teamId, reviewerRole, keyFile: options.keyFile, schema: to };
  } catch (error) {
    fs.rmSync(options.keyFile, { force: true });
    throw error;
  }
}

/**
 * Brings the schema up to date and grants the group what this version's tables need. A migration that seals
 * rows (the audit chain's) needs the team key: `keyFile`, the file init wrote.
 */
export async function migrateTeam(
  client: pg.Client,
  keyFile?: string,
): Promise<{ from: number; to: number }> {
  const before = await readTeamMeta(client);
  const teamKey = keyFile && before ? readKeyFile(keyFile, before.keyCheck) : undefined;
  const result = await migrateTeamStore(client, teamKey ? { teamKey } : {});
  const meta = await readTeamMeta(client);
  if (!meta) {
    throw new TeamAdminError(
      'This database is not a Vetted team store yet: run `npm run team -- init` first.',
    );
  }
  await inTransactionOn(client, () => grantReviewerRole(client, meta.reviewerRole));
  return result;
}
