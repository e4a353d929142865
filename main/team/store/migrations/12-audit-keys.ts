// Team store migration 12 (#37): a new audit seal key at every rotation of the team key.
//
// - `team_keys.audit_from`, `audit_after`: an audit key after the first names the entry it begins at and the
//   key before it (both bound to it by its wrap's AAD, main/team/keys/key-ring.ts). The newest seals new
//   entries; the older ones stay, wrapped by the current team key, to verify their stretches of the chain.
// - `audit_log.audit_key`: the id of the key an entry was sealed with, as the desk says (null before this
//   migration). `sealed_under_current_audit_key` refuses an entry under another key than the newest, in the
//   words of the data keys' trigger (hint `vetted:stale-team-key`): a desk still on the old team key cannot
//   append a seal under the old audit key; it says the team's key was changed.
// - A store whose team key was rotated before this migration is still sealed with the audit key of its first
//   team key, which a leaver may hold: with the key file, a new audit key begins here (it needs the key).

import { auditSealKey } from '#main/data/journal/audit-chain.ts';
import { beginAuditKey } from '#main/team/keys/audit-keys.ts';
import { AUDIT_KEY_ID, loadKeyRing } from '#main/team/keys/key-ring.ts';
import { type TeamMigration, TeamSchemaError } from './runner.ts';

const SQL = `
ALTER TABLE vetted.team_keys
  ADD COLUMN audit_from bigint CHECK (audit_from > 0),
  ADD COLUMN audit_after text,
  ADD CONSTRAINT team_keys_audit_stretch CHECK ((audit_from IS NULL) = (audit_after IS NULL)
    AND (audit_from IS NULL OR purpose = 'audit'));
CREATE UNIQUE INDEX team_keys_audit_from ON vetted.team_keys (audit_from) WHERE audit_from IS NOT NULL;
ALTER TABLE vetted.audit_log ADD COLUMN audit_key text;

-- The newest audit key's id: the one new entries are sealed with ('audit', the first, until a rotation).
CREATE FUNCTION vetted.current_audit_key() RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce((SELECT key_id FROM vetted.team_keys WHERE purpose = 'audit'
                    ORDER BY coalesce(audit_from, 0) DESC LIMIT 1), '${AUDIT_KEY_ID}')
$$;
REVOKE ALL ON FUNCTION vetted.current_audit_key() FROM PUBLIC;

CREATE FUNCTION vetted.sealed_under_current_audit_key() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF coalesce(NEW.audit_key, '${AUDIT_KEY_ID}') <> vetted.current_audit_key() THEN
    RAISE EXCEPTION 'An audit entry is sealed under an audit key that is not the current one.'
      USING ERRCODE = 'integrity_constraint_violation', HINT = 'vetted:stale-team-key';
  END IF;
  RETURN NEW;
END $$;
-- Before audit_log_link (triggers fire in name order): a refused entry never moves the head.
CREATE TRIGGER audit_log_a_sealed BEFORE INSERT ON vetted.audit_log
  FOR EACH ROW EXECUTE FUNCTION vetted.sealed_under_current_audit_key();
`;

export const AUDIT_KEYS: TeamMigration = {
  version: 12,
  name: 'a new audit seal key at every rotation of the team key',
  sql: SQL,
  run: async (client, { teamKey }) => {
    const rotated = await client.query('SELECT 1 FROM vetted.retired_team_keys LIMIT 1');
    if (rotated.rows.length === 0) return;
    if (!teamKey) {
      throw new TeamSchemaError(
        "The team key was rotated before this update, and the audit chain is still sealed with the first team key's audit key: " +
          'a new one begins now, made from the team key: run `npm run team -- migrate --key-file FILE`.',
      );
    }
    const ring = await loadKeyRing(client, teamKey);
    if (!ring.audit.at(-1)!.key.equals(auditSealKey(teamKey))) await beginAuditKey(client, teamKey);
  },
};
