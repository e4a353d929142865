// Team store migration 3: the webhooks' security log is pruned by the store's own rule, not by a reviewer's
// DELETE. Up to version 2 the reviewers' group held DELETE on `webhook_rejections` so that whoever recorded a
// rejection could forget those beyond the newest 10,000; that grant let any reviewer empty the log. Now one
// function, owned by the administrator and run with the administrator's rights (SECURITY DEFINER), deletes
// exactly what the retention rule lets go, and the group may only EXECUTE it (admin/grants.ts). It takes no
// argument: nobody can ask it to keep fewer.
import type { TeamMigration } from './runner.ts';

/** The newest rejections the function keeps: the local journal's KEPT_REJECTIONS when this was written. */
export const KEPT_BY_MIGRATION_3 = 10_000;

const TEAM_SCHEMA_V3_PRUNE = `
CREATE FUNCTION vetted.prune_webhook_rejections() RETURNS void
  LANGUAGE sql SECURITY DEFINER
  -- A definer function resolves names in a search path of its own, never the caller's.
  SET search_path = pg_catalog, pg_temp
AS $$
  DELETE FROM vetted.webhook_rejections
   WHERE seq <= (SELECT max(seq) FROM vetted.webhook_rejections) - ${KEPT_BY_MIGRATION_3};
$$;
-- Functions are executable by PUBLIC unless revoked; the grants give EXECUTE to the reviewers' group only.
REVOKE ALL ON FUNCTION vetted.prune_webhook_rejections() FROM PUBLIC;
`;

export const REJECTIONS_PRUNED: TeamMigration = {
  version: 3,
  name: 'the security log pruned by its retention rule, not by reviewers',
  sql: TEAM_SCHEMA_V3_PRUNE,
};
