// The team's audit log: every reviewer action, append-only (INSERT-only grants, and the schema's triggers
// refuse UPDATE, DELETE and TRUNCATE). Who did it is the database login, stamped by the trigger from
// session_user: whatever a caller claims in `actor` is not written (RETURNING gives back what was stamped).
// A sealed hash chain (journal/audit-chain.ts), linked here, on the desk or hub that appends: the entry's
// transaction locks the chain's head (vetted.audit_chain_head(), which also tells the login the trigger
// will stamp), so appends from every desk follow one another and the chain never forks; the store's
// trigger refuses an entry that does not follow the head, and moves the head on.
import { z } from 'zod';
import { AuditActionSchema } from '#contract/audit-actions.ts';
import { toEntry, toLinkedEntry } from '#main/data/journal/audit.ts';
import { type AuditSealer, linkAfter } from '#main/data/journal/audit-chain.ts';
import { JournalError } from '#main/data/journal/errors.ts';
import type {
  AuditEntry,
  AuditFilter,
  AuditInput,
  AuditRepository,
  LinkedAuditEntry,
  WrappedAuditKey,
} from '#main/data/journal/repositories/audit.ts';
import { isoTime } from '#main/data/journal/time.ts';
import type { Queryable } from '../store/sql.ts';
import { CountSchema, PgSeq, PgTime, parseRow, parseRows } from './rows.ts';
import type { TeamRepositoryContext } from './team-db.ts';

const AuditRowFields = {
  seq: PgSeq,
  at: PgTime,
  actor: z.string(),
  action: z.string(),
  customer_id: z.string().nullable(),
  outcome: z.string(),
  detail: z.string().nullable(),
};
/** The entries a team store function answers that the change needs, for the desk to seal and append. */
export const AuditDueSchema = z.array(
  z.object({ action: AuditActionSchema, customerId: z.string().nullable(), detail: z.string().nullable() }),
);

export const AuditRowSchema = z.object(AuditRowFields).transform((row): AuditEntry => toEntry(row));

export const LinkedRowSchema = z
  .object({
    ...AuditRowFields,
    hash_version: z.number().int(),
    prev_hash: z.string(),
    content_hash: z.string(),
    chain_hash: z.string(),
    seal: z.string(),
  })
  .transform((row): LinkedAuditEntry => toLinkedEntry(row));

/** The chain's head as `vetted.audit_chain_head()` answers it, with the store's now(). */
export const HeadSchema = z.object({ seq: PgSeq, chain_hash: z.string(), actor: z.string(), now: PgTime });
const HeadSealSchema = z.object({ seq: PgSeq, chain_hash: z.string(), seal: z.string().nullable() });

const COLUMNS = 'seq, at, actor, action, customer_id, outcome, detail';
export const LINKED_COLUMNS = `${COLUMNS}, hash_version, prev_hash, content_hash, chain_hash, seal`;

const CONDITIONS: Record<keyof AuditFilter, string> = {
  actor: 'actor = $',
  action: 'action = $',
  customerId: 'customer_id = $',
  from: 'at >= $',
  to: 'at < $',
};

function whereOf(filter: AuditFilter, more: Record<string, number> = {}) {
  const params: Array<string | number> = [];
  const conditions: string[] = [];
  for (const [key, condition] of Object.entries(CONDITIONS) as [keyof AuditFilter, string][]) {
    const value = filter[key];
    if (value === undefined) continue;
    params.push(key === 'from' || key === 'to' ? isoTime(value) : value);
    conditions.push(`${condition}${params.length}`);
  }
  for (const [condition, value] of Object.entries(more)) {
    params.push(value);
    conditions.push(`${condition}${params.length}`);
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** The chain's head as `vetted.audit_chain_head()` answers it (locked to this transaction), dated by the store. */
export type ChainHead = z.infer<typeof HeadSchema>;
type EntryInput = Required<Omit<AuditInput, 'actor'>> & { at?: string };

/**
 * Appends one entry to the chain inside the caller's transaction (which holds the head's lock until it
 * ends). The desks' repository and the store's migration append through here. Without `at`, the entry is
 * dated by the store's clock (its transaction's now(), the moment the store functions' changes carry):
 * what a team decides (claims, four eyes) is ordered by the store, however wrong a desk's clock is.
 */
export async function appendAuditEntry(
  client: Queryable,
  sealer: AuditSealer,
  input: EntryInput,
  /**
   * Another login than the session's, for the one entry the store lets name one: the submitter of a draft
   * whose outcome this transaction recorded (team store migration 4). Anything else is refused below, since
   * the store stamps the session's login and the hash would not match what it wrote.
   */
  onBehalfOf?: (sessionLogin: string) => { actor: string; detail: string },
): Promise<AuditEntry> {
  const head = parseRow(
    HeadSchema,
    'audit_head',
    (await client.query('SELECT seq, chain_hash, actor, now() AS now FROM vetted.audit_chain_head()')).rows,
  );
  const [written] = await appendAfterHead(client, sealer, head, [{ ...input, ...onBehalfOf?.(head.actor) }]);
  return written as AuditEntry;
}

/**
 * Appends `inputs` in order after `head` (which this transaction holds locked), in one INSERT: the store's
 * link trigger checks each row against the head the row before it moved on.
 */
export async function appendAfterHead(
  client: Queryable,
  sealer: AuditSealer,
  head: ChainHead,
  inputs: ReadonlyArray<EntryInput & { actor?: string }>,
): Promise<AuditEntry[]> {
  // The key's id, from team store migration 12 on: the store refuses an entry under an audit key a rotation
  // replaced (a desk still on the old team key), and says so in the key-changed words.
  const keyed = sealer.keyId !== undefined;
  const width = keyed ? 13 : 12;
  const params: unknown[] = [];
  const entries: Array<{ actor: string; at: string }> = [];
  let prevHash = head.chain_hash;
  for (const [i, input] of inputs.entries()) {
    const entry = { seq: head.seq + 1 + i, actor: head.actor, ...input, at: input.at ?? head.now };
    const link = linkAfter(prevHash, entry, sealer);
    prevHash = link.chainHash;
    entries.push(entry);
    params.push(
      entry.seq,
      entry.at,
      entry.action,
      entry.customerId,
      entry.outcome,
      entry.detail,
      link.version,
      link.prevHash,
      link.contentHash,
      link.chainHash,
      link.seal,
      entry.actor,
      ...(keyed ? [sealer.keyId] : []),
    );
  }
  const n = (row: number, column: number) => `$${row * width + column}`;
  const rows = inputs.map(
    (_, r) =>
      `(${[1, 2, 12, 3, 4, 5, 6, 7, 8, 9, 10, 11, ...(keyed ? [13] : [])].map((c) => n(r, c)).join(', ')})`,
  );
  const { rows: written } = await client.query(
    `INSERT INTO vetted.audit_log (seq, at, actor, action, customer_id, outcome, detail, hash_version,
       prev_hash, content_hash, chain_hash, seal${keyed ? ', audit_key' : ''})
     VALUES ${rows.join(', ')} RETURNING ${COLUMNS}`,
    params,
  );
  const answered = parseRows(AuditRowSchema, 'audit_log', written).sort((a, b) => a.seq - b.seq);
  // The hash covers the login the head named; the stamp trigger wrote the session's login. They are one.
  if (
    answered.length !== entries.length ||
    answered.some((row, i) => row.actor !== entries[i]?.actor || row.at !== entries[i]?.at)
  ) {
    throw new JournalError('The team store wrote another audit entry than the one this desk hashed.');
  }
  return answered;
}

const WrappedKeySchema = z
  .object({
    key_id: z.string(),
    audit_from: PgSeq.nullable(),
    audit_after: z.string().nullable(),
    wrapped: z.string(),
  })
  .transform(
    (row): WrappedAuditKey => ({
      id: row.key_id,
      from: row.audit_from ?? 0,
      after: row.audit_after,
      wrapped: row.wrapped,
    }),
  );

/** The team's audit keys, wrapped by its team key as the store keeps them: an export carries them. */
async function wrappedAuditKeys(db: Queryable): Promise<WrappedAuditKey[]> {
  const { rows } = await db.query(
    `SELECT key_id, audit_from, audit_after, wrapped FROM vetted.team_keys WHERE purpose = 'audit'
      ORDER BY coalesce(audit_from, 0)`,
  );
  return parseRows(WrappedKeySchema, 'team_keys', rows);
}

export function teamAuditRepository({ db, clock, sealer }: TeamRepositoryContext): AuditRepository {
  return {
    record({ action, customerId = null, outcome, detail = null }) {
      return db.write(async (client) => {
        await db.beforeAuditHead(client);
        return appendAuditEntry(client, sealer, {
          at: isoTime(clock()),
          action,
          customerId,
          outcome,
          detail,
        });
      });
    },
    async list({ limit = 100, offset = 0, ...filter } = {}) {
      const { where, params } = whereOf(filter);
      const next = params.length;
      const { rows } = await db.read.query(
        `SELECT ${COLUMNS} FROM vetted.audit_log ${where} ORDER BY seq DESC LIMIT $${next + 1} OFFSET $${next + 2}`,
        [...params, limit, offset],
      );
      return parseRows(AuditRowSchema, 'audit_log', rows);
    },
    async count(filter = {}) {
      const { where, params } = whereOf(filter);
      const { rows } = await db.read.query(`SELECT count(*) AS n FROM vetted.audit_log ${where}`, params);
      return parseRow(CountSchema, 'audit_log', rows).n;
    },
    async facets() {
      // Sorted as bytes, as the SQLite journal's are, whatever the database's locale.
      const distinct = async (column: 'actor' | 'action') => {
        const { rows } = await db.read.query(
          `SELECT DISTINCT ${column} COLLATE "C" AS value FROM vetted.audit_log ORDER BY value`,
        );
        return parseRows(z.object({ value: z.string() }), 'audit_log', rows).map(({ value }) => value);
      };
      const [actors, actions] = await Promise.all([distinct('actor'), distinct('action')]);
      return { actors: actors.filter(Boolean), actions };
    },
    async linked({ afterSeq = 0, upToSeq = Number.MAX_SAFE_INTEGER, limit, ...filter }) {
      const { where, params } = whereOf(filter, { 'seq > $': afterSeq, 'seq <= $': upToSeq });
      const { rows } = await db.read.query(
        `SELECT ${LINKED_COLUMNS} FROM vetted.audit_log ${where} ORDER BY seq LIMIT $${params.length + 1}`,
        [...params, limit],
      );
      return parseRows(LinkedRowSchema, 'audit_log', rows);
    },
    async head() {
      const { rows } = await db.read.query(
        `SELECT h.seq, h.chain_hash, a.seal FROM vetted.audit_head h
         LEFT JOIN vetted.audit_log a ON a.seq = h.seq`,
      );
      const head = parseRow(HeadSealSchema, 'audit_head', rows);
      const auditKeys = await wrappedAuditKeys(db.read);
      return {
        seq: head.seq,
        chainHash: head.chain_hash,
        seal: head.seal,
        keyCheck: sealer.keyCheck,
        ...(auditKeys.length > 0 ? { auditKeys } : {}),
      };
    },
  };
}
