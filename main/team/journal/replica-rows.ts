// Reading the team store's changes for a desk's replica: one page of every change after a number, across the
// five replicated tables, decrypted with the team key and checked with zod (the database is a boundary:
// another desk, another version, or an administrator's hand wrote what it holds).
import { z } from 'zod';
import { CLAIM_HOWS } from '#contract/claims.ts';
import { claimNotePlace, type ReplicaClaim } from '#main/data/journal/claims.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { ReplicaChanges } from '#main/data/journal/replica.ts';
import type { Queryable } from '../store/sql.ts';
import { CUSTOMER_COLUMNS, CustomerRowSchema, replicaCustomerOf } from './customer-row.ts';
import { NOTE_COLUMNS, NoteRowSchema, noteOf } from './notes.ts';
import { camelKeys, PgSeq, PgText, PgTime, PgTimeOrNull, parseRow, parseRows } from './rows.ts';

/** A page of changes: `through` is the highest change number it covers; `more` if a page may follow. */
export interface ChangesPage {
  changes: ReplicaChanges & { through: number };
  more: boolean;
}

const HistoryRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  status: PgText,
  at: PgTime,
  source: z.enum(['created', 'poll', 'event']),
  event_id: z.string().nullable(),
});

const RetryRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  used_at: PgTime,
  outcome: z.string().nullable(),
  released: z.boolean(),
});

const ClaimRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  holder: z.string().nullable(),
  since: PgTimeOrNull,
  how: z.enum(CLAIM_HOWS),
  changed_by: z.string(),
  changed_at: PgTime,
  note: z.string().nullable(),
});

/** A claim row as the replica takes it: its note opened with the team key. */
function claimOf(cipher: PersonalCipher, row: z.infer<typeof ClaimRowSchema>): ReplicaClaim {
  const { note, ...rest } = camelKeys(row);
  return { ...rest, note: note === null ? null : cipher.open(claimNotePlace(row.customer_id), note) };
}

const COLUMNS = {
  // Only what the replica keeps (not who wrote a retry, say); customers as the team journal reads them.
  customers: CUSTOMER_COLUMNS,
  status_history: 'seq, customer_id, status, at, source, event_id',
  notes: NOTE_COLUMNS,
  retries: 'seq, customer_id, used_at, outcome, released',
  // Who holds a case, not until when: a holder's action moves the expiry without a change number.
  claims: 'seq, customer_id, holder, since, how, changed_by, changed_at, note',
} as const;

/** The tables a desk copies: every row of them carries a change number. */
export type ReplicatedTable = keyof typeof COLUMNS;
export const REPLICATED_TABLES = Object.keys(COLUMNS) as [ReplicatedTable, ...ReplicatedTable[]];

/** Columns that are timestamptz: JSON gives them as ISO text, the row schemas take them as node-postgres gives them. */
const TIMES = new Set([
  'at',
  'used_at',
  'since',
  'changed_at',
  'status_since',
  'created',
  'last_refreshed',
  'gone_at',
]);

/** A table's rows as the page's JSON gave them (null: none), checked as the table's own reads check them. */
function fromJson<T>(schema: z.ZodType<T>, table: string, rows: readonly unknown[] | null): T[] {
  const asRead = (rows ?? []).map((row) =>
    typeof row === 'object' && row !== null
      ? Object.fromEntries(
          Object.entries(row).map(([key, value]) => [
            key,
            TIMES.has(key) && typeof value === 'string' ? new Date(value) : value,
          ]),
        )
      : row,
  );
  return parseRows(schema, table, asRead);
}

// One statement reads the whole page, so a desk's catch-up costs the store one round trip, planned once, instead
// of a transaction of seven (a desk catches up after every change any desk or hub commits: with fifty desks,
// the store's CPU per change is fifty catch-ups). One statement sees one snapshot, which is all the page needs:
// a customer rewritten between two of its parts is in this page or a later one.
// The page's end: the `limit`-th change number after `after` over the five tables (each read from its index on
// seq, merged in order). A customer or retry rewritten by a later change has left this range for a later one.
// Customers that history, retries or claims refer to come along in their newest state, looked up one by one on
// the primary key (LATERAL), never by a scan past the page's end.
const PAGE = `
WITH page AS (
  SELECT max(seq) AS through, count(*)::int AS n FROM (
    SELECT seq FROM (
      SELECT seq FROM vetted.customers WHERE seq > $1
      UNION ALL SELECT seq FROM vetted.status_history WHERE seq > $1
      UNION ALL SELECT seq FROM vetted.notes WHERE seq > $1
      UNION ALL SELECT seq FROM vetted.retries WHERE seq > $1
      UNION ALL SELECT seq FROM vetted.claims WHERE seq > $1
    ) AS changed ORDER BY seq LIMIT $2
  ) AS ordered
),
${(['status_history', 'notes', 'retries', 'claims'] as const)
  .map((table) => `${table} AS (${inRange(table)})`)
  .join(',\n')},
referenced AS (
  SELECT customer_id FROM status_history UNION SELECT customer_id FROM retries
  UNION SELECT customer_id FROM claims
),
customers AS (
  ${inRange('customers')}
  UNION ALL
  SELECT newer.* FROM referenced, LATERAL (
    SELECT ${COLUMNS.customers} FROM vetted.customers
    WHERE id = referenced.customer_id AND seq > (SELECT through FROM page)
  ) AS newer
)
SELECT (SELECT through FROM page) AS through, (SELECT n FROM page) AS n,
${Object.keys(COLUMNS)
  .map((table) => `  (SELECT json_agg(r ORDER BY r.seq) FROM ${table} AS r) AS ${table}`)
  .join(',\n')}`;

function inRange(table: keyof typeof COLUMNS): string {
  return `SELECT ${COLUMNS[table]} FROM vetted.${table} WHERE seq > $1 AND seq <= (SELECT through FROM page)`;
}

const Rows = z.array(z.unknown()).nullable();
const PageRowSchema = z.object({
  through: PgSeq.nullable(),
  n: z.number().int().nonnegative().nullable(),
  customers: Rows,
  status_history: Rows,
  notes: Rows,
  retries: Rows,
  claims: Rows,
});

/**
 * Reads one page of changes after `after`, in one statement (one snapshot of the store). History, retries and
 * claims need their customer locally: a customer that a later change rewrote (so past this page) comes along
 * with them, in its newest state; one at or before `after` is in the replica already (every change up to
 * `after` was applied).
 */
export async function readChangesPage(
  db: Queryable,
  cipher: PersonalCipher,
  after: number,
  limit: number,
): Promise<ChangesPage> {
  const { rows: found } = await db.query(PAGE, [after, limit]);
  const page = parseRow(PageRowSchema, 'changes', found);
  const through = page.through ?? after;
  const more = (page.n ?? 0) >= limit;
  if (through === after) return { changes: { through }, more: false };
  return { more, changes: { through, ...changesFromJson(cipher, page) } };
}

/** Rows of the replicated tables as JSON gave them (a page, or one announced row), checked and opened. */
export function changesFromJson(
  cipher: PersonalCipher,
  tables: Partial<Record<ReplicatedTable, readonly unknown[] | null>>,
): ReplicaChanges {
  const history = fromJson(HistoryRowSchema, 'status_history', tables.status_history ?? null);
  const notes = fromJson(NoteRowSchema, 'notes', tables.notes ?? null);
  const retries = fromJson(RetryRowSchema, 'retries', tables.retries ?? null);
  const claims = fromJson(ClaimRowSchema, 'claims', tables.claims ?? null);
  const customers = fromJson(CustomerRowSchema, 'customers', tables.customers ?? null);
  return {
    customers: customers.map((row) => replicaCustomerOf(row, cipher)),
    statusHistory: history.map(camelKeys),
    notes: notes.map((row) => noteOf(cipher, row)),
    retries: retries.map(camelKeys),
    claims: claims.map((row) => claimOf(cipher, row)),
  };
}
