// `team set-role`: a reviewer's role in the team, reviewer or lead, kept in the store (vetted.reviewer_roles)
// where its functions and triggers check it. The change is audited under the administrator's login, in the
// team's audit chain: sealed with the key of the team key file (the store cannot seal, and it refuses to
// commit a role change without its entry: migration 7).
import type pg from 'pg';
import { z } from 'zod';
import { isoTime } from '#main/data/journal/time.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import type { Queryable } from '#main/team/store/sql.ts';
import { TeamAdminError } from './errors.ts';
import { hubLogins } from './hubs.ts';
import { readKeyFile } from './key-file.ts';
import { teamReviewer } from './reviewers.ts';
import { inTransactionOn } from './transaction.ts';

export const TEAM_ROLES = ['reviewer', 'lead'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

const RoleSchema = z.enum(TEAM_ROLES);

export function parseRole(text: string | undefined): TeamRole {
  const parsed = RoleSchema.safeParse(text);
  if (!parsed.success) throw new TeamAdminError('set-role takes NAME and a role: lead or reviewer.');
  return parsed.data;
}

export interface RoleChange {
  from: TeamRole;
  to: TeamRole;
}

export interface SetRoleOptions {
  name: string;
  role: TeamRole;
  /** The team key file `init` wrote: the entry is sealed with the audit key derived from it. */
  keyFile: string;
}

/** Sets `name`'s role (audited when it changes); a removed reviewer is refused (they can no longer act). */
export async function setReviewerRole(
  client: pg.Client,
  { name, role, keyFile }: SetRoleOptions,
): Promise<RoleChange> {
  const { meta, canLogin } = await teamReviewer(client, name);
  if (!canLogin) {
    throw new TeamAdminError(`${name} was removed from the team: their role no longer matters.`);
  }
  if ((await hubLogins(client)).has(name)) {
    throw new TeamAdminError(`${name} is a hub: a hub is not a person and has no role.`);
  }
  const { sealer } = await loadTeamKeys(client, readKeyFile(keyFile, meta.keyCheck));
  return inTransactionOn(client, async () => {
    const { rows } = await client.query<{ role: TeamRole }>(
      'SELECT role FROM vetted.reviewer_roles WHERE login = $1 FOR UPDATE',
      [name],
    );
    const from = rows[0]?.role ?? 'reviewer';
    if (from === role) return { from, to: role };
    await client.query(
      `INSERT INTO vetted.reviewer_roles (login, role) VALUES ($1, $2)
       ON CONFLICT (login) DO UPDATE SET role = excluded.role, set_at = now(), set_by = session_user`,
      [name, role],
    );
    await appendAuditEntry(client, sealer, {
      at: isoTime(new Date()),
      action: 'team.setRole',
      customerId: null,
      outcome: 'ok',
      detail: `${name}: ${from} → ${role}`,
    });
    return { from, to: role };
  });
}

/** Every reviewer's role, for `status`: those never given one are reviewers. */
export async function reviewerRoles(db: Queryable): Promise<Map<string, TeamRole>> {
  const { rows } = await db.query<{ login: string; role: TeamRole }>(
    'SELECT login, role FROM vetted.reviewer_roles',
  );
  return new Map(rows.map((row) => [row.login, row.role]));
}
