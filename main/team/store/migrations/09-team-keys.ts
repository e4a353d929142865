// Team store migration 9 (#30): envelope keys, the team key's rotation, single-use join codes.
//
// - `team_keys`: the data keys personal data is sealed with, and the audit chain's seal key, each wrapped by
//   the team key (main/team/keys/key-ring.ts); `kek_check` says which team key wraps it. One data key is
//   `current`: the one new values are sealed with. A sealed value names its key (`<key id>:v1.…`); one that
//   names none was sealed directly under the team key before this migration (the `legacy` key).
// - `sealed_under_current_key`: a trigger on every sealed column refuses a value written under another key
//   than the current one (before any data key exists: the legacy one). A desk still running on the team key
//   of before a rotation cannot add rows sealed under a key that is about to be dropped: its write is
//   refused (and its drafts wait on the desk), and `team reseal` can end with no row under a retired key.
// - `retired_team_keys`: the check of every team key a rotation replaced, so a desk that holds one says the
//   team's key changed (not that its code is wrong).
// - `join_codes`: one row per code `add-reviewer`/`join-code` made: for which reviewer, the SHA-256 of its
//   secret (never the secret), until when, when it was used or replaced. `use_join_code` spends one
//   atomically for the caller's own login; reviewers cannot write the table.
import { ensureEnvelopeKeys } from '#main/team/keys/key-ring.ts';
import type { TeamMigration } from './runner.ts';

const KEYS = `
CREATE TABLE vetted.team_keys (
  key_id text PRIMARY KEY CHECK (key_id ~ '^[a-z0-9-]{1,40}$'),
  purpose text NOT NULL CHECK (purpose IN ('data', 'audit')),
  -- encryptField(team key, the key, AAD 'team:team_keys/<key_id>'): the store never holds a key in plaintext.
  wrapped text NOT NULL,
  kek_check text NOT NULL,
  current boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT current OR purpose = 'data')
);
CREATE UNIQUE INDEX team_keys_one_current ON vetted.team_keys (current) WHERE current;

CREATE TABLE vetted.retired_team_keys (
  key_check text PRIMARY KEY,
  retired_at timestamptz NOT NULL DEFAULT now()
);

-- TG_ARGV names the sealed columns. SECURITY DEFINER: it reads team_keys whatever the writer may read. A value unchanged by an UPDATE is not checked (a row the reconciler
-- touches keeps what it holds until it is resealed), nor one that is no token at all (v_key null).
CREATE FUNCTION vetted.sealed_under_current_key() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_new jsonb := to_jsonb(NEW);
  v_old jsonb := CASE WHEN TG_OP = 'UPDATE' THEN to_jsonb(OLD) END;
  v_current text;
  v_column text;
  v_value text;
  v_key text;
BEGIN
  SELECT key_id INTO v_current FROM vetted.team_keys WHERE purpose = 'data' AND current;
  FOREACH v_column IN ARRAY TG_ARGV LOOP
    v_value := v_new ->> v_column;
    CONTINUE WHEN v_value IS NULL OR v_value IS NOT DISTINCT FROM (v_old ->> v_column);
    v_key := CASE WHEN position(':' IN v_value) > 0 THEN split_part(v_value, ':', 1)
                  WHEN starts_with(v_value, 'v1.') THEN 'legacy' END;
    IF v_key <> coalesce(v_current, 'legacy') THEN
      RAISE EXCEPTION 'A value of %.% is sealed under a team data key that is not the current one.',
        TG_TABLE_NAME, v_column USING ERRCODE = 'integrity_constraint_violation', HINT = 'vetted:stale-team-key';
    END IF;
  END LOOP;
  RETURN NEW;
END $$;
CREATE TRIGGER customers_sealed BEFORE INSERT OR UPDATE ON vetted.customers
  FOR EACH ROW EXECUTE FUNCTION vetted.sealed_under_current_key('profile', 'personal', 'reported');
CREATE TRIGGER notes_sealed BEFORE INSERT OR UPDATE ON vetted.notes
  FOR EACH ROW EXECUTE FUNCTION vetted.sealed_under_current_key('body');
CREATE TRIGGER team_outbox_sealed BEFORE INSERT OR UPDATE ON vetted.team_outbox
  FOR EACH ROW EXECUTE FUNCTION vetted.sealed_under_current_key('form');
CREATE TRIGGER claims_sealed BEFORE INSERT OR UPDATE ON vetted.claims
  FOR EACH ROW EXECUTE FUNCTION vetted.sealed_under_current_key('note');
CREATE TRIGGER webhook_secrets_sealed BEFORE INSERT OR UPDATE ON vetted.webhook_secrets
  FOR EACH ROW EXECUTE FUNCTION vetted.sealed_under_current_key('secret');
CREATE TRIGGER approvals_sealed BEFORE INSERT OR UPDATE ON vetted.approvals
  FOR EACH ROW EXECUTE FUNCTION vetted.sealed_under_current_key('payload', 'note');
`;

const JOIN_CODES = `
CREATE TABLE vetted.join_codes (
  id uuid PRIMARY KEY,
  reviewer text NOT NULL,
  secret_hash text NOT NULL CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  superseded_at timestamptz
);
CREATE INDEX join_codes_open ON vetted.join_codes (reviewer) WHERE used_at IS NULL AND superseded_at IS NULL;

-- Spends the caller's code p_id: 'joined' once; after that 'used' (with when), or 'expired', 'superseded'
-- (a fresher code was made), 'unknown' (no such code of this login's, or the wrong secret).
CREATE FUNCTION vetted.use_join_code(p_id uuid, p_secret_hash text)
  RETURNS TABLE (outcome text, at timestamptz)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v vetted.join_codes;
BEGIN
  SELECT * INTO v FROM vetted.join_codes c WHERE c.id = p_id AND c.reviewer = session_user FOR UPDATE;
  IF NOT FOUND OR v.secret_hash <> p_secret_hash THEN
    RETURN QUERY SELECT 'unknown'::text, NULL::timestamptz;
  ELSIF v.used_at IS NOT NULL THEN
    RETURN QUERY SELECT 'used'::text, v.used_at;
  ELSIF v.superseded_at IS NOT NULL THEN
    RETURN QUERY SELECT 'superseded'::text, v.superseded_at;
  ELSIF v.expires_at <= now() THEN
    RETURN QUERY SELECT 'expired'::text, v.expires_at;
  ELSE
    UPDATE vetted.join_codes c SET used_at = now() WHERE c.id = p_id;
    RETURN QUERY SELECT 'joined'::text, now();
  END IF;
END $$;
REVOKE ALL ON FUNCTION vetted.use_join_code(uuid, text) FROM PUBLIC;
`;

export const TEAM_KEYS: TeamMigration = {
  version: 9,
  name: 'envelope keys wrapped by the team key, its rotation, single-use join codes',
  sql: KEYS + JOIN_CODES,
  // With the key file, the store gets its first data key and its audit key now; without, at the first
  // `rotate-key` (until then the team key seals directly, as before).
  run: async (client, { teamKey }) => {
    if (teamKey) await ensureEnvelopeKeys(client, teamKey);
  },
};
