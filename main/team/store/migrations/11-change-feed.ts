// Team store migration 11 (#29): every replicated row announces itself. Each desk kept its replica live by
// reading the store after every change any desk or hub committed, so the store's work per change grew with
// the number of desks (fifty desks: fifty catch-ups of every change). Now the row itself rides the change's
// NOTIFY, on the channel desks already listen on: PostgreSQL sends it at the commit, in commit order (every
// writer holds CHANGE_LOCK to its commit, sql.ts), to every listening session at almost no cost, and a desk
// that has followed without a gap applies it as it comes (main/team/journal/replication.ts). What the row
// holds of a person is sealed with the team's key, as in the table. A row too large for a notification
// (PostgreSQL's limit is 8,000 bytes) announces only its table and change number: a desk then reads the store.
// Only a new change number announces a row: a rewrite that keeps it (a key rotation's reseal, a claim's
// expiry moving) changes nothing a replica holds.
import { CHANGES_CHANNEL } from '../sql.ts';
import type { TeamMigration } from './runner.ts';

/** The most a row's announcement may weigh, in bytes; beyond it only its table and number are sent. */
export const FEED_PAYLOAD_MAX = 7_900;

/** The replicated tables: the ones desks copy (main/team/journal/replica-rows.ts). */
const FED = ['customers', 'status_history', 'notes', 'retries', 'claims'] as const;

export const CHANGE_FEED: TeamMigration = {
  version: 11,
  name: 'replicated rows announced with their change',
  sql: `
CREATE FUNCTION vetted.announce_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_row json;
  v_payload text;
BEGIN
  -- At the commit, the row as the transaction leaves it: a row written twice under one number (a claim that
  -- expired and was taken in one call) is announced once, as it ends (NOTIFY drops an identical payload).
  IF TG_TABLE_NAME = 'customers' THEN
    SELECT row_to_json(t) INTO v_row FROM vetted.customers AS t WHERE t.id = NEW.id;
  ELSIF TG_TABLE_NAME = 'retries' THEN
    SELECT row_to_json(t) INTO v_row FROM vetted.retries AS t WHERE t.customer_id = NEW.customer_id;
  ELSIF TG_TABLE_NAME = 'claims' THEN
    SELECT row_to_json(t) INTO v_row FROM vetted.claims AS t WHERE t.customer_id = NEW.customer_id;
  ELSE
    -- History and notes are written once, under their own number.
    v_row := row_to_json(NEW);
  END IF;
  IF v_row IS NULL THEN
    RETURN NULL;
  END IF;
  v_payload := json_build_object('table', TG_TABLE_NAME, 'row', v_row)::text;
  IF octet_length(v_payload) > ${FEED_PAYLOAD_MAX} THEN
    v_payload := json_build_object('table', TG_TABLE_NAME, 'seq', v_row->'seq')::text;
  END IF;
  PERFORM pg_notify('${CHANGES_CHANNEL}', v_payload);
  RETURN NULL;
END $$;
${FED.map(
  (table) => `
CREATE CONSTRAINT TRIGGER ${table}_announced_new AFTER INSERT ON vetted.${table}
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vetted.announce_row();
CREATE CONSTRAINT TRIGGER ${table}_announced_changed AFTER UPDATE ON vetted.${table}
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.seq IS DISTINCT FROM OLD.seq)
  EXECUTE FUNCTION vetted.announce_row();`,
).join('')}
`,
};
