// Journal migration 9: the audit log becomes a hash chain (../audit-chain.ts), each entry sealed with a key
// derived from the vault's data key. The table is rebuilt with the chain's columns NOT NULL, the entries it
// held are chained in seq order as they stand, and, when there were any, an `audit.chain` entry records
// that the chain began here: what came before it was not tamper-evident until then. `audit_head` holds the
// chain's last entry; triggers refuse an entry that does not follow it and move it on, so no writer can fork
// the chain, and the log stays append-only.
import type { AuditRow } from '../audit.ts';
import { auditSealer, GENESIS_HASH, linkAfter } from '../audit-chain.ts';
import type { Db } from '../db.ts';
import { JournalError } from '../errors.ts';
import { isoTime, systemClock } from '../time.ts';
import type { Migration, MigrationContext } from './runner.ts';

const HEX64 = (column: string) => `length(${column}) = 64 AND ${column} NOT GLOB '*[^0-9a-f]*'`;

const CHAINED_TABLE = `
CREATE TABLE audit_chained (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  action TEXT NOT NULL,
  customer_id TEXT,
  outcome TEXT NOT NULL,
  detail TEXT,
  actor TEXT NOT NULL DEFAULT '',
  hash_version INTEGER NOT NULL CHECK (hash_version >= 1),
  prev_hash TEXT NOT NULL CHECK (${HEX64('prev_hash')}),
  content_hash TEXT NOT NULL CHECK (${HEX64('content_hash')}),
  chain_hash TEXT NOT NULL CHECK (${HEX64('chain_hash')}),
  seal TEXT NOT NULL CHECK (${HEX64('seal')})
) STRICT;
CREATE TABLE audit_head (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  seq INTEGER NOT NULL CHECK (seq >= 0),
  chain_hash TEXT NOT NULL CHECK (${HEX64('chain_hash')})
) STRICT;
`;

// The chained table takes the old one's place, with the old one's indexes and its append-only triggers as
// they were written (their SQL names the table, so it is run again once the new one bears the name).
const keptSql = (db: Db): string[] =>
  (
    db
      .prepare(
        `SELECT sql FROM sqlite_schema WHERE tbl_name = 'audit_log' AND type IN ('index', 'trigger')
         AND sql IS NOT NULL ORDER BY type, name`,
      )
      .all() as Array<{ sql: string }>
  ).map(({ sql }) => sql);

const LINK_TRIGGERS = `
CREATE TRIGGER audit_log_link BEFORE INSERT ON audit_log
  WHEN NEW.seq IS NOT (SELECT seq + 1 FROM audit_head)
    OR NEW.prev_hash IS NOT (SELECT chain_hash FROM audit_head)
BEGIN
  SELECT RAISE (ABORT, 'An audit entry must follow the chain''s head (audit_head)');
END;
CREATE TRIGGER audit_log_advance AFTER INSERT ON audit_log BEGIN
  UPDATE audit_head SET seq = NEW.seq, chain_hash = NEW.chain_hash;
END;
`;

function replaceTable(db: Db): void {
  const kept = keptSql(db);
  db.exec('DROP TABLE audit_log; ALTER TABLE audit_chained RENAME TO audit_log;');
  for (const sql of kept) db.exec(sql);
  db.exec(LINK_TRIGGERS);
}

const insertInto = (table: string) =>
  `INSERT INTO ${table} (seq, at, actor, action, customer_id, outcome, detail, hash_version, prev_hash,
     content_hash, chain_hash, seal)
   VALUES (:seq, :at, :actor, :action, :customerId, :outcome, :detail, :version, :prevHash, :contentHash,
     :chainHash, :seal)`;

function chainExisting(db: Db, context: MigrationContext): void {
  const rows = db
    .prepare('SELECT seq, at, actor, action, customer_id, outcome, detail FROM audit_log ORDER BY seq')
    .all() as unknown as AuditRow[];
  if (rows.length > 0 && !context.dataKey) {
    throw new JournalError('Chaining the audit log needs the vault’s data key to seal its entries.');
  }
  const sealer = context.dataKey ? auditSealer(context.dataKey) : undefined;
  const insert = db.prepare(insertInto('audit_chained'));
  let head = { seq: 0, chainHash: GENESIS_HASH };
  const append = (entry: Omit<AuditRow, 'customer_id'> & { customerId: string | null }) => {
    const link = linkAfter(head.chainHash, entry, sealer!);
    insert.run({ ...entry, ...link });
    head = { seq: entry.seq, chainHash: link.chainHash };
  };
  for (const { customer_id: customerId, ...row } of rows) append({ ...row, customerId });
  replaceTable(db);
  db.prepare('INSERT INTO audit_head (one, seq, chain_hash) VALUES (1, :seq, :chainHash)').run(head);
  if (rows.length === 0) return;
  // Through the renamed table, so its triggers check the link and move the head on.
  const start = {
    seq: head.seq + 1,
    at: isoTime((context.clock ?? systemClock)()),
    actor: context.actor ?? '',
    action: 'audit.chain',
    customerId: null,
    outcome: 'ok',
    detail: `The audit chain begins: the ${rows.length} entries before this one were chained as they stood.`,
  };
  const link = linkAfter(head.chainHash, start, sealer!);
  db.prepare(insertInto('audit_log')).run({ ...start, ...link });
}

export const AUDIT_CHAIN: Migration = {
  version: 9,
  name: 'the audit log as a sealed hash chain',
  sql: CHAINED_TABLE,
  run: chainExisting,
};
