// The team's row in vetted.team_meta, validated as it leaves the database.
import { z } from 'zod';
import type { Queryable } from '#main/team/store/sql.ts';

const TeamMetaRowSchema = z.object({
  team_id: z.uuid(),
  key_check: z.string().min(1),
  reviewer_role: z.string().min(1).max(63),
});

export interface TeamMeta {
  teamId: string;
  keyCheck: string;
  reviewerRole: string;
}

/** The team's meta row; undefined when the schema or the row is not there yet (before init). */
export async function readTeamMeta(db: Queryable): Promise<TeamMeta | undefined> {
  const exists = await db.query<{ exists: boolean }>(
    `SELECT to_regclass('vetted.team_meta') IS NOT NULL AS exists`,
  );
  if (!exists.rows[0]?.exists) return undefined;
  const { rows } = await db.query('SELECT team_id, key_check, reviewer_role FROM vetted.team_meta');
  if (rows.length === 0) return undefined;
  const row = TeamMetaRowSchema.parse(rows[0]);
  return { teamId: row.team_id, keyCheck: row.key_check, reviewerRole: row.reviewer_role };
}
