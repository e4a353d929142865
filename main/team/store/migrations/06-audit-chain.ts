// Team store migration 6, the audit chain.
// The audit log becomes a sealed hash chain (main/data/journal/audit-chain.ts): each entry carries the hash of the
// one before, of its own content, their chain hash and a seal made with a key derived from the team data key,
// which the database never holds. Desks link each entry as they append it (main/team/journal/audit.ts),
// under the lock of a one-row head that this migration adds; its trigger refuses an entry that does not
// follow the head and moves the head on. The entries already there are chained in seq order as they stand,
// sealed with the administrator's key file, and an `audit.chain` entry records that the chain began here.
// An empty log (a new store) needs no key: its first entry starts the chain.
import type pg from 'pg';
import { auditSealer, GENESIS_HASH, linkAfter } from '#main/data/journal/audit-chain.ts';
import { isoTime } from '#main/data/journal/time.ts';
import { AuditRowSchema, appendAuditEntry } from '#main/team/journal/audit.ts';
import { parseRows } from '#main/team/journal/rows.ts';
import { type TeamMigration, type TeamMigrationContext, TeamSchemaError } from './runner.ts';

const HEX64 = `~ '^[0-9a-f]{64}$'`;

const BEFORE_CHAINING = `
-- Milliseconds, as desks write times: the value the hash covers is exactly the value stored.
ALTER TABLE vetted.audit_log ALTER COLUMN at TYPE timestamptz(3);
ALTER TABLE vetted.audit_log
  ADD COLUMN hash_version smallint,
  ADD COLUMN prev_hash text,
  ADD COLUMN content_hash text,
  ADD COLUMN chain_hash text,
  ADD COLUMN seal text;
-- Entries are numbered by the chain (the head's seq + 1), never by a sequence a rollback leaves gaps in.
ALTER TABLE vetted.audit_log ALTER COLUMN seq DROP DEFAULT;
DROP SEQUENCE vetted.audit_log_seq_seq;

-- The chain's last entry. Nobody but the functions below writes it.
CREATE TABLE vetted.audit_head (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  seq bigint NOT NULL CHECK (seq >= 0),
  chain_hash text NOT NULL CHECK (chain_hash ${HEX64})
);

-- An appender's first step: locks the head until its transaction ends, and names the login the stamp
-- trigger will write (the hash covers it). SECURITY DEFINER: reviewers may lock the head, never write it.
CREATE FUNCTION vetted.audit_chain_head(OUT seq bigint, OUT chain_hash text, OUT actor text)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT h.seq, h.chain_hash, session_user::text FROM vetted.audit_head h FOR UPDATE
$$;
REVOKE ALL ON FUNCTION vetted.audit_chain_head() FROM PUBLIC;

-- Every insert follows the head (the next seq, the head's hash before it) and moves it on: whoever
-- appends, the chain never forks. The seal cannot be checked here: the database never holds the key.
CREATE FUNCTION vetted.audit_log_link() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  head record;
BEGIN
  SELECT h.seq, h.chain_hash INTO head FROM vetted.audit_head h FOR UPDATE;
  IF NEW.seq IS DISTINCT FROM head.seq + 1 OR NEW.prev_hash IS DISTINCT FROM head.chain_hash THEN
    RAISE EXCEPTION 'An audit entry must follow the chain''s head, entry %: lock it with vetted.audit_chain_head() first', head.seq
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF NEW.chain_hash IS DISTINCT FROM
       encode(sha256(decode(NEW.prev_hash, 'hex') || decode(NEW.content_hash, 'hex')), 'hex') THEN
    RAISE EXCEPTION 'An audit entry''s chain hash is SHA-256 of its prev_hash and content_hash'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  UPDATE vetted.audit_head SET seq = NEW.seq, chain_hash = NEW.chain_hash;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_log_link BEFORE INSERT ON vetted.audit_log
  FOR EACH ROW EXECUTE FUNCTION vetted.audit_log_link();
`;

const AFTER_CHAINING = `
ALTER TABLE vetted.audit_log
  ALTER COLUMN hash_version SET NOT NULL,
  ALTER COLUMN prev_hash SET NOT NULL,
  ALTER COLUMN content_hash SET NOT NULL,
  ALTER COLUMN chain_hash SET NOT NULL,
  ALTER COLUMN seal SET NOT NULL,
  ADD CONSTRAINT audit_log_hash_version CHECK (hash_version >= 1),
  ADD CONSTRAINT audit_log_hashes CHECK (prev_hash ${HEX64} AND content_hash ${HEX64}
    AND chain_hash ${HEX64} AND seal ${HEX64});
`;

const PAGE = 1000;

/** Links the entries there are, in seq order, a page at a time; returns the last one's place. */
async function chainExisting(client: pg.ClientBase, context: TeamMigrationContext) {
  const sealer = context.teamKey && auditSealer(context.teamKey);
  let head = { seq: 0, chainHash: GENESIS_HASH };
  let chained = 0;
  // Rows written before the chain are rewritten once, here, by the store's owner: the append-only trigger
  // is off for this transaction's statements only, and back on before it commits.
  await client.query('ALTER TABLE vetted.audit_log DISABLE TRIGGER audit_log_no_change');
  for (;;) {
    const { rows } = await client.query(
      'SELECT seq, at, actor, action, customer_id, outcome, detail FROM vetted.audit_log WHERE seq > $1 ORDER BY seq LIMIT $2',
      [head.seq, PAGE],
    );
    if (rows.length === 0) break;
    if (!sealer) {
      throw new TeamSchemaError(
        'It chains and seals the audit entries already in the store, with the team key: run ' +
          '`npm run team -- migrate --key-file FILE` with the key file `init` wrote.',
      );
    }
    const links = parseRows(AuditRowSchema, 'audit_log', rows).map((entry) => {
      const link = linkAfter(head.chainHash, entry, sealer);
      head = { seq: entry.seq, chainHash: link.chainHash };
      return { seq: entry.seq, ...link };
    });
    const column = <K extends keyof (typeof links)[number]>(key: K) => links.map((link) => link[key]);
    await client.query(
      `UPDATE vetted.audit_log a SET hash_version = u.version, prev_hash = u.prev, content_hash = u.content,
         chain_hash = u.chain, seal = u.seal
       FROM unnest($1::bigint[], $2::smallint[], $3::text[], $4::text[], $5::text[], $6::text[])
         AS u (seq, version, prev, content, chain, seal)
       WHERE a.seq = u.seq`,
      [
        column('seq'),
        column('version'),
        column('prevHash'),
        column('contentHash'),
        column('chainHash'),
        column('seal'),
      ],
    );
    chained += links.length;
  }
  await client.query('ALTER TABLE vetted.audit_log ENABLE TRIGGER audit_log_no_change');
  return { head, chained, sealer };
}

async function chainAuditLog(client: pg.ClientBase, context: TeamMigrationContext): Promise<void> {
  const { head, chained, sealer } = await chainExisting(client, context);
  await client.query(AFTER_CHAINING);
  await client.query('INSERT INTO vetted.audit_head (seq, chain_hash) VALUES ($1, $2)', [
    head.seq,
    head.chainHash,
  ]);
  if (chained === 0 || !sealer) return;
  await appendAuditEntry(client, sealer, {
    at: isoTime(new Date()),
    action: 'audit.chain',
    customerId: null,
    outcome: 'ok',
    detail: `The audit chain begins: the ${chained} entries before this one were chained as they stood.`,
  });
}

export const AUDIT_CHAIN: TeamMigration = {
  version: 6,
  name: 'the audit log as a sealed hash chain',
  sql: BEFORE_CHAINING,
  run: chainAuditLog,
};
