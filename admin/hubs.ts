// `team add-hub` and `team mark-hub`: a hub logs in as a member of the team's group like a reviewer (so its
// writes are stamped with its own name), but it is not a person: marked in the store (vetted.hubs, migration
// 13), it is never listed among the reviewers, offered as a case's holder or made a lead. The mark is the
// administrator's alone (reviewers read the table, never write it) and audited in the team's chain, sealed
// with the key file, as a role change is.
import type pg from 'pg';
import { isoTime } from '#main/data/journal/time.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import type { Queryable } from '#main/team/store/sql.ts';
import { TeamAdminError } from './errors.ts';
import { readKeyFile } from './key-file.ts';
import { type AddReviewerOptions, addReviewer, type NewReviewer, teamReviewer } from './reviewers.ts';
import type { TeamMeta } from './team-meta.ts';
import { inTransactionOn } from './transaction.ts';

/** The team's logins marked as hubs (none on a store before migration 14). */
export async function hubLogins(db: Queryable): Promise<Set<string>> {
  const { rows: kept } = await db.query(`SELECT to_regclass('vetted.hubs') IS NOT NULL AS kept`);
  if (!kept[0]?.kept) return new Set();
  const { rows } = await db.query<{ login: string }>('SELECT login FROM vetted.hubs');
  return new Set(rows.map((row) => row.login));
}

/**
 * Marks `name` a hub inside the caller's transaction, with its audit entry; false when it already was one.
 * A lead, or a login holding cases, is refused in words first (the store would refuse them too).
 */
async function markIn(client: pg.Client, meta: TeamMeta, name: string, keyFile: string): Promise<boolean> {
  const { rows } = await client.query<{ lead: boolean; holding: number; marked: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM vetted.reviewer_roles WHERE login = $1 AND role = 'lead') AS lead,
            (SELECT count(*)::int FROM vetted.claims WHERE holder = $1 AND expires_at > now()) AS holding,
            EXISTS (SELECT 1 FROM vetted.hubs WHERE login = $1) AS marked`,
    [name],
  );
  const { lead, holding, marked } = rows[0] ?? { lead: false, holding: 0, marked: false };
  if (marked) return false;
  if (lead) {
    throw new TeamAdminError(
      `${name} is a lead: a hub is not a person and has no role. If ${name} is the hub's login, make it a reviewer first (set-role ${name} reviewer).`,
    );
  }
  if (holding > 0) {
    throw new TeamAdminError(
      `${name} holds ${holding} case(s): a hub holds none. If ${name} is a person, leave them a reviewer; otherwise a lead reassigns those cases first.`,
    );
  }
  const { sealer } = await loadTeamKeys(client, readKeyFile(keyFile, meta.keyCheck));
  await client.query('INSERT INTO vetted.hubs (login) VALUES ($1)', [name]);
  await appendAuditEntry(client, sealer, {
    at: isoTime(new Date()),
    action: 'team.markHub',
    customerId: null,
    outcome: 'ok',
    detail: `${name}: hub`,
  });
  return true;
}

/** A new login for a hub, marked as one in the same transaction: its join code and password, as a reviewer's. */
export function addHub(client: pg.Client, options: AddReviewerOptions): Promise<NewReviewer> {
  return addReviewer(client, options, async (meta) => {
    await markIn(client, meta, options.name, options.keyFile);
  });
}

/** Marks a login the team already has (a hub added with add-reviewer) as a hub; false if it already was. */
export async function markHub(client: pg.Client, name: string, keyFile: string): Promise<boolean> {
  const { meta, canLogin } = await teamReviewer(client, name);
  if (!canLogin) {
    throw new TeamAdminError(`${name} was removed from the team: it is listed nowhere any more.`);
  }
  return inTransactionOn(client, () => markIn(client, meta, name, keyFile));
}
